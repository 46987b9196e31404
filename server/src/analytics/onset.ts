/**
 * Time to onset (event-level tree): the days from a suspect drug's first dose (the least
 * G.k.4.r.4 start date among its dosages) to the reaction's start (E.i.4), per suspect drug-event
 * pair, as the store's grouped count gives them (a case's identical pairs once). Dates are used to
 * the day: a date given only to the year or month (E2B partial dates) on either side gives no
 * interval and counts as `partial`; a reaction before the first dose counts as `before` and stays
 * out of the quartiles. G.k.9.i.3.1 (the interval as reported) is not read: it sits in each drug's
 * assessments keyed by reaction id, which the grouped count cannot join to the reaction.
 */

export interface OnsetFigures {
  /** Pairs with an interval (0 or more days). */
  n: number;
  /** Median and quartiles in days (linear interpolation between order statistics, as R type 7 and Excel QUARTILE.INC); null when n is 0. */
  median: number | null;
  q1: number | null;
  q3: number | null;
  /** Pairs with a date missing or given only to the year or month. */
  partial: number;
  /** Pairs whose reaction started before the first dose. */
  before: number;
}

export const NO_ONSET: OnsetFigures = { n: 0, median: null, q1: null, q3: null, partial: 0, before: 0 };

const DAY_MS = 86_400_000;

/** Days from a YYYYMMDD date to another (null: either is not a whole, real day). */
export function onsetDays(firstDose: string | null, start: string | null): number | null {
  const day = (text: string | null): number | null => {
    const m = text === null ? null : /^(\d{4})(\d{2})(\d{2})$/.exec(text);
    if (!m) return null;
    const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const at = Date.UTC(year, month - 1, date);
    const back = new Date(at);
    // 20240231 is not a day: Date.UTC would roll it into March.
    if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== date) return null;
    return at / DAY_MS;
  };
  const from = day(firstDose);
  const to = day(start);
  return from === null || to === null ? null : to - from;
}

/** The quantile p of counted values (linear interpolation between the order statistics, R type 7). */
export function quantile(histogram: [number, number][], n: number, p: number): number {
  const h = (n - 1) * p;
  const at = (rank: number): number => {
    let seen = 0;
    for (const [value, count] of histogram) {
      seen += count;
      if (rank < seen) return value;
    }
    return histogram[histogram.length - 1]![0];
  };
  const low = Math.floor(h);
  const x = at(low);
  return h === low ? x : x + (h - low) * (at(low + 1) - x);
}

/** Intervals added with their counts; figures() gives the node's OnsetFigures. */
export class OnsetTally {
  private readonly counts = new Map<number, number>();
  private partial = 0;
  private before = 0;

  add(days: number | null, count: number): void {
    if (days === null) this.partial += count;
    else if (days < 0) this.before += count;
    else this.counts.set(days, (this.counts.get(days) ?? 0) + count);
  }

  figures(): OnsetFigures {
    const histogram = [...this.counts].sort((a, b) => a[0] - b[0]);
    const n = histogram.reduce((sum, [, count]) => sum + count, 0);
    const q = (p: number) => (n === 0 ? null : quantile(histogram, n, p));
    return { n, median: q(0.5), q1: q(0.25), q3: q(0.75), partial: this.partial, before: this.before };
  }
}
