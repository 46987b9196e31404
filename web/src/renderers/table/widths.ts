/**
 * Column widths of the shared table renderer: the user's dragged width (this browser session),
 * else the column's own declaration, else schemas/ui/tables.json for the table, else its kind's
 * default; never narrower than the header label needs. Pinned columns get their sticky offsets.
 */
import declared from '../../../../schemas/ui/tables.json';

export interface WidthSpec {
  key: string;
  /** Declared default width in px (the column's own declaration). */
  width?: number;
  minWidth?: number;
  /** Column kind (text, date, enum ...) for the kind default. */
  kind?: string;
}

interface Declared {
  width?: number;
  minWidth?: number;
}

const tables = declared.tables as Record<string, Record<string, Declared>>;
const kinds = declared.kinds as Record<string, Declared>;
export const TABLE_DEFAULTS = declared.defaults;

/** Cell padding plus the sort arrow and the resize handle beside a header label. */
export const HEADER_CHROME = 36;

/** The declared default and minimum width of a column of a table. */
export function declaredWidth(tableId: string, column: WidthSpec): { width: number; minWidth: number } {
  const table = tables[tableId]?.[column.key];
  const kind = column.kind ? kinds[column.kind] : undefined;
  const minWidth = column.minWidth ?? table?.minWidth ?? kind?.minWidth ?? TABLE_DEFAULTS.minWidth;
  const width = column.width ?? table?.width ?? kind?.width ?? TABLE_DEFAULTS.width;
  return { width: Math.max(width, minWidth), minWidth };
}

/**
 * The width a column shows at: the dragged one if any (not below the minimum), else the declared
 * one widened to fit its header label (`labelWidth`, the widest line of it).
 */
export function columnWidth(
  declaredSize: { width: number; minWidth: number },
  labelWidth: number,
  dragged: number | undefined,
): number {
  const min = Math.max(declaredSize.minWidth, Math.min(labelWidth + HEADER_CHROME, 480));
  if (dragged !== undefined && Number.isFinite(dragged))
    return Math.max(Math.round(dragged), declaredSize.minWidth);
  return Math.max(declaredSize.width, min);
}

/** Left offsets of the columns pinned left (in order), from their widths. */
export function stickyOffsets(widths: number[]): number[] {
  const offsets: number[] = [];
  let at = 0;
  for (const width of widths) {
    offsets.push(at);
    at += width;
  }
  return offsets;
}

let canvas: HTMLCanvasElement | null = null;

/** The rendered width of a text in the page's font (canvas measure; 0 outside a browser). */
export function textWidth(text: string, font: string): number {
  if (typeof document === 'undefined') return 0;
  canvas ??= document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return text.length * 14;
  context.font = font;
  return Math.ceil(context.measureText(text).width);
}
