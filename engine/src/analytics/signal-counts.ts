/**
 * The 2x2 tables of every suspect drug x event pair over a set of case documents, counted per case:
 * a case counts once for a pair however many times the drug or the event repeats in it.
 *
 * - Drug: G.k.2.2 `drugName` of drugs whose G.k.1 role is suspect (1) or interacting (3) — the roles
 *   that name a drug as possibly causal; concomitant (2) and not administered (4) are not counted.
 *   Names are matched ignoring case and runs of white space; the first spelling met is shown.
 * - Event, by `term`: the reaction's E.i.2.1b MedDRA code as stored. By `pt` / `soc`: with a MedDRA
 *   release, the code is taken through the release (LLT -> PT -> primary SOC); without one, the PT
 *   and SOC codes the coding stored beside it (`meddraPtCode`, `meddraSocCode`). A code the release
 *   does not know is left out and counted in `unmappedEvents`.
 * - N: the cases with at least one counted drug and one counted event (the cases that can enter a
 *   pair); invalid and deleted cases (`state.validity`) stay out unless `includeInvalid`.
 */
import type { MeddraRelease } from '../dictionaries/meddra/types';
import { disproportionality } from './disproportionality';
import type { Disproportionality, TwoByTwo } from './disproportionality';

export type SignalEventLevel = 'term' | 'pt' | 'soc';

/** Roles of G.k.1 counted as suspect. */
export const SUSPECT_DRUG_ROLES: readonly string[] = ['1', '3'];

export interface SignalCountOptions {
  by: SignalEventLevel;
  /** The release the `pt` / `soc` levels map through; without it the stored PT/SOC codes are used. */
  meddra?: MeddraRelease;
  includeInvalid?: boolean;
}

export interface PairCount extends TwoByTwo {
  drug: string;
  event: string;
}

export interface SignalCounts {
  /** Cases that entered the tables (N). */
  cases: number;
  /** Cases left out: invalid or deleted, or without a counted drug or event. */
  skippedCases: number;
  /** Events whose code the given release does not know (or with no stored PT/SOC at that level). */
  unmappedEvents: number;
  pairs: PairCount[];
}

export interface SignalRow extends PairCount, Disproportionality {}

type Mapper = (reaction: Record<string, unknown>) => string | null;

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

function eventMapper(options: SignalCountOptions): Mapper {
  const { by, meddra } = options;
  if (by === 'term') return (r) => text(r.meddraCode);
  if (!meddra) return (r) => text(by === 'pt' ? r.meddraPtCode : r.meddraSocCode);
  // A PT is also its own LLT in the distribution, so llt.asc alone maps any coded term to its PT.
  const ptOfLlt = new Map(meddra.llts.map((l) => [l.code, l.ptCode]));
  const socOfPt = new Map(meddra.pts.map((p) => [p.code, p.primarySocCode]));
  return (r) => {
    const code = text(r.meddraCode);
    const pt = code === null ? undefined : ptOfLlt.get(code);
    if (pt === undefined) return null;
    return by === 'pt' ? pt : (socOfPt.get(pt) ?? null);
  };
}

const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null)
    : [];

export class SignalCounter {
  private readonly mapEvent: Mapper;
  private readonly drugNames = new Map<string, string>();
  private readonly drugTotals = new Map<string, number>();
  private readonly eventTotals = new Map<string, number>();
  private readonly pairTotals = new Map<string, Map<string, number>>();
  private cases = 0;
  private skipped = 0;
  private unmapped = 0;

  constructor(private readonly options: SignalCountOptions) {
    this.mapEvent = eventMapper(options);
  }

  /** Adds one case document (the case JSON as stored or as `cli e2b import` writes it). */
  add(document: unknown): void {
    const doc = (typeof document === 'object' && document !== null ? document : {}) as Record<
      string,
      unknown
    >;
    const state = (doc.state ?? {}) as Record<string, unknown>;
    if (!this.options.includeInvalid && (state.validity === 'invalid' || state.validity === 'deleted')) {
      this.skipped++;
      return;
    }
    const drugs = new Set<string>();
    for (const drug of records(doc.drugs)) {
      const name = text(drug.drugName);
      if (name === null || !SUSPECT_DRUG_ROLES.includes(String(drug.drugCharacterisation))) continue;
      const key = name.replace(/\s+/g, ' ').toLocaleUpperCase('en');
      if (!this.drugNames.has(key)) this.drugNames.set(key, name.replace(/\s+/g, ' '));
      drugs.add(key);
    }
    const events = new Set<string>();
    for (const reaction of records(doc.reactions)) {
      const event = this.mapEvent(reaction);
      if (event === null) {
        if (text(reaction.meddraCode) !== null) this.unmapped++;
        continue;
      }
      events.add(event);
    }
    if (drugs.size === 0 || events.size === 0) {
      this.skipped++;
      return;
    }
    this.cases++;
    for (const drug of drugs) {
      this.drugTotals.set(drug, (this.drugTotals.get(drug) ?? 0) + 1);
      let row = this.pairTotals.get(drug);
      if (!row) this.pairTotals.set(drug, (row = new Map()));
      for (const event of events) row.set(event, (row.get(event) ?? 0) + 1);
    }
    for (const event of events) this.eventTotals.set(event, (this.eventTotals.get(event) ?? 0) + 1);
  }

  /** Every pair seen with at least `minCases` cases, by drug then event. */
  result(minCases = 1): SignalCounts {
    const pairs: PairCount[] = [];
    const n = this.cases;
    for (const [drugKey, row] of [...this.pairTotals].sort(([x], [y]) => x.localeCompare(y))) {
      const withDrug = this.drugTotals.get(drugKey) ?? 0;
      for (const [event, a] of [...row].sort(([x], [y]) => x.localeCompare(y))) {
        if (a < minCases) continue;
        const withEvent = this.eventTotals.get(event) ?? 0;
        const b = withDrug - a;
        const c = withEvent - a;
        pairs.push({ drug: this.drugNames.get(drugKey) ?? drugKey, event, a, b, c, d: n - a - b - c });
      }
    }
    return { cases: n, skippedCases: this.skipped, unmappedEvents: this.unmapped, pairs };
  }
}

/** The counts of `documents` in one call (the counter, for documents read one at a time). */
export function countSignalPairs(
  documents: Iterable<unknown>,
  options: SignalCountOptions,
  minCases = 1,
): SignalCounts {
  const counter = new SignalCounter(options);
  for (const document of documents) counter.add(document);
  return counter.result(minCases);
}

/** The signal table: each pair's 2x2 table with its disproportionality figures. */
export function signalTable(counts: SignalCounts): SignalRow[] {
  return counts.pairs.map((pair) => ({ ...pair, ...disproportionality(pair) }));
}
