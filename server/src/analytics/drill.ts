/**
 * Drill-down: the case list query (schemas/ui/case-list.json, its declared filters only) that lists
 * exactly the cases behind a count - the statistic's filters, its fixed values and the row's key,
 * each through the case list filter its dimension declares (`caseList` in dimensions.json; an age
 * group through its projects and age range, StratumPlaces). A count with no exact equivalent gets
 * none: a key that is unknown (null) or blinded, a dimension without a case list filter, an
 * age-group filter the list cannot say. Products go through exact hidden list filters of drug names
 * (any role for the product filter, suspect drugs for the product dimension); a blinded reader's
 * links use the filters of drugs the blinding does not hide (`blinded` in the declarations), and a
 * BLINDED key has none.
 */
import { caseListDefinition } from '@pv/engine';
import type { GroupScalar } from '../store';
import { filterById } from './declarations';
import type { DimensionDeclaration } from './declarations';
import type { AnalyticsQuery } from './service';

/** What the web app opens the case list with: a tab and the declared filters' values. */
export interface CaseListLink {
  tab: 'all';
  filters: Record<string, unknown>;
  /** Alternatives beside `filters` (the list's `any`): the age groups of projects with different rules. */
  any?: Record<string, unknown>[];
}

/**
 * The list filters of each age group key of a count (strata.ts): a band's range over the counted
 * projects whose rule has that band (`project`, `ageYears`), a D.2.3 group over those without a
 * rule (`project`, `ageGroup`).
 */
export type StratumPlaces = Map<string, Record<string, unknown>>;

/** The most values a list filter takes (cases/list.ts filterValueSchema). */
export const MAX_LIST_VALUES = 500;

type DayRange = { from: string; to: string };

function lastDay(year: number, month: number): string {
  return String(new Date(Date.UTC(year, month, 0)).getUTCDate()).padStart(2, '0');
}

/** The days of a YYYY, YYYYMM or YYYYQn key. */
function daysOf(value: string, range: 'month' | 'quarter' | 'year'): DayRange | null {
  if (range === 'year' && /^\d{4}$/.test(value)) return { from: `${value}0101`, to: `${value}1231` };
  if (range === 'month' && /^\d{6}$/.test(value)) {
    const month = Number(value.slice(4));
    return { from: `${value}01`, to: `${value}${lastDay(Number(value.slice(0, 4)), month)}` };
  }
  const quarter = /^(\d{4})Q([1-4])$/.exec(value);
  if (range === 'quarter' && quarter) {
    const first = (Number(quarter[2]) - 1) * 3 + 1;
    const pad = (m: number) => String(m).padStart(2, '0');
    return {
      from: `${quarter[1]}${pad(first)}01`,
      to: `${quarter[1]}${pad(first + 2)}${lastDay(Number(quarter[1]), first + 2)}`,
    };
  }
  return null;
}

/** The list filter of a declared target for this reader: a blinded reader's own when declared. */
function listFilterOf(target: { filter: string; blinded?: string }, blinded: boolean): string {
  return blinded && target.blinded ? target.blinded : target.filter;
}

/**
 * The list query of the analytics query alone (null: it has a filter the list cannot express). The
 * product filter goes through its declared exact list filter (`caseList` in filters.json: a blinded
 * reader's matches only drugs the blinding does not hide, as the count's does); without `blinded`
 * known, a product filter gets no link.
 */
