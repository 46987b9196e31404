/** All of the caller's download tasks (/home/downloadstasks) with paging and column settings. */
import { useState } from 'react';
import { Button, Spinner, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { useLanguage } from '../../i18n/LanguageContext';
import { ListPager, useColumnLayout } from '../exports/ListParts';
import { DOWNLOADS_TABLE, DownloadTaskTable, useDownloadColumns, useDownloadTasks } from './DownloadTasks';
import { useDownloadsText } from './downloads-text';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  spacer: { flexGrow: 1 },
});

export default function DownloadTasksPage() {
  const styles = useStyles();
  const { t } = useLanguage();
  const { dt } = useDownloadsText();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(20);
  const { tasks, total, load } = useDownloadTasks(page, size);
  const columns = useColumnLayout(DOWNLOADS_TABLE, useDownloadColumns());

  return (
    <section className={styles.page} data-testid="downloads-page">
      <Title2 as="h1">{dt('uiTitle')}</Title2>
      <div className={styles.toolbar}>
        <span className={styles.spacer} />
        <Button onClick={() => void load()} data-testid="downloads-refresh">
          {dt('uiRefresh')}
        </Button>
        <Button onClick={columns.open} data-testid="list-columns">
          {t('columns.title')}
        </Button>
      </div>
      {tasks === null ? (
        <Spinner size="small" />
      ) : (
        <DownloadTaskTable
          testId="downloads-table"
          tasks={tasks}
          columns={columns.shown}
          offset={(page - 1) * size}
          onChanged={() => void load()}
        />
      )}
      <ListPager
        page={page}
        size={size}
        total={total}
        onPage={setPage}
        onSize={(next) => {
          setSize(next);
          setPage(1);
        }}
        labels={{ total: t('list.total', { total }), previous: t('list.previous'), next: t('list.next') }}
      />
      {columns.dialog}
    </section>
  );
}
