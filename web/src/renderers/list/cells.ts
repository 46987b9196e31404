/** Display text of a cell, in the display language. */
import type { ColumnDefinition } from '../definition';
import { valueAt } from '../definition';
import type { LocalisedText } from '../../i18n';
import { formatDate, formatDateTime, valueText } from '../../display/values';

export function cellText(
  column: ColumnDefinition,
  row: Record<string, unknown>,
  pick: (text: LocalisedText) => string,
  t: (key: string) => string,
  _locale: string,
): string {
  const value = valueAt(row, column.field ?? column.key);
  if (value === null || value === undefined || value === '') return '';
  switch (column.type) {
    // ISO order in every display language (2026-11-20 10:30), as the case list shows dates.
    case 'datetime':
      return formatDateTime(String(value));
    case 'date':
      return formatDate(String(value));
    case 'enum': {
      const label = column.options?.[String(value)];
      return label ? pick(label) : String(value);
    }
    case 'boolean':
      return t(value ? 'common.yes' : 'common.no');
    case 'count':
      return Array.isArray(value) ? String(value.length) : String(value);
    case 'list':
      return Array.isArray(value)
        ? value
            .map((v) => (column.options?.[String(v)] ? pick(column.options[String(v)]!) : String(v)))
            .join(', ')
        : String(value);
    default:
      // A boolean or null flavor in a text column still reads as words, never true/false or [object Object].
      return valueText(value, {}, pick, t);
  }
}

/** Compares two rows by a column for sorting (numbers as numbers, text by locale). */
export function compareBy(column: ColumnDefinition, locale: string) {
  return (a: Record<string, unknown>, b: Record<string, unknown>): number => {
    const va = valueAt(a, column.field ?? column.key);
    const vb = valueAt(b, column.field ?? column.key);
    if (va === vb) return 0;
    if (va === null || va === undefined) return 1;
    if (vb === null || vb === undefined) return -1;
    if (typeof va === 'number' && typeof vb === 'number') return va - vb;
    return String(va).localeCompare(String(vb), locale);
  };
}
