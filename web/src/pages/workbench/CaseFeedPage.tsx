/**
 * A whole workbench feed with paging: to-do cases (/home/casetodo), overdue cases
 * (/home/overduecases), cases due within 7, 15 or 30 days (/home/preduealerts?days=).
 */
import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { Button, Spinner, Tab, TabList, Text, Title2, makeStyles, tokens } from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import { reportingReminderDays } from '@pv/engine';
import { notify } from '../../app/notify';
import { useLanguage } from '../../i18n/LanguageContext';
import { ColumnSettingsDialog } from '../../renderers/columns/ColumnSettingsDialog';
import { orderedColumns } from '../../renderers/columns/layout';
import { resetLayout, saveLayout } from '../../renderers/columns/store';
import type { FeedKind } from './api';
import { FEED_ROUTE } from './api';
import { FEED_COLUMNS } from './columns';
import { CaseFeedTable } from './CaseFeedTable';
import { feedTableId, useFeed } from './useFeed';

const SIZE = 20;
const REMINDER_DAYS = reportingReminderDays;

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  toolbar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  spacer: { flexGrow: 1 },
  pager: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    justifyContent: 'flex-end',
  },
});

const TITLE: Record<FeedKind, string> = {
  todo: 'workbench.todo.title',
  overdue: 'workbench.overdue.title',
  predue: 'workbench.predue.title',
};

export default function CaseFeedPage() {
  const styles = useStyles();
  const { t } = useLanguage();
  const { pathname } = useLocation();
  const [search, setSearch] = useSearchParams();
  const kind = (Object.keys(FEED_ROUTE) as FeedKind[]).find((k) => FEED_ROUTE[k] === pathname) ?? 'todo';
  const askedDays = Number(search.get('days'));
  const days = REMINDER_DAYS.includes(askedDays) ? askedDays : REMINDER_DAYS[REMINDER_DAYS.length - 1]!;
  const [page, setPage] = useState(1);
  const [settings, setSettings] = useState(false);
  const feed = useFeed(kind, page, SIZE, kind === 'predue' ? days : undefined);
  const pages = Math.max(1, Math.ceil(feed.total / SIZE));

  return (
    <section className={styles.page} data-testid={`feed-page-${kind}`}>
      <Title2 as="h1">{t(TITLE[kind])}</Title2>
      {kind === 'predue' ? (
        <TabList
          selectedValue={String(days)}
          onTabSelect={(_: unknown, d: SelectTabData) => {
            setPage(1);
            setSearch({ days: String(d.value) });
          }}
        >
          {REMINDER_DAYS.map((n) => (
            <Tab key={n} value={String(n)} data-testid={`predue-tab-${n}`}>
              {t('workbench.reminder.within', { days: n })}
            </Tab>
          ))}
        </TabList>
      ) : null}
      <div className={styles.toolbar}>
        <Text>{t('list.total', { total: feed.total })}</Text>
        <span className={styles.spacer} />
        <Button onClick={() => void feed.load()} data-testid="feed-refresh">
          {t('list.refresh')}
        </Button>
        <Button onClick={() => setSettings(true)} data-testid="list-columns">
          {t('columns.title')}
        </Button>
      </div>
      {feed.rows === null ? (
        <Spinner size="small" />
      ) : (
        <CaseFeedTable
          testId={`feed-${kind}`}
          rows={feed.rows}
          columns={feed.columns}
          offset={(page - 1) * SIZE}
          ariaLabel={t(TITLE[kind])}
        />
      )}
      <div className={styles.pager}>
        <Button disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
          {t('list.previous')}
        </Button>
        <Text>{t('list.page', { page, pages })}</Text>
        <Button disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
          {t('list.next')}
        </Button>
      </div>
      {settings ? (
        <ColumnSettingsDialog
          columns={orderedColumns(FEED_COLUMNS, feed.layout).map((c) => ({
            key: c.key,
            label: t(c.labelKey),
          }))}
          shown={new Set(feed.columns.map((c) => c.key))}
          onClose={() => setSettings(false)}
          onSave={async (next) => {
            await saveLayout(feedTableId(kind), next);
            feed.setLayout(next);
            setSettings(false);
            notify.toast('success', t('columns.saved'));
          }}
          onReset={async () => {
            await resetLayout(feedTableId(kind));
            setSettings(false);
          }}
        />
      ) : null}
    </section>
  );
}
