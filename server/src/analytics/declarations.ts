/**
 * The pooled-analysis declarations (schemas/analytics): dimensions, filters and statistics, read
 * once and checked against each other when the module loads (a statistic naming an unknown
 * dimension is a startup error, not a 500 at the first request).
 */
import { caseListDefinition } from '@pv/engine';
import dimensionsFile from '../../../schemas/analytics/dimensions.json';
import filtersFile from '../../../schemas/analytics/filters.json';
import statisticsFile from '../../../schemas/analytics/statistics.json';

export type Labels = { zh: string; en: string };
type Scalar = string | number | boolean;

export interface DimensionDeclaration {
  id: string;
  /**
   * `summary`: the path is in the case summary (caseSummaries: `submitted`), counted there under the
   * same filters through the case list's; only cases with a value count. Absent: the case document.
   */
  source?: 'summary';
  path: string;
  /** Labels of the codes when no code list has them. */
  values?: Record<string, Labels>;
  /**
   * The value (an age) placed in the bands of the case's project's age-stratification rule (strata.ts):
   * `unit` its unit's path, `years` each unit's [n, d] (years = value x n / d), `fallback` the
   * dimension counted for cases of projects without a rule; `caseList` the case list filter of the
   * age in years by the same ratios (a `years` filter the summary keeps), for the drill-down.
   */
  stratify?: { unit: string; years: Record<string, [number, number]>; fallback: string; caseList?: string };
  each?: string;
  where?: { path: string; in: Scalar[] }[];
  /** Reads its own element of `each` (a concomitant drug beside the suspect drug of the same case). */
  element?: string;
  /** The element's value is masked for a reader without the unblinded view (schemas/reports/blinding.json). */
  blindedMask?: boolean;
  codelist?: string;
  /** Keep the first characters of a text value (a date's month: 6). */
  prefix?: number;
  /**
   * Months (YYYYMM, a prefix of 6) folded into quarters (YYYYQn) after the count: exact for a
   * document path, where each case has one month.
   */
  fold?: 'quarter';
  meddra?: 'soc' | 'pt';
  /**
   * Classes of the elements of the array at `path`: a case counts under every class some element
   * meets (its value at the class's path is one of `in`), and under `otherwise` when none does (a
   * case with a fatal reaction, with a life-threatening one, with neither). Keys labelled by `values`.
   */
  classes?: { key: string; path: string; in: Scalar[]; e2b?: string }[];
  otherwise?: string;
  /**
   * The case list filter (schemas/ui/case-list.json) that selects a value's cases exactly, for the
   * drill-down; with `range`, a date key's days (drill.ts). Absent: no drill-down by this dimension.
   */
  caseList?: { filter: string; range?: 'month' | 'quarter' | 'year'; blinded?: string };
  e2b?: string;
  labels: Labels;
}

export interface FilterDeclaration {
  id: string;
  kind: 'projects' | 'dateRange' | 'values';
  path: string;
  type?: 'boolean';
  codelist?: string;
  e2b?: string;
  /** Its values are this dimension's keys (the age groups by the projects' rules, clauses.ts). */
  dimension?: string;
  /** The exact case list filter of the same values (drill.ts); `blinded`: a blinded reader's. */
  caseList?: { filter: string; blinded?: string };
  labels: Labels;
}

export interface StatisticDeclaration {
  id: string;
  group: string;
  measure: 'cases';
  dimensions: string[];
  /** Dimension id -> the one value every counted case has (a SUSAR statistic: susar true). */
  fixed?: Record<string, Scalar>;
  chart: 'bar' | 'pie' | 'line';
  labels: Labels;
}

export const DIMENSIONS = dimensionsFile.dimensions as DimensionDeclaration[];
export const FILTERS = filtersFile.filters as FilterDeclaration[];
export const STATISTICS = statisticsFile.statistics as StatisticDeclaration[];

export const dimensionById = new Map(DIMENSIONS.map((d) => [d.id, d]));

/**
 * A dimension whose value is the document's at its path (or its elements'): not the summary's
 * (`source`), not computed from several fields (`stratify`). What a brute force reads directly.
 */
export const readsDocumentPath = (d: DimensionDeclaration): boolean => !d.source && !d.stratify;
export const filterById = new Map(FILTERS.map((f) => [f.id, f]));
export const statisticById = new Map(STATISTICS.map((s) => [s.id, s]));

