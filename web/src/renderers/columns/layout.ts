/**
 * Column customisation of any table (SPEC 2, 7, 9): which columns are shown and in which order,
 * per user and table id, saved through getUserDefinedColumns / saveUserDefinedColumns as one
 * columnJson text. A column is named by its label key (stable across display languages). The
 * first and the last columns are fixed (always shown, never moved); the serial-number column is
 * not part of the layout and always shows.
 */

export interface TableColumnLayout {
  /** Label keys of the columns shown. */
  checked: string[];
  /** Every column's label key, in the chosen order. */
  order: string[];
}

export type ColumnLayouts = Record<string, TableColumnLayout>;

export interface LayoutColumn {
  key: string;
}

export function parseLayouts(columnJson: string | undefined | null): ColumnLayouts {
  if (!columnJson) return {};
  try {
    const parsed: unknown = JSON.parse(columnJson);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as ColumnLayouts)
      : {};
  } catch {
    return {};
  }
}

/** Whether a column at this index may be hidden or moved. */
export function isFixed(index: number, count: number): boolean {
  return index === 0 || index === count - 1;
}

/**
 * The columns to show, in order: the stored layout applied to the table's current columns.
 * Columns the layout does not know (added since) show in their declared place; columns it
 * names that no longer exist are ignored; the fixed first and last columns stay put.
 */
export function applyLayout<C extends LayoutColumn>(
  columns: C[],
  layout: TableColumnLayout | undefined,
): C[] {
  if (!layout || columns.length <= 2) return columns;
  const first = columns[0]!;
  const last = columns[columns.length - 1]!;
  const middle = columns.slice(1, -1);
  const byKey = new Map(middle.map((c) => [c.key, c]));
  const rank = new Map(layout.order.map((key, i) => [key, i]));
  const checked = new Set(layout.checked);
  const known = new Set(layout.order);
  const ordered = [...middle].sort((a, b) => {
    const ra = rank.get(a.key);
    const rb = rank.get(b.key);
    if (ra !== undefined && rb !== undefined) return ra - rb;
    // An unknown column keeps its declared position relative to the others.
    return middle.indexOf(a) - middle.indexOf(b);
  });
  const shown = ordered.filter((c) => !known.has(c.key) || checked.has(c.key));
  return [first, ...shown.filter((c) => byKey.has(c.key)), last];
}

/** Every column, hidden ones included, in the layout's order (what the dialog lists). */
export function orderedColumns<C extends LayoutColumn>(
  columns: C[],
  layout: TableColumnLayout | undefined,
): C[] {
  return applyLayout(columns, layout && { order: layout.order, checked: layout.order });
}

/** The layout a dialog's choice describes: every column in order, the ticked ones checked. */
export function layoutOf(order: string[], checked: ReadonlySet<string>): TableColumnLayout {
  return { order: [...order], checked: order.filter((key) => checked.has(key)) };
}

/** Moves the item at `from` one place up (-1) or down (+1), never across a fixed end. */
export function move<T>(items: T[], from: number, step: -1 | 1): T[] {
  const to = from + step;
  if (isFixed(from, items.length) || isFixed(to, items.length) || to < 0 || to >= items.length) return items;
  const next = [...items];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

const WIDTHS_PREFIX = 'pv.columnWidths.';

/** Header widths are kept for the browser session only (sessionStorage). */
export const columnWidths = {
  read(tableId: string): Record<string, number> {
    try {
      return JSON.parse(sessionStorage.getItem(WIDTHS_PREFIX + tableId) ?? '{}') as Record<string, number>;
    } catch {
      return {};
    }
  },
  write(tableId: string, widths: Record<string, number>): void {
    sessionStorage.setItem(WIDTHS_PREFIX + tableId, JSON.stringify(widths));
  },
};
