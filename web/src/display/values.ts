/**
 * How values read on screen, in exports and in history, in the display language: booleans as
 * yes/no, code-list codes as their labels, E2B partial dates and timestamps in ISO order
 * (2026-11-20 in zh and en alike) at the precision they were recorded with.
 */
import { codelists, e2bDateText as formatE2bDate } from '@pv/engine';
import type { LocalisedText } from '../i18n';
import type { NameKind } from './names';

type Pick = (text: LocalisedText) => string;
type Translate = (key: string) => string;

/** E2B dates in ISO order at their precision (the engine's reading, shared with the server's exports). */
export { isE2bDate, e2bDateText as formatE2bDate } from '@pv/engine';

const pad = (n: number) => String(n).padStart(2, '0');

/** A timestamp (ISO 8601) as local `2026-11-20 10:30`; a bare ISO date stays `2026-11-20`. */
export function formatDateTime(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A timestamp's day as local `2026-11-20`. */
export function formatDate(value: string): string {
  return formatDateTime(value).slice(0, 10);
}

/** The label of a code in a code list of the engine (schemas/codelists), or the code when unlisted. */
export function codeText(list: string, code: unknown, pick: Pick): string {
  const entry = codelists[list]?.values.find((x) => x.code === String(code));
  return entry ? pick(entry) : String(code);
}

export const booleanText = (value: boolean, t: Translate) => t(value ? 'common.yes' : 'common.no');

export interface ValueFormat {
  codelist?: string;
  /** `e2bDate`: an E2B partial date; `dateTime`/`date`: an ISO timestamp. */
  format?: 'e2bDate' | 'dateTime' | 'date';
  /** zh/en labels of an enum's values. */
  options?: Record<string, LocalisedText>;
  /** The value is the id of an object of this kind, read as its name (GET /api/names). */
  ref?: NameKind;
}

/**
 * One value as text: booleans as yes/no, codes as labels, dates in ISO order, a null flavor as
 * its code in brackets, lists joined; objects never show as `[object Object]`.
 */
export function valueText(value: unknown, format: ValueFormat, pick: Pick, t: Translate): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value))
    return value
      .map((v) => valueText(v, format, pick, t))
      .filter(Boolean)
      .join('; ');
  if (typeof value === 'boolean') return booleanText(value, t);
  if (typeof value === 'object') {
    const flavor = (value as { nullFlavor?: unknown }).nullFlavor;
    return typeof flavor === 'string' ? `[${flavor}]` : '';
  }
  const option = format.options?.[String(value)];
  if (option) return pick(option);
  if (format.codelist) return codeText(format.codelist, value, pick);
  if (typeof value === 'string') {
    if (format.format === 'e2bDate') return formatE2bDate(value);
    if (format.format === 'dateTime') return formatDateTime(value);
    if (format.format === 'date') return formatDate(value);
  }
  return String(value);
}
