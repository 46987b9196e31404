/**
 * Pieces the E2B lists share (import records, transmissions): the saved column layout with its
 * settings dialog, the table of one page with its serial column, and the pager with its page
 * sizes. Labels come from the calling page.
 */
import { isValidElement, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { Button, Dropdown, Option, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { OptionOnSelectData } from '@fluentui/react-components';
import { ColumnSettingsDialog } from '../../renderers/columns/ColumnSettingsDialog';
import { DataTable } from '../../renderers/table/DataTable';
import { applyLayout, columnWidths, orderedColumns } from '../../renderers/columns/layout';
import type { TableColumnLayout } from '../../renderers/columns/layout';
import { loadLayouts, resetLayout, saveLayout } from '../../renderers/columns/store';

export const PAGE_SIZES = [20, 50, 100];

const useStyles = makeStyles({
  pager: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    justifyContent: 'flex-end',
    flexWrap: 'wrap',
  },
  // The filter bar of a list page: a grid, each filter in its own cell, never over another.
  filters: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
    gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    alignItems: 'end',
    // Controls fill their cell (Fluent's own minimum widths would push them over the next one).
    '& .fui-Input, & .fui-Dropdown, & .fui-Combobox': { width: '100%', minWidth: 0 },
  },
  filterButtons: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end' },
});

/** The filter bar: the filters on a responsive grid, then the search and reset buttons. */
export function FilterBar({ children, buttons }: { children: ReactNode; buttons: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={styles.filters}>
      {children}
      <div className={styles.filterButtons}>{buttons}</div>
    </div>
  );
}

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
        columnWidths.write(tableId, {});
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

/** The plain text of a rendered cell (its hover title). */
export function plainText(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(plainText).filter(Boolean).join(' ');
  if (isValidElement(node)) return plainText((node.props as { children?: ReactNode }).children);
  return '';
}

/**
 * One page of a list in the shared table renderer: the serial number (continuing across pages),
 * the shown columns, the empty text, a spinner while `rows` is null. `rowProps` adds the row's
 * test ids and data attributes; `columnTestId` names header cells for tests (else `column-<key>`). The column `actionsKey` (if shown) is the actions column,
 * pinned right and as wide as `actionLabels` need.
 */
export function PagedTable<R, C extends { key: string; text: string }>({
  tableId,
  label,
  labels,
  columns,
  rows,
  page,
  size,
  rowKey,
  rowProps,
  cell,
  actionsKey,
  actionLabels,
  columnTestId,
}: {
  tableId: string;
  label: string;
  labels: { serial: string; empty: string };
  columns: C[];
  rows: R[] | null;
  page: number;
  size: number;
  rowKey: (row: R) => string;
  rowProps?: (row: R) => Record<string, string | undefined>;
  cell: (key: C['key'], row: R) => ReactNode;
  actionsKey?: C['key'];
  actionLabels?: string[];
  columnTestId?: (key: C['key']) => string;
}) {
  const data = columns.filter((column) => column.key !== actionsKey);
  const hasActions = actionsKey !== undefined && columns.some((column) => column.key === actionsKey);
  return (
    <DataTable<R>
      id={tableId}
      ariaLabel={label}
      columns={data.map((column) => ({
        key: column.key,
        label: column.text,
        text: (row: R) => plainText(cell(column.key, row)),
        render: (row: R) => cell(column.key, row),
        ...(columnTestId ? { headerTestId: columnTestId(column.key) } : {}),
      }))}
      rows={rows}
      rowKey={rowKey}
      {...(rowProps ? { rowProps } : {})}
      serialOffset={(page - 1) * size}
      empty={labels.empty}
      {...(hasActions
        ? { actions: { labels: actionLabels ?? [], render: (row: R) => cell(actionsKey, row) } }
        : {})}
    />
  );
}