export function queryLink(
  query: AnalyticsQuery,
  blinded?: boolean,
  ages?: Record<string, unknown>[] | null,
): CaseListLink | null {
  const f = query.filters ?? {};
  const filters: Record<string, unknown> = {
    validity: query.includeInvalid ? ['valid', 'invalid'] : ['valid'],
  };
  if (f.product?.length) {
    const target = filterById.get('product')?.caseList;
    if (!target || blinded === undefined) return null;
    filters[listFilterOf(target, blinded)] = f.product;
  }
  if (f.projectIds?.length) filters.project = f.projectIds;
  // Age groups by the projects' rules: the alternatives clauses.ts found for them (their projects
  // within the named ones); one is plain filters.
  let any: Record<string, unknown>[] | undefined;
  if (f.ageStratum?.length) {
    if (!ages?.length) return null;
    if (ages.length === 1) Object.assign(filters, ages[0]);
    else any = ages;
  }
  // Its declared list filter: the same condition as the count's (cases/e2b-range.ts) on the
  // summary's reaction start dates.
  if (f.onset?.from || f.onset?.to) {
    const target = filterById.get('onset')?.caseList;
    if (!target) return null;
    filters[target.filter] = { from: f.onset.from ?? '', to: f.onset.to ?? '' };
  }
  if (f.received?.from || f.received?.to)
    filters.reportDateFirst = { from: f.received.from ?? '', to: f.received.to ?? '' };
  for (const id of ['reportType', 'country', 'sex'] as const) if (f[id]?.length) filters[id] = f[id];
  if (f.serious?.length === 1) filters.serious = f.serious[0];
  else if (f.serious?.length === 0) return null;
  return { tab: 'all', filters, ...(any ? { any } : {}) };
}

/**
 * The link of one count: the query's, narrowed by each dimension's value (null: no exact one).
 * `values` maps dimension ids to the row's key (and the statistic's fixed values).
 */
export function rowLink(
  base: CaseListLink | null,
  dimensions: DimensionDeclaration[],
  values: Record<string, GroupScalar>,
  blindedValue: string,
  blinded = true,
  places?: StratumPlaces,
): CaseListLink | null {
  if (!base) return null;
  const filters = { ...base.filters };
  for (const d of dimensions) {
    const value = values[d.id];
    if (d.stratify) {
      // An age group: its projects (a subset of the count's) and their age range or D.2.3 code.
      const place = value === null || value === undefined ? undefined : places?.get(String(value));
      if (!place) return null;
      Object.assign(filters, place);
      continue;
    }
    const target = d.caseList;
    if (!target || value === null || value === undefined) return null;
    if (d.blindedMask && value === blindedValue) return null;
    if (target.range) {
      const days = typeof value === 'string' ? daysOf(value, target.range) : null;
      if (!days) return null;
      const before = filters[target.filter] as Partial<DayRange> | undefined;
      const from = before?.from && before.from > days.from ? before.from : days.from;
      const to = before?.to && before.to < days.to ? before.to : days.to;
      if (from > to) return null;
      filters[target.filter] = { from, to };
    } else {
      const id = listFilterOf(target, blinded);
      const operator = caseListDefinition.filters.find((f) => f.id === id)?.operator;
      // A product filter and a product row name the same list filter: both must hold.
      const before = filters[id];
      if (Array.isArray(before) && operator === 'in') {
        if (!before.includes(value)) return null;
        filters[id] = [value];
      } else filters[id] = operator === 'in' ? [value] : value;
    }
  }
  return { ...base, filters };
}

/** The link of a set of PT codes (an event-level tree node): any reaction with one of them. */
export function ptLink(base: CaseListLink | null, ptCodes: string[]): CaseListLink | null {
  if (!base || ptCodes.length === 0 || ptCodes.length > MAX_LIST_VALUES) return null;
  return { ...base, filters: { ...base.filters, ptCode: ptCodes } };
}

/**
 * The link of an LLT node: reactions with that PT and that LLT (E.i.2.1b). None when the case list
 * declares no LLT filter.
 */
export function lltLink(base: CaseListLink | null, ptCode: string, lltCode: string): CaseListLink | null {
  if (!base || !caseListDefinition.filters.some((f) => f.id === 'lltCode')) return null;
  return { ...base, filters: { ...base.filters, ptCode: [ptCode], lltCode: [lltCode] } };
}

/**
 * The link narrowed to cases where a product is a suspect or interacting drug (the event tree's
 * `suspect`): the list's exact suspect-drug filter, a blinded reader's over drugs the blinding does
 * not hide, as the count's.
 */
export function suspectLink(base: CaseListLink | null, name: string, blinded: boolean): CaseListLink | null {
  if (!base) return null;
  return { ...base, filters: { ...base.filters, [blinded ? 'openSuspectDrug' : 'suspectDrug']: [name] } };
}
