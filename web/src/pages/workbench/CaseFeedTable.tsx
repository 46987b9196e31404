/**
 * A table of workbench cases. The report code opens the case; overdue rows and rows inside the
 * 7-day window are marked. The columns follow the user's saved layout for the table id.
 */
import {
  Link,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { useLanguage } from '../../i18n/LanguageContext';
import type { FeedRow } from './api';
import type { FeedColumn } from './columns';

const useStyles = makeStyles({
  wrap: { overflowX: 'auto' },
  serial: { width: '56px' },
  overdue: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  soon: { color: tokens.colorPaletteDarkOrangeForeground1 },
  empty: { padding: tokens.spacingVerticalM, color: tokens.colorNeutralForeground3, textAlign: 'center' },
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
  const urgency = (row: FeedRow) =>
    row.reminder === 'overdue' ? styles.overdue : row.reminder === 7 ? styles.soon : undefined;
  return (
    <div className={styles.wrap}>
      <Table size="small" aria-label={props.ariaLabel} data-testid={props.testId}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell className={styles.serial}>{t('list.serial')}</TableHeaderCell>
            {props.columns.map((column) => (
              <TableHeaderCell key={column.key}>{t(column.labelKey)}</TableHeaderCell>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {props.rows.map((row, index) => (
            <TableRow key={row.id} data-testid="feed-row" data-case-id={row.id}>
              <TableCell>{props.offset + index + 1}</TableCell>
              {props.columns.map((column) => (
                <TableCell
                  key={column.key}
                  className={
                    column.key === 'daysLeft' || column.key === 'reminder' ? urgency(row) : undefined
                  }
                >
                  {column.key === 'reportCode' ? (
                    <Link
                      data-testid="open-case"
                      onClick={() => void navigate(`/activecase?caseId=${encodeURIComponent(row.id)}`)}
                    >
                      {column.text(row, t, pick) || t('workbench.openCase')}
                    </Link>
                  ) : (
                    column.text(row, t, pick)
                  )}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {props.rows.length === 0 ? <div className={styles.empty}>{t('workbench.noCases')}</div> : null}
    </div>
  );
}
