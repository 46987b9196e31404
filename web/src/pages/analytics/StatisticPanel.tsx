/**
 * One statistic: its chart (chart.js) with the data table under it (each value, its count and its
 * share of the cases counted, then the total; a pivot of two or three dimensions as a matrix with
 * its counted totals, CrossTable), and its export menu (PNG of the chart as drawn;
 * Excel, Word and PDF with the chart image, built by the server as download tasks).
 */
import { useEffect, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { Body1, Caption1, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PieController,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useLanguage } from '../../i18n/LanguageContext';
import { CellLink, DataTable } from '../../renderers/table/DataTable';
import type { DataColumn } from '../../renderers/table/DataTable';
import { CrossTable } from './CrossTable';
import { ExportMenu } from './ExportMenu';
import type { ExportTarget } from './ExportMenu';
import { casesHref } from './types';
import type { LocalisedText } from '../../i18n';
import type { AnalyticsAnswer, AnalyticsRow } from './types';

Chart.register(
  LineController,
  LineElement,
  PointElement,
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  PieController,
  ArcElement,
  Legend,
  Tooltip,
);

const useStyles = makeStyles({
  panel: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '12px',
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
    minWidth: 0,
  },
  head: { display: 'flex', alignItems: 'center', gap: '8px' },
  grow: { flexGrow: 1 },
  chart: { position: 'relative', height: '260px' },
  empty: { color: tokens.colorNeutralForeground3, padding: '24px 0', textAlign: 'center' },
});

const PALETTE = ['#2563eb', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#06b6d4', '#84cc16', '#ec4899'];

/** A row's value of a dimension in the display language (both in the bilingual display). */
function valueText(row: AnalyticsRow, id: string, pick: (text: LocalisedText) => string): string {
  const names = row.names?.[id];
  return names ? pick(names) : (row.labels[id] ?? '');
}

export function StatisticPanel({
  answer,
  testId,
  exportTarget,
  note,
}: {
  answer: AnalyticsAnswer;
  testId: string;
  /** A sentence under the title saying how to read the statistic. */
  note?: string;
  /** The export route and request of what this panel shows (Excel, Word and PDF with its chart). */
  exportTarget: ExportTarget;
}) {
  const styles = useStyles();
  const { t, pick } = useLanguage();
  const canvas = useRef<HTMLCanvasElement>(null);
  const navigate = useNavigate();
  const title = pick(answer.labels);
  // Nothing counted: no empty axes, a sentence saying why there is no chart.
  const empty = answer.rows.length === 0;
  const percent = (n: number) => (answer.total ? `${((100 * n) / answer.total).toFixed(1)}%` : '-');

  useEffect(() => {
    if (!canvas.current) return;
    const pie = answer.chart === 'pie';
    const [first, ...rest] = answer.dimensions;
    // Two or three dimensions as bars: the first along the axis, the others as series with a legend
    // (a cross-tabulation read as such, not one bar per combination).
    const crossed = answer.chart === 'bar' && rest.length > 0 && first !== undefined;
    const text = (row: AnalyticsRow, id: string) => valueText(row, id, pick);
    const seriesOf = (row: AnalyticsRow) => rest.map((d) => text(row, d.id)).join(' / ');
    const axis = crossed
      ? [...new Set(answer.rows.map((row) => text(row, first.id)))]
      : answer.rows.map((row) => answer.dimensions.map((d) => text(row, d.id)).join(' / '));
    const datasets = crossed
      ? [...new Set(answer.rows.map(seriesOf))].map((series, i) => ({
          label: series,
          data: axis.map((x) =>
            answer.rows
              .filter((row) => text(row, first.id) === x && seriesOf(row) === series)
              .reduce((sum, row) => sum + row.count, 0),
          ),
          backgroundColor: PALETTE[i % PALETTE.length]!,
        }))
      : [
          {
            label: t('analytics.cases'),
            data: answer.rows.map((row) => row.count),
            backgroundColor: pie ? answer.rows.map((_, i) => PALETTE[i % PALETTE.length]!) : PALETTE[0],
          },
        ];
    const label = (dimensions: typeof answer.dimensions) => dimensions.map((d) => pick(d.labels)).join(' / ');
    const chart = new Chart(canvas.current, {
      type: pie ? 'pie' : answer.chart === 'line' ? 'line' : 'bar',
      data: { labels: axis, datasets },
      options: {
        animation: false,
        maintainAspectRatio: false,
        plugins: {
          legend: {
            display: pie || crossed,
            ...(crossed ? { title: { display: true, text: label(rest) } } : {}),
          },
        },
        // Bars and lines: what each axis counts, whole cases from zero.
        ...(pie
          ? {}
          : {
              scales: {
                x: {
                  // A trend of one month sits in the middle, not on the axis.
                  offset: true,
                  title: { display: true, text: crossed ? label([first]) : label(answer.dimensions) },
                },
                y: {
                  beginAtZero: true,
                  ticks: { precision: 0 },
                  title: { display: true, text: t('analytics.cases') },
                },
              },
            }),
      },
    });
    return () => chart.destroy();
  }, [answer, t, pick]);

  const columns = useMemo<DataColumn<AnalyticsRow>[]>(
    () => [
      // The values wide enough to read (workflow nodes, report classifications), the figures narrow.
      ...answer.dimensions.map((d) => ({
        key: d.id,
        label: d.labels,
        width: answer.dimensions.length === 1 ? 210 : 150,
        text: (row: AnalyticsRow) => valueText(row, d.id, pick),
      })),
      {
        key: 'count',
        label: t('analytics.cases'),
        kind: 'number',
        width: 72,
        text: (row) => String(row.count),
        // The count opens the case list on exactly these cases, when the list can express them.
        render: (row, text) =>
          row.cases ? <CellLink onClick={() => navigate(casesHref(row.cases!))}>{text}</CellLink> : text,
      },
      {
        key: 'percent',
        label: t('analytics.percent'),
        kind: 'number',
        width: 72,
        text: (row) => percent(row.count),
      },
    ],
    [answer, t, pick, navigate],
  );

  return (
    <section className={styles.panel} data-testid={testId}>
      <div className={styles.head}>
        <Subtitle2 className={styles.grow}>{title}</Subtitle2>
        <ExportMenu testId={testId} title={title} target={exportTarget} canvas={empty ? undefined : canvas} />
      </div>
      {note && <Caption1 data-testid={`${testId}-note`}>{note}</Caption1>}
      {empty ? (
        <Body1 className={styles.empty} data-testid={`${testId}-no-chart`}>
          {t('analytics.noChart')}
        </Body1>
      ) : (
        <div className={styles.chart}>
          <canvas ref={canvas} role="img" aria-label={title} />
        </div>
      )}
      {answer.margins && !empty ? (
        <CrossTable answer={answer} margins={answer.margins} testId={testId} />
      ) : (
        <DataTable
          id={`analytics-${answer.id}`}
          ariaLabel={title}
          testId={`${testId}-table`}
          columns={columns}
          rows={answer.rows}
          rowKey={(row) => JSON.stringify(row.key)}
          serialOffset={false}
          empty={t('analytics.noCases')}
        />
      )}
      <Body1 data-testid={`${testId}-total`}>
        {t('analytics.totalCases', { n: answer.total })}
        {answer.blinded ? ` · ${t('analytics.blindedNote')}` : ''}
      </Body1>
    </section>
  );
}
