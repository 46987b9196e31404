/**
 * Disproportionality of one drug-event pair against the rest of the database, from its 2x2 table:
 *
 *              event   other events
 *   drug         a         b
 *   other drugs  c         d           N = a + b + c + d
 *
 * Measures and the screening thresholds the issue names:
 * - PRR = [a/(a+b)] / [c/(c+d)] with Yates-corrected chi-square (1 df); signal when PRR >= 2,
 *   chi2 >= 4 and a >= 3 (Evans, Waller & Davis 2001, Pharmacoepidemiol Drug Saf 10:483-486; the
 *   MHRA's criteria use the Yates-corrected statistic).
 * - ROR = ad / bc with the 95% interval exp(ln ROR +/- 1.96 sqrt(1/a + 1/b + 1/c + 1/d)) (Woolf's
 *   interval; van Puijenbroek et al. 2002, Pharmacoepidemiol Drug Saf 11:3-10); signal when the lower
 *   bound > 1 (and a >= 3).
 * - IC, the BCPNN information component with the shrinkage of Norén et al. 2006 (Stat Med
 *   25:3740-3757): IC = log2((a + 0.5) / (E + 0.5)), E = (a + b)(a + c) / N. IC025 is the closed
 *   form of Norén, Hopstadius & Bate 2013 (Stat Methods Med Res 22:57-69) for the 2.5% quantile of
 *   the Gamma(a + 0.5, E + 0.5) posterior on the log2 scale:
 *     IC025 = IC - 3.3 (a + 0.5)^(-1/2) - 2 (a + 0.5)^(-3/2)
 *   (the paper's IC975 is IC + 2.4 (a + 0.5)^(-1/2) - 0.5 (a + 0.5)^(-3/2)). Signal when IC025 > 0.
 *   The test beside this file checks the closed form against the gamma quantile it approximates.
 *
 * Zero cells (say how, because a screen shows these figures for rare pairs):
 * - PRR and ROR: when any cell is 0 the four cells each get +0.5 (the Haldane-Anscombe correction,
 *   Haldane 1956 / Anscombe 1956) before the ratio and the interval are taken, so both stay finite;
 *   `corrected` says so. Without it a = 0 gives 0 (log undefined) and b = 0 or c = 0 divide by zero.
 * - chi2 is taken on the raw counts. When a margin is 0 (no report outside the drug, or every report
 *   has the event) the table carries no evidence of association and the statistic's denominator
 *   vanishes: chi2 is 0. Yates' |ad - bc| - N/2 is floored at 0 so that the correction cannot turn a
 *   small difference into a positive statistic.
 * - IC needs no correction: the +0.5 shrinkage keeps it finite for a = 0 and E = 0 alike.
 * - An empty table (N = 0) has no figures at all: every measure is null.
 */
import thresholdsEntity from '../../../schemas/entities/signal-thresholds.json';

export interface TwoByTwo {
  /** Cases with the drug and the event. */
  a: number;
  /** Cases with the drug, without the event. */
  b: number;
  /** Cases with the event, without the drug. */
  c: number;
  /** Cases with neither. */
  d: number;
}

/** The figures of a signal-table row, in the order the CLI prints them and the route answers them. */
export const SIGNAL_FIGURES = [
  'a',
  'b',
  'c',
  'd',
  'prr',
  'chi2',
  'ror',
  'rorLower',
  'rorUpper',
  'ic',
  'ic025',
] as const satisfies readonly (keyof TwoByTwo | keyof Disproportionality)[];

export interface Disproportionality {
  prr: number | null;
  chi2: number | null;
  ror: number | null;
  rorLower: number | null;
  rorUpper: number | null;
  ic: number | null;
  ic025: number | null;
  /** The Haldane-Anscombe +0.5 was applied to PRR and ROR (a cell was 0). */
  corrected: boolean;
}

/** Screening thresholds; a tenant may configure its own. */
export interface SignalThresholds {
  minCases: number;
  prr: number;
  chi2: number;
  /** The ROR's lower 95% bound must exceed this. */
  rorLower: number;
  /** IC025 must exceed this. */
  ic025: number;
}

/**
 * The published defaults: Evans 2001 (PRR >= 2, chi2 >= 4, a >= 3), ROR025 > 1, IC025 > 0, as the
 * tenant setting declares them (schemas/entities/signal-thresholds.json `default`s), so the form a
 * tenant administrator edits and the screening here start from one declaration.
 */
export const DEFAULT_SIGNAL_THRESHOLDS: Readonly<SignalThresholds> = Object.freeze({
  minCases: thresholdsEntity.properties.minCases.default,
  prr: thresholdsEntity.properties.prr.default,
  chi2: thresholdsEntity.properties.chi2.default,
  rorLower: thresholdsEntity.properties.rorLower.default,
  ic025: thresholdsEntity.properties.ic025.default,
});

export interface SignalFlags {
  prr: boolean;
  ror: boolean;
  ic: boolean;
}

// The published formula rounds the normal quantile to 1.96; hand computations use the same.
const Z95 = 1.96;

function checkTable({ a, b, c, d }: TwoByTwo): void {
  for (const [name, value] of Object.entries({ a, b, c, d })) {
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`2x2 cell ${name} must be a non-negative integer, got ${value}`);
  }
}

export function disproportionality(table: TwoByTwo): Disproportionality {
  checkTable(table);
  const { a, b, c, d } = table;
  const n = a + b + c + d;
  if (n === 0)
    return {
      prr: null,
      chi2: null,
      ror: null,
      rorLower: null,
      rorUpper: null,
      ic: null,
      ic025: null,
      corrected: false,
    };

  const corrected = a === 0 || b === 0 || c === 0 || d === 0;
  const k = corrected ? 0.5 : 0;
  const [ca, cb, cc, cd] = [a + k, b + k, c + k, d + k];
  const prr = ca / (ca + cb) / (cc / (cc + cd));
  const ror = (ca * cd) / (cb * cc);
  const se = Math.sqrt(1 / ca + 1 / cb + 1 / cc + 1 / cd);

  const margins = (a + b) * (c + d) * (a + c) * (b + d);
  const yates = Math.max(0, Math.abs(a * d - b * c) - n / 2);
  const chi2 = margins === 0 ? 0 : (n * yates * yates) / margins;

  const expected = ((a + b) * (a + c)) / n;
  const ic = Math.log2((a + 0.5) / (expected + 0.5));
  const o = a + 0.5;
  const ic025 = ic - 3.3 * o ** -0.5 - 2 * o ** -1.5;

  return {
    prr,
    chi2,
    ror,
    rorLower: Math.exp(Math.log(ror) - Z95 * se),
    rorUpper: Math.exp(Math.log(ror) + Z95 * se),
    ic,
    ic025,
    corrected,
  };
}

/** Which measures flag the pair at the given thresholds (each needs at least `minCases` cases). */
export function signalFlags(
  a: number,
  figures: Disproportionality,
  thresholds: SignalThresholds = DEFAULT_SIGNAL_THRESHOLDS,
): SignalFlags {
  const enough = a >= thresholds.minCases;
  return {
    prr:
      enough &&
      figures.prr !== null &&
      figures.chi2 !== null &&
      figures.prr >= thresholds.prr &&
      figures.chi2 >= thresholds.chi2,
    ror: enough && figures.rorLower !== null && figures.rorLower > thresholds.rorLower,
    ic: enough && figures.ic025 !== null && figures.ic025 > thresholds.ic025,
  };
}
