/** Page and time-range parameters shared by the list routes of every module. */
import { PAGE_SIZE_MAX } from '@pv/engine';

export const pageQuery = {
  page: { type: 'integer', minimum: 1, default: 1 },
  size: { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: 20 },
} as const;

export interface PageQuery {
  page: number;
  size: number;
}

export function pageOptions(query: PageQuery): { skip: number; limit: number } {
  return { skip: (query.page - 1) * query.size, limit: query.size };
}

/** A `from`/`to` query value: a day (YYYY-MM-DD) or an ISO instant, or empty; nothing else is a bound. */
export const timeBound = {
  type: 'string',
  maxLength: 40,
  pattern: '^$|^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})?)?$',
} as const;

/** `from`/`to` dates (YYYY-MM-DD or instants) as an `at` range filter. */
export function timeRange(from?: string, to?: string): Record<string, unknown> {
  const at: Record<string, string> = {};
  if (from) at.$gte = from;
  if (to) at.$lt = /^\d{4}-\d{2}-\d{2}$/.test(to) ? `${to}T23:59:59.999Z` : to;
  return Object.keys(at).length ? { at } : {};
}
