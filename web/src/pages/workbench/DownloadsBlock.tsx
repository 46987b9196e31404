/** The workbench's download tasks block: the caller's latest tasks and a link to all of them. */
import { useNavigate } from 'react-router-dom';
import { Button, Card, Spinner, Text, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { useLanguage } from '../../i18n/LanguageContext';
import { useColumnLayout } from '../exports/ListParts';
import { DOWNLOADS_ROUTE } from './downloads-api';
import { DOWNLOADS_TABLE, DownloadTaskTable, useDownloadColumns, useDownloadTasks } from './DownloadTasks';
import { useDownloadsText } from './downloads-text';

const useStyles = makeStyles({
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM },
  spacer: { flexGrow: 1 },
});

export function DownloadsBlock(props: { size: number }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const { t } = useLanguage();
  const { dt } = useDownloadsText();
  const { tasks, total, load } = useDownloadTasks(1, props.size);
  // The block shows the columns the user chose on the page.
  const columns = useColumnLayout(DOWNLOADS_TABLE, useDownloadColumns());
  return (
    <Card data-testid="workbench-downloads">
      <Title3 as="h2">{dt('uiLatest')}</Title3>
      <div className={styles.head}>
        <Text weight="semibold">{t('list.total', { total })}</Text>
        <span className={styles.spacer} />
        <Button
          appearance="subtle"
          onClick={() => void navigate(DOWNLOADS_ROUTE)}
          data-testid="more-downloads"
        >
          {dt('uiAll')}
        </Button>
      </div>
      {tasks === null ? (
        <Spinner size="small" />
      ) : (
        <DownloadTaskTable
          testId="block-downloads"
          tasks={tasks}
          columns={columns.shown}
          offset={0}
          onChanged={() => void load()}
        />
      )}
    </Card>
  );
}
