/**
 * Pieces the E2B lists share (import records, transmissions): the saved column layout with its
 * settings dialog, the table of one page with its serial column, and the pager with its page
 * sizes. Labels come from the calling page.
 */
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import {
  Button,
  Dropdown,
  Option,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { ColumnSettingsDialog } from '../../renderers/columns/ColumnSettingsDialog';
import { applyLayout, orderedColumns } from '../../renderers/columns/layout';
import type { TableColumnLayout } from '../../renderers/columns/layout';
import { loadLayouts, resetLayout, saveLayout } from '../../renderers/columns/store';

export const PAGE_SIZES = [20, 50, 100];

const useStyles = makeStyles({
  pager: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    justifyContent: 'flex-end',
  },
});

/**
 * The columns shown for a table id (the user's saved layout applied), and the dialog that changes
 * it: render `dialog`, call `open()` from the page's columns button.
 */
export function useColumnLayout<C extends { key: string; text: string }>(tableId: string, columns: C[]) {
  const [layout, setLayout] = useState<TableColumnLayout | undefined>();
  const [editing, setEditing] = useState(false);
  useEffect(
    () =>
      void loadLayouts().then(
        (all) => setLayout(all[tableId]),
        () => undefined,
      ),
    [tableId],
  );
  const shown = applyLayout(columns, layout);
  const dialog: ReactNode = editing ? (
    <ColumnSettingsDialog
      columns={orderedColumns(columns, layout).map((c) => ({ key: c.key, label: c.text }))}
      shown={new Set(shown.map((c) => c.key))}
      onSave={async (next) => {
        await saveLayout(tableId, next);
        setLayout(next);
        setEditing(false);
      }}
      onReset={async () => {
        await resetLayout(tableId);
        setLayout(undefined);
        setEditing(false);
      }}
      onClose={() => setEditing(false)}
    />
  ) : null;
  return { shown, dialog, open: () => setEditing(true) };
}

export function ListPager({
  page,
  size,
  total,
  onPage,
  onSize,
  labels,
}: {
  page: number;
  size: number;
  total: number;
  onPage: (page: number) => void;
  /** A new page size (the page goes back to 1). */
  onSize: (size: number) => void;
  labels: { total: string; previous: string; next: string };
}) {
  const styles = useStyles();
  return (
    <div className={styles.pager}>
      <Text>{labels.total}</Text>
      <Dropdown
        value={String(size)}
        selectedOptions={[String(size)]}
        onOptionSelect={(_: unknown, data: OptionOnSelectData) => onSize(Number(data.optionValue))}
        style={{ minWidth: 80 }}
      >
        {PAGE_SIZES.map((n) => (
          <Option key={n} value={String(n)}>
            {String(n)}
          </Option>
        ))}
      </Dropdown>
      <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {labels.previous}
      </Button>
      <Text>{page}</Text>
      <Button disabled={page * size >= total} onClick={() => onPage(page + 1)}>
        {labels.next}
      </Button>
    </div>
  );
}

/**
 * One page of a list: the serial number (continuing across pages), the shown columns, an empty
 * row when there is nothing, a spinner while `rows` is null. `rowProps` adds the row's test ids
 * and data attributes; `columnTestId` names header cells for tests.
 */
export function PagedTable<R, C extends { key: string; text: string }>({
  label,
  labels,
  columns,
  rows,
  page,
  size,
  rowKey,
  rowProps,
  cell,
  columnTestId,
}: {
  label: string;
  labels: { serial: string; empty: string };
  columns: C[];
  rows: R[] | null;
  page: number;
  size: number;
  rowKey: (row: R) => string;
  rowProps?: (row: R) => Record<string, string | undefined>;
  cell: (key: C['key'], row: R) => ReactNode;
  columnTestId?: (key: C['key']) => string;
}) {
  if (rows === null) return <Spinner />;
  return (
    <Table size="small" aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell>{labels.serial}</TableHeaderCell>
          {columns.map((column) => (
            <TableHeaderCell key={column.key} data-testid={columnTestId?.(column.key)}>
              {column.text}
            </TableHeaderCell>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.length === 0 ? (
          <TableRow>
            <TableCell colSpan={columns.length + 1}>{labels.empty}</TableCell>
          </TableRow>
        ) : (
          rows.map((row, i) => (
            <TableRow key={rowKey(row)} {...rowProps?.(row)}>
              <TableCell>{(page - 1) * size + i + 1}</TableCell>
              {columns.map((column) => (
                <TableCell key={column.key}>{cell(column.key, row)}</TableCell>
              ))}
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
