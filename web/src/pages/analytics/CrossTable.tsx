/**
 * A cross-tabulation as a safety physician reads it: the last dimension across, the others down,
 * each cell its cases and their share of the row's cases, a total per row and per column and the
 * grand total; with three dimensions a subtotal per value of the first. Every total is the
 * server's count of distinct cases (a case with two SOCs is one case of its product's row), never
 * a sum of cells. Counts the case list can show exactly open it.
 */
import { Fragment } from 'react';
import { useNavigate } from 'react-router-dom';
import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { useLanguage } from '../../i18n/LanguageContext';
import { CellLink } from '../../renderers/table/DataTable';
import { casesHref } from './types';
import type { LocalisedText } from '../../i18n';
import type { AnalyticsAnswer, AnalyticsRow, PivotMargins } from './types';

const useStyles = makeStyles({
  // As wide as the matrix (a few columns do not stretch across the page), scrolling when wider.
  frame: { overflow: 'auto', maxHeight: '560px', maxWidth: '100%', width: 'fit-content' },
  table: { borderCollapse: 'collapse', fontSize: tokens.fontSizeBase200 },
  // The header rows stay in view as the matrix scrolls (the whole head, so its rows do not overlap).
  sticky: { position: 'sticky', top: 0, zIndex: 1 },
  head: {
    background: tokens.colorNeutralBackground3,
    fontWeight: tokens.fontWeightSemibold,
    textAlign: 'center',
    verticalAlign: 'bottom',
    minWidth: '72px',
    maxWidth: '160px',
    padding: '4px 8px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    overflowWrap: 'anywhere',
  },
  label: {
    textAlign: 'left',
    verticalAlign: 'top',
    minWidth: '96px',
    maxWidth: '220px',
    padding: '4px 8px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    overflowWrap: 'anywhere',
  },
  cell: {
    textAlign: 'right',
    whiteSpace: 'nowrap',
    padding: '4px 8px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  share: { color: tokens.colorNeutralForeground3, marginLeft: '4px' },
  total: { background: tokens.colorNeutralBackground2, fontWeight: tokens.fontWeightSemibold },
});

const keyOf = (row: AnalyticsRow, ids: string[]) => JSON.stringify(ids.map((id) => row.key[id] ?? null));

export function CrossTable({
  answer,
  margins,
  testId,
}: {
  answer: AnalyticsAnswer;
  margins: PivotMargins;
  testId: string;
}) {
  const styles = useStyles();
  const { t, pick } = useLanguage();
  const navigate = useNavigate();
  const ids = answer.dimensions.map((d) => d.id);
  const across = ids[ids.length - 1]!;
  const down = ids.slice(0, -1);
  const first = ids[0]!;
  const three = ids.length > 2 && margins.firsts !== undefined;
  const text = (row: AnalyticsRow, id: string) => {
    const names = row.names?.[id];
    return names ? pick(names as LocalisedText) : (row.labels[id] ?? '');
  };
  const cells = new Map(answer.rows.map((r) => [keyOf(r, ids), r]));
  const subCells = new Map((margins.firstColumns ?? []).map((r) => [keyOf(r, [first, across]), r]));
  const columns = margins.columns;
  // Rows grouped under their first dimension's value (in its subtotal's order) with three dimensions.
  const groups = three
    ? margins.firsts!.map((head) => ({
        head,
        rows: margins.rows.filter((r) => keyOf(r, [first]) === keyOf(head, [first])),
      }))
    : [{ head: null, rows: margins.rows }];

  const share = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : '-');
  const count = (row: AnalyticsRow | undefined, of: number, testid?: string) => {
    if (!row) return <td className={styles.cell} />;
    const n = String(row.count);
    return (
      <td className={styles.cell} data-testid={testid}>
        {row.cases ? <CellLink onClick={() => navigate(casesHref(row.cases!))}>{n}</CellLink> : n}
        <span className={styles.share}>({share(row.count, of)})</span>
      </td>
    );
  };

  return (
    <>
      <Caption1 data-testid={`${testId}-cross-note`}>{t('analytics.crossNote')}</Caption1>
      <div className={styles.frame}>
        <table className={styles.table} data-testid={`${testId}-table`} aria-label={pick(answer.labels)}>
          <thead className={styles.sticky}>
            <tr>
              {answer.dimensions.slice(0, -1).map((d) => (
                <th key={d.id} className={styles.head} rowSpan={2} scope="col">
                  {pick(d.labels)}
                </th>
              ))}
              <th className={styles.head} colSpan={columns.length} scope="colgroup">
                {pick(answer.dimensions[answer.dimensions.length - 1]!.labels)}
              </th>
              <th className={`${styles.head} ${styles.total}`} rowSpan={2} scope="col">
                {t('analytics.crossTotal')}
              </th>
            </tr>
            <tr>
              {columns.map((c) => (
                <th key={keyOf(c, [across])} className={styles.head} scope="col">
                  {text(c, across)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {groups.map(({ head, rows }) => (
              <Fragment key={head ? keyOf(head, [first]) : 'all'}>
                {rows.map((row, i) => (
                  <tr key={keyOf(row, down)} data-testid={`${testId}-row`}>
                    {down.map((id, j) =>
                      three && j === 0 ? (
                        i === 0 && (
                          <th key={id} className={styles.label} rowSpan={rows.length + 1} scope="rowgroup">
                            {text(row, id)}
                          </th>
                        )
                      ) : (
                        <th key={id} className={styles.label} scope="row">
                          {text(row, id)}
                        </th>
                      ),
                    )}
                    {columns.map((c) => (
                      <Fragment key={keyOf(c, [across])}>
                        {count(
                          cells.get(
                            JSON.stringify([...down.map((id) => row.key[id] ?? null), c.key[across] ?? null]),
                          ),
                          row.count,
                        )}
                      </Fragment>
                    ))}
                    {count(row, margins.total)}
                  </tr>
                ))}
                {head && (
                  <tr className={styles.total} data-testid={`${testId}-subtotal`}>
                    <th className={styles.label} scope="row">
                      {t('analytics.crossSubtotal')}
                    </th>
                    {columns.map((c) => (
                      <Fragment key={keyOf(c, [across])}>
                        {count(
                          subCells.get(JSON.stringify([head.key[first] ?? null, c.key[across] ?? null])),
                          head.count,
                        )}
                      </Fragment>
                    ))}
                    {count(head, margins.total)}
                  </tr>
                )}
              </Fragment>
            ))}
            <tr className={styles.total} data-testid={`${testId}-column-totals`}>
              <th className={styles.label} colSpan={down.length} scope="row">
                {t('analytics.crossTotal')}
              </th>
              {columns.map((c) => (
                <Fragment key={keyOf(c, [across])}>{count(c, margins.total)}</Fragment>
              ))}
              <td className={styles.cell} data-testid={`${testId}-grand-total`}>
                {margins.total}
              </td>
            </tr>
          </tbody>
        </table>
      </div>
    </>
  );
}