for (const [file, declared] of [
  ['dimensions', DIMENSIONS],
  ['filters', FILTERS],
] as const)
  for (const d of declared)
    for (const id of [d.caseList?.filter, d.caseList?.blinded])
      if (id && !caseListDefinition.filters.some((f) => f.id === id))
        throw new Error(`schemas/analytics/${file}.json ${d.id}: unknown case list filter ${id}`);

// The onset range's list filter must take one E2B date of an array in a day range as the count does.
const onsetList = FILTERS.find((f) => f.id === 'onset')?.caseList?.filter;
if (onsetList && caseListDefinition.filters.find((f) => f.id === onsetList)?.operator !== 'anyWithin')
  throw new Error(`schemas/analytics/filters.json onset: case list filter ${onsetList} is not anyWithin`);

for (const d of DIMENSIONS)
  if (d.fold && (d.each || d.prefix !== 6))
    throw new Error(
      `schemas/analytics/dimensions.json ${d.id}: a quarter folds a document's month (prefix 6)`,
    );

for (const d of DIMENSIONS)
  if (
    d.stratify &&
    (d.each || d.caseList || d.source || dimensionById.get(d.stratify.fallback)?.each !== undefined)
  )
    throw new Error(
      `schemas/analytics/dimensions.json ${d.id}: a stratified age reads the document, falling back to a document dimension`,
    );

// The list's age in years must be the strata's, or a band's link would list other cases.
const dotted = (pointer: string) =>
  pointer
    .slice(1)
    .split('/')
    .filter((token) => token !== '*')
    .join('.');
for (const d of DIMENSIONS) {
  const id = d.stratify?.caseList;
  const years = caseListDefinition.filters.find((f) => f.id === id)?.years;
  if (
    id &&
    (!years ||
      dotted(caseListDefinition.filters.find((f) => f.id === id)!.fields[0]!) !== d.path ||
      dotted(years.unit) !== d.stratify!.unit ||
      JSON.stringify(years.ratios) !== JSON.stringify(d.stratify!.years))
  )
    throw new Error(
      `schemas/analytics/dimensions.json ${d.id}: case list filter ${id} must keep ${d.path} in years by the same unit ratios`,
    );
}

for (const d of DIMENSIONS)
  if (
    d.classes &&
    (d.each ||
      d.source ||
      d.stratify ||
      d.prefix ||
      !d.otherwise ||
      ![...d.classes.map((c) => c.key), d.otherwise].every((key) => d.values?.[key]))
  )
    throw new Error(
      `schemas/analytics/dimensions.json ${d.id}: classes of a document array, with an otherwise key, each labelled in values`,
    );

// A classes dimension's list filter keeps the same classes (cases/summary.ts), so its keys agree.
for (const d of DIMENSIONS) {
  const listed =
    d.classes && d.caseList && caseListDefinition.filters.find((f) => f.id === d.caseList!.filter);
  if (
    listed &&
    JSON.stringify([
      listed.classes?.of.map((c) => [c.key, dotted(c.field), c.in]),
      listed.classes?.otherwise,
    ]) !== JSON.stringify([d.classes!.map((c) => [c.key, `${d.path}.${c.path}`, c.in]), d.otherwise])
  )
    throw new Error(
      `schemas/analytics/dimensions.json ${d.id}: list filter ${d.caseList!.filter} has other classes`,
    );
}

for (const d of DIMENSIONS)
  if (d.source === 'summary' && d.each)
    throw new Error(`schemas/analytics/dimensions.json ${d.id}: a summary dimension reads one value`);

for (const statistic of STATISTICS) {
  const sources = new Set(statistic.dimensions.map((id) => dimensionById.get(id)?.source ?? 'cases'));
  if (sources.size > 1)
    throw new Error(
      `schemas/analytics/statistics.json ${statistic.id}: summary and document dimensions together`,
    );
  // A summary statistic's fixed values narrow its cases through their case list filters.
  if (sources.has('summary'))
    for (const id of Object.keys(statistic.fixed ?? {}))
      if (!dimensionById.get(id)?.caseList)
        throw new Error(`schemas/analytics/statistics.json ${statistic.id}: fixed ${id} has no list filter`);
  for (const id of [...statistic.dimensions, ...Object.keys(statistic.fixed ?? {})]) {
    const dimension = dimensionById.get(id);
    if (!dimension)
      throw new Error(`schemas/analytics/statistics.json ${statistic.id}: unknown dimension ${id}`);
    if (id in (statistic.fixed ?? {}) && (dimension.each || dimension.classes))
      throw new Error(`schemas/analytics/statistics.json ${statistic.id}: fixed ${id} reads an array`);
  }
}
