/**
 * A list's total capped at a declared limit: the page shows "N+" past it instead of counting every
 * match before its first rows arrive (a two-character needle can match 40,000 cases). Works on any
 * backend through the port's capped count (CountOptions.limit).
 */
import type { Collection, Filter } from './port';

export interface CappedTotal {
  /** The number of matches, or `cap` when there are more. */
  total: number;
  /** More than `total` match: the screen says "N+". */
  totalCapped: boolean;
}

export async function cappedTotal(
  collection: Pick<Collection, 'count'>,
  filter: Filter,
  cap: number,
): Promise<CappedTotal> {
  const n = await collection.count(filter, { limit: cap + 1 });
  return n > cap ? { total: cap, totalCapped: true } : { total: n, totalCapped: false };
}
