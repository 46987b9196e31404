/**
 * The personal workbench (/home/personalhome): counts of the caller's to-do cases, overdue cases
 * and cases due within 7/15/30 days, and a block per feed showing its first cases. A block shows
 * only when the user holds its permission; blocks of modules not built yet are absent. The download tasks block shows the caller's latest tasks.
 */
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Button,
  Card,
  CardHeader,
  Spinner,
  Tab,
  TabList,
  Text,
  Title2,
  Title3,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { SelectTabData } from '@fluentui/react-components';
import { reportingReminderDays } from '@pv/engine';
import { useSession } from '../../app/SessionContext';
import { useLanguage } from '../../i18n/LanguageContext';
import type { FeedKind, WorkbenchCounts } from './api';
import { FEED_PERMISSION, FEED_ROUTE, workbenchApi } from './api';
import { CaseFeedTable } from './CaseFeedTable';
import { useFeed } from './useFeed';
import { DownloadsBlock } from './DownloadsBlock';
import { UNBLINDING_LIST_PERMISSION, UnblindingBlock } from '../unblinding/UnblindingBlock';
import { DOWNLOAD_PERMISSIONS } from './downloads-api';
import {
  PENDING_QUERIES_PERMISSION,
  QUERY_LETTERS_PERMISSION,
  QueriesBlock,
  QueryLettersBlock,
} from '../queries/QueriesBlock';

/** Cases a block shows before "more". */
const BLOCK_SIZE = 5;

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  tiles: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM },
  tile: { minWidth: '150px', cursor: 'pointer' },
  figure: { fontSize: tokens.fontSizeHero800, lineHeight: tokens.lineHeightHero800 },
  overdue: { color: tokens.colorPaletteRedForeground1 },
  block: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  blockHead: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM },
  spacer: { flexGrow: 1 },
});

function FeedBlock(props: { kind: FeedKind; days?: number; title: string }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const { t } = useLanguage();
  const feed = useFeed(props.kind, 1, BLOCK_SIZE, props.days);
  const more = FEED_ROUTE[props.kind] + (props.days ? `?days=${props.days}` : '');
  return (
    <div className={styles.block}>
      <div className={styles.blockHead}>
        <Text weight="semibold">{t('list.total', { total: feed.total })}</Text>
        <span className={styles.spacer} />
        <Button appearance="subtle" onClick={() => void navigate(more)} data-testid={`more-${props.kind}`}>
          {t('workbench.more')}
        </Button>
      </div>
      {feed.rows === null ? (
        <Spinner size="small" />
      ) : (
        <CaseFeedTable
          testId={`block-${props.kind}`}
          rows={feed.rows}
          columns={feed.columns}
          offset={0}
          ariaLabel={props.title}
        />
      )}
    </div>
  );
}

type OvertimeTab = 'overdue' | `predue-${number}`;

export default function WorkbenchPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { t } = useLanguage();
  const { info } = useSession();
  const can = useMemo(() => {
    const held = new Set(info?.permissions ?? []);
    return (permission: string) => held.has(permission);
  }, [info]);
  const [counts, setCounts] = useState<WorkbenchCounts | null>(null);

  useEffect(() => {
    workbenchApi.counts().then(setCounts, () => setCounts(null));
  }, []);

  const overtimeTabs: OvertimeTab[] = [
    ...(can(FEED_PERMISSION.overdue) ? (['overdue'] as const) : []),
    ...(can(FEED_PERMISSION.predue) ? reportingReminderDays.map((days) => `predue-${days}` as const) : []),
  ];
  const [overtime, setOvertime] = useState<OvertimeTab | null>(null);
  const currentOvertime = overtime ?? overtimeTabs[0] ?? null;
  const tabLabel = (tab: OvertimeTab) =>
    tab === 'overdue'
      ? t('workbench.overdue.title')
      : t('workbench.reminder.within', { days: Number(tab.slice('predue-'.length)) });

  const tiles: { key: string; label: string; value: number | undefined; to: string; show: boolean }[] = [
    {
      key: 'todo',
      label: t('workbench.todo.title'),
      value: counts?.todo,
      to: FEED_ROUTE.todo,
      show: can(FEED_PERMISSION.todo),
    },
    {
      key: 'overdue',
      label: t('workbench.overdue.title'),
      value: counts?.overdue,
      to: FEED_ROUTE.overdue,
      show: can(FEED_PERMISSION.overdue),
    },
    ...reportingReminderDays.map((days) => ({
      key: `predue-${days}`,
      label: t('workbench.reminder.within', { days }),
      value: counts?.predue[String(days)],
      to: `${FEED_ROUTE.predue}?days=${days}`,
      show: can(FEED_PERMISSION.predue),
    })),
  ];

  return (
    <section className={styles.page} data-testid="workbench">
      <Title2 as="h1">{t('workbench.title')}</Title2>
      <div className={styles.tiles}>
        {tiles
          .filter((tile) => tile.show)
          .map((tile) => (
            <Card
              key={tile.key}
              className={styles.tile}
              onClick={() => void navigate(tile.to)}
              data-testid={`tile-${tile.key}`}
            >
              <CardHeader header={<Text>{tile.label}</Text>} />
              <Text
                className={`${styles.figure} ${tile.key === 'overdue' && tile.value ? styles.overdue : ''}`}
                data-testid={`count-${tile.key}`}
              >
                {tile.value ?? '–'}
              </Text>
            </Card>
          ))}
      </div>
      {can(FEED_PERMISSION.todo) ? (
        <Card data-testid="workbench-todo">
          <Title3 as="h2">{t('workbench.todo.title')}</Title3>
          <FeedBlock kind="todo" title={t('workbench.todo.title')} />
        </Card>
      ) : null}
      {currentOvertime ? (
        <Card data-testid="workbench-overtime">
          <Title3 as="h2">{t('workbench.overtime.title')}</Title3>
          <TabList
            selectedValue={currentOvertime}
            onTabSelect={(_: unknown, d: SelectTabData) => setOvertime(d.value as OvertimeTab)}
          >
            {overtimeTabs.map((tab) => (
              <Tab key={tab} value={tab} data-testid={`overtime-tab-${tab}`}>
                {tabLabel(tab)}
              </Tab>
            ))}
          </TabList>
          {currentOvertime === 'overdue' ? (
            <FeedBlock key="overdue" kind="overdue" title={tabLabel('overdue')} />
          ) : (
            <FeedBlock
              key={currentOvertime}
              kind="predue"
              days={Number(currentOvertime.slice('predue-'.length))}
              title={tabLabel(currentOvertime)}
            />
          )}
        </Card>
      ) : null}
      {can(PENDING_QUERIES_PERMISSION) ? <QueriesBlock /> : null}
      {can(QUERY_LETTERS_PERMISSION) ? <QueryLettersBlock /> : null}
      {can(DOWNLOAD_PERMISSIONS.list) ? <DownloadsBlock size={BLOCK_SIZE} /> : null}
      {can(UNBLINDING_LIST_PERMISSION) ? <UnblindingBlock /> : null}
    </section>
  );
}
