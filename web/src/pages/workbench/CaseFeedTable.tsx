/**
 * A table of workbench cases (the shared table renderer). The report code opens the case; overdue
 * rows and rows inside the 7-day window are marked. The columns follow the user's saved layout for
 * the table id; their widths are declared under `workbench` in schemas/ui/tables.json.
 */
import { makeStyles, tokens } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { useLanguage } from '../../i18n/LanguageContext';
import { useNames } from '../../display/useNames';
import { CellLink, DataTable, catalogueLabel } from '../../renderers/table/DataTable';
import type { FeedRow } from './api';
import type { FeedColumn } from './columns';

const useStyles = makeStyles({
  overdue: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  soon: { color: tokens.colorPaletteDarkOrangeForeground1 },
});

export function CaseFeedTable(props: {
  testId: string;
  rows: FeedRow[];
  columns: FeedColumn[];
  /** Serial number of the first row minus one (paging). */
  offset: number;
  ariaLabel: string;
}) {
  const styles = useStyles();
  const navigate = useNavigate();
  const { t, pick } = useLanguage();
  const { name } = useNames();
  const urgency = (row: FeedRow) =>
    row.reminder === 'overdue' ? styles.overdue : row.reminder === 7 ? styles.soon : undefined;
  return (
    <DataTable<FeedRow>
      id="workbench"
      ariaLabel={props.ariaLabel}
      testId={props.testId}
      columns={props.columns.map((column) => ({
        key: column.key,
        label: catalogueLabel(column.labelKey),
        text: (row: FeedRow) => column.text(row, t, pick, name),
        ...(column.key === 'daysLeft' || column.key === 'reminder' ? { cellClassName: urgency } : {}),
        ...(column.key === 'reportCode'
          ? {
              render: (row: FeedRow, text: string) => (
                <CellLink
                  data-testid="open-case"
                  onClick={() => void navigate(`/activecase?caseId=${encodeURIComponent(row.id)}`)}
                >
                  {text || t('workbench.openCase')}
                </CellLink>
              ),
            }
          : {}),
      }))}
      rows={props.rows}
      rowKey={(row) => row.id}
      rowProps={(row) => ({ 'data-testid': 'feed-row', 'data-case-id': row.id })}
      serialOffset={props.offset}
      empty={t('workbench.noCases')}
    />
  );
}
