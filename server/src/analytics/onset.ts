/**
 * Time to onset (event-level tree): the days from a suspect drug's first dose (the least
 * G.k.4.r.4 start date among its dosages) to the reaction's start (E.i.4), per suspect drug-event
 * pair, as the store's grouped count gives them (a case's identical pairs once). Dates are used to
 * the day. When they give no interval (either missing, or given only to the year or month: E2B
 * partial dates), the interval the reporter gave for the pair is used: G.k.9.i.3.1a with its unit
 * G.k.9.i.3.1b, in the drug's assessment (G.k.9.i) of that reaction, which the grouped count reads
 * beside the reaction (GroupDimension.match), converted to days by schemas/analytics/onset.json
 * (months and years approximate: 30.4375 and 365.25 days). Neither: `partial`. A reaction before
 * the first dose (or a negative reported interval) counts as `before` and stays out of the quartiles.
 */
import type { GroupDimension, GroupScalar } from '../store';
import onsetFile from '../../../schemas/analytics/onset.json';

export interface OnsetFigures {
  /** Pairs with an interval (0 or more days). */
  n: number;
  /** Median and quartiles in days (linear interpolation between order statistics, as R type 7 and Excel QUARTILE.INC); null when n is 0. */
  median: number | null;
  q1: number | null;
  q3: number | null;
  /** Of `n`, pairs whose interval is the reported one (G.k.9.i.3.1: the dates gave none). */
  reported: number;
  /** Pairs without an interval: a date missing or given only to the year or month, and no reported interval in a known unit. */
  partial: number;
  /** Pairs whose reaction started before the first dose. */
  before: number;
}

export const NO_ONSET: OnsetFigures = {
  n: 0,
  median: null,
  q1: null,
  q3: null,
  reported: 0,
  partial: 0,
  before: 0,
};

const REPORTED = onsetFile.reported;
/** G.k.9.i.3.1b unit -> [n, d]: days = value x n / d. */
export const DAYS_PER_UNIT: ReadonlyMap<string, readonly [number, number]> = new Map(
  Object.entries(REPORTED.days).map(([unit, [n, d]]) => [unit, [n!, d!] as const]),
);

/**
 * The grouped count's dimensions of the reported interval of a drug-event pair: in the suspect
 * drug's element (`drugs`), the value and unit of its assessment of the reaction read beside it.
 */
export function reportedIntervalDimensions(names: { value: string; unit: string }): GroupDimension[] {
  const match = { items: REPORTED.items, key: REPORTED.key, each: 'reactions', equals: 'id' };
  return [
    { name: names.value, each: 'drugs', path: REPORTED.value, match },
    { name: names.unit, each: 'drugs', path: REPORTED.unit, match },
  ];
}

/** A reported interval (G.k.9.i.3.1a, G.k.9.i.3.1b) in days; null: no number or a unit not declared. */
export function reportedDays(value: GroupScalar, unit: GroupScalar): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || typeof unit !== 'string') return null;
  const ratio = DAYS_PER_UNIT.get(unit);
  return ratio === undefined ? null : (value * ratio[0]) / ratio[1];
}

/** A pair's interval: by the dates when they give one, else as reported (null: neither). */
export function pairInterval(
  firstDose: string | null,
  start: string | null,
  value: GroupScalar,
  unit: GroupScalar,
): { days: number | null; reported: boolean } {
  const dated = onsetDays(firstDose, start);
  if (dated !== null) return { days: dated, reported: false };
  const days = reportedDays(value, unit);
  return { days, reported: days !== null };
}

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
  private reported = 0;

  add(days: number | null, count: number, reported = false): void {
    if (days === null) this.partial += count;
    else if (days < 0) this.before += count;
    else {
      this.counts.set(days, (this.counts.get(days) ?? 0) + count);
      if (reported) this.reported += count;
    }
  }

  figures(): OnsetFigures {
    const histogram = [...this.counts].sort((a, b) => a[0] - b[0]);
    const n = histogram.reduce((sum, [, count]) => sum + count, 0);
    const q = (p: number) => (n === 0 ? null : quantile(histogram, n, p));
    return {
      n,
      median: q(0.5),
      q1: q(0.25),
      q3: q(0.75),
      reported: this.reported,
      partial: this.partial,
      before: this.before,
    };
  }
}
