/**
 * The user-defined column layout (SPEC 3, 7): one text `columnJson` holding, per table id, the
 * labels of the checked (shown) columns and the labels in their chosen order.
 */

export interface TableColumnLayout {
  /** Labels of the columns shown. */
  checked: string[];
  /** Every column label, in the chosen order. */
  order: string[];
}

export type ColumnLayouts = Record<string, TableColumnLayout>;

/** Largest columnJson accepted: generous for hundreds of tables of dozens of columns. */
export const COLUMN_JSON_MAX_LENGTH = 256 * 1024;
const MAX_LABEL_LENGTH = 200;
const MAX_COLUMNS = 500;
const TABLE_ID = /^[\w.:/-]{1,120}$/;

function isLabelList(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length <= MAX_COLUMNS &&
    value.every((label) => typeof label === 'string' && label.length > 0 && label.length <= MAX_LABEL_LENGTH)
  );
}

/**
 * Parses and checks a columnJson text. Returns the layouts, or the message key (preferences
 * namespace) of what is wrong. An empty text means "no custom layout" (reset).
 */
export function parseColumnJson(text: string): { layouts: ColumnLayouts } | { error: string } {
  if (text.trim() === '') return { layouts: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: 'columnJsonMalformed' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: 'columnJsonMalformed' };
  }
  const layouts: ColumnLayouts = {};
  for (const [tableId, layout] of Object.entries(parsed)) {
    if (!TABLE_ID.test(tableId)) return { error: 'columnJsonTableId' };
    if (typeof layout !== 'object' || layout === null) return { error: 'columnJsonMalformed' };
    const { checked, order } = layout as Record<string, unknown>;
    if (!isLabelList(checked) || !isLabelList(order)) return { error: 'columnJsonMalformed' };
    // A shown column must be one of the ordered columns, or the layout contradicts itself.
    const known = new Set(order);
    if (checked.some((label) => !known.has(label))) return { error: 'columnJsonInconsistent' };
    layouts[tableId] = { checked: [...checked], order: [...order] };
  }
  return { layouts };
}
