/**
 * A day range over E2B dates (YYYY, YYYYMM, YYYYMMDD[hh[mm[ss]]]) by string comparison alone: the
 * case list's `anyWithin` filter (reaction onset, E.i.4) and the pooled analysis's onset filter
 * use this one condition, so a count and the list behind it select the same cases.
 */

/** A real calendar day YYYYMMDD. */
export function isDay(value: string): boolean {
  if (!/^\d{8}$/.test(value)) return false;
  const [y, m, d] = [Number(value.slice(0, 4)), Number(value.slice(4, 6)), Number(value.slice(6))];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The calendar day after a real day YYYYMMDD (also the case list's exclusive `between` bound). */
export function nextDay(day: string): string {
  const date = new Date(Date.UTC(+day.slice(0, 4), +day.slice(4, 6) - 1, +day.slice(6, 8) + 1));
  return date.toISOString().slice(0, 10).replace(/-/g, '');
}

/**
 * The condition on one E2B date that holds when the range (real days, inclusive) holds the date's
 * whole period: the lower bound is cut to its month or year when it is that period's first day (so
 * `202603` is not below `20260301`'s `202603`); the upper bound is `to` followed by `:` (after
 * every digit: a day's times stay under it), with the year and month of `to` excluded as partial
 * values when `to` is not their last day (a prefix of the bound sorts below it). A partial date
 * strictly between the bounds' periods lies wholly between them; a null flavor (`[UNK]` in a
 * summary, an object in a document) never matches.
 */
export function withinCondition(range: { from?: string; to?: string }): Record<string, unknown> {
  let lower = '0';
  if (range.from)
    lower = range.from.endsWith('0101')
      ? range.from.slice(0, 4)
      : range.from.endsWith('01')
        ? range.from.slice(0, 6)
        : range.from;
  const condition: Record<string, unknown> = { $gte: lower, $lt: range.to ? `${range.to}:` : ':' };
  if (range.to) {
    const next = nextDay(range.to);
    const partial = [
      ...(next.slice(0, 4) === range.to.slice(0, 4) ? [range.to.slice(0, 4)] : []),
      ...(next.slice(0, 6) === range.to.slice(0, 6) ? [range.to.slice(0, 6)] : []),
    ];
    // Not $nin (the embedded store's SQL has none): one exclusion per partial value.
    if (partial.length) condition.$not = { $in: partial };
  }
  return condition;
}
