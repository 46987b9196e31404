/**
 * Pooled-analysis statistics: the declared statistics and pivots of schemas/analytics counted by
 * the store (its grouped count: SQL on the embedded store, a pipeline on MongoDB), never by loading
 * case documents here. Over the caller's projects that hold the page's permission (a project named
 * outside them is refused), valid cases unless invalid ones are chosen (deleted never), the current
 * version of each case (the `cases` collection holds it), and blinded: a suspect or concomitant
 * drug that schemas/reports/blinding.json blinds (a study drug, G.k.2.5) counts under BLINDED for a
 * reader without the unblinded view in every project counted, and the product filter then matches
 * only drugs that are not blinded.
 */
import { codelists, disproportionality, e2bDateText, signalFlags } from '@pv/engine';
import type { Disproportionality, SignalFlags, SignalThresholds } from '@pv/engine';
import { isDay, listFilter, listScope, C as caseCollections } from '../cases';
import type { Caller } from '../http';
import { callerInLanguage, errors } from '../http';
import type { Filter, GroupCount, GroupDimension, GroupScalar } from '../store';
import { mayUnblind } from '../unblinding';
import { queryLink, rowLink } from './drill';
import { signalThresholds } from './thresholds';
import { stratifiedGroups } from './strata';
import { ageStratumFilters, onsetClause } from './clauses';
import type { CaseListLink, StratumPlaces } from './drill';
import { dimensionById, filterById, FILTERS, STATISTICS, statisticById } from './declarations';
import { countedReleases, meddraName } from './meddra';
import type { DimensionDeclaration, Labels, StatisticDeclaration } from './declarations';

export const PERMISSIONS = {
  summary: 'pooledanalysis:secondTitle',
  pivot: 'pooledanalysis:multidimensionalCrossover',
  eventLevel: 'pooledanalysis:eventLevel',
} as const;

/** What a blinded reader sees instead of a blinded drug's name. */
export const BLINDED_VALUE = 'BLINDED';
export const MAX_PIVOT_DIMENSIONS = 3;

export interface AnalyticsFilters {
  projectIds?: string[];
  /** C.1.4 bounds, YYYYMMDD, inclusive. */
  received?: { from?: string; to?: string };
  reportType?: string[];
  serious?: boolean[];
  country?: string[];
  sex?: string[];
  product?: string[];
  /** Age groups by the project's rule: the `ageStratum` dimension's keys (clauses.ts). */
  ageStratum?: string[];
  /** E.i.4 bounds, YYYYMMDD, inclusive: one reaction started in the range (clauses.ts). */
  onset?: { from?: string; to?: string };
}

export interface AnalyticsQuery {
  filters?: AnalyticsFilters;
  /** Count invalid cases too (deleted ones never). */
  includeInvalid?: boolean;
}

export interface AnalyticsRow {
  key: Record<string, GroupScalar>;
  /** Display text of each key value in the caller's language (code list label, else the value). */
  labels: Record<string, string>;
  /** The same in Chinese and English (the bilingual display shows both). */
  names: Record<string, Labels>;
  count: number;
  /** The case list query of exactly these cases (drill.ts); absent when the list cannot express it. */
  cases?: CaseListLink;
}

export interface AnalyticsAnswer {
  id: string;
  labels: Labels;
  chart: StatisticDeclaration['chart'];
  dimensions: { id: string; labels: Labels }[];
  blinded: boolean;
  /** Cases the filters select (each counted once, whatever the dimensions). */
  total: number;
  rows: AnalyticsRow[];
  /** A pivot of two or three dimensions: its counted totals (runPivot). */
  margins?: PivotMargins;
}

/**
 * A cross-tabulation's totals, each counted as its cells are (distinct cases, over the cases the
 * cells count: those with an element of every array a dimension reads), never summed from cells.
 */
export interface PivotMargins {
  /** Per value of every dimension but the last (the table's rows). */
  rows: AnalyticsRow[];
  /** Per value of the last dimension (the table's columns). */
  columns: AnalyticsRow[];
  /** Three dimensions: per value of the first (a subtotal per group of rows). */
  firsts?: AnalyticsRow[];
  /** Three dimensions: per value of the first and the last (the subtotal row's cells). */
  firstColumns?: AnalyticsRow[];
  /** The cases in any cell. */
  total: number;
}

/** The statistics a page offers, as declared (for the screens). */
export function statisticDeclarations(
  options: Record<string, { code: string; zh: string; en: string }[]> = {},
) {
  return {
    statistics: STATISTICS.map(({ id, group, dimensions, chart, labels }) => ({
      id,
      group,
      dimensions,
      chart,
      labels,
    })),
    // The cross-tabulation's: summary dimensions cannot be crossed with the documents' (runPivot).
    dimensions: [...dimensionById.values()]
      .filter((d) => !d.source)
      .map(({ id, labels, each }) => ({
        id,
        labels,
        perEvent: each === 'reactions',
      })),
    filters: FILTERS.map(({ id, kind, codelist, labels }) => ({
      id,
      kind,
      labels,
      ...(codelist ? { options: codelistOptions(codelist) } : options[id] ? { options: options[id] } : {}),
    })),
  };
}

function codelistOptions(name: string): { code: string; zh: string; en: string }[] {
  const list = codelists[name];
  return (list?.values ?? []).map((v) => ({ code: v.code, zh: v.zh, en: v.en }));
}

/** The caller's projects for the permission; a named project outside them is refused. */
async function projectScope(caller: Caller, permission: string, named: string[] | undefined) {
  const scope = await listScope(caller, permission);
  if (named?.length) {
    if (scope !== null && named.some((id) => !scope.includes(id)))
      throw errors.forbidden('analytics.projectForbidden');
    return named;
  }
  return scope;
}

/** Unblinded only when the caller holds the unblinded view in every project counted. */
async function isBlinded(caller: Caller, projects: string[] | null): Promise<boolean> {
  if (projects === null) return !(await caller.administers());
  const allowed = await Promise.all(projects.map((projectId) => mayUnblind(caller, projectId)));
  return allowed.some((ok) => !ok);
}

/** Conditions on a drug that the blinding hides (schemas/reports/blinding.json `drugWhen`). */
const BLINDED_DRUG = [
  { path: 'isClinicalDrug', in: [true] },
  { path: 'isBlind', in: [true] },
];

function caseFilter(query: AnalyticsQuery, projects: string[] | null, blinded: boolean): Filter {
  const clauses: Filter[] = [
    { 'state.validity': query.includeInvalid ? { $in: ['valid', 'invalid'] } : 'valid' },
  ];
  if (projects !== null) clauses.push({ [filterById.get('projectIds')!.path]: { $in: projects } });
  const f = query.filters ?? {};
  const received = filterById.get('received')!.path;
  if (f.received?.from) clauses.push({ [received]: { $gte: f.received.from } });
  if (f.received?.to) clauses.push({ [received]: { $lte: f.received.to } });
  for (const id of ['reportType', 'serious', 'country', 'sex'] as const) {
    const values = f[id];
    if (values?.length) clauses.push({ [filterById.get(id)!.path]: { $in: values } });
  }
  if (f.onset?.from || f.onset?.to) clauses.push(onsetClause(f.onset));
  if (f.product?.length) {
    const [array, field] = filterById.get('product')!.path.split('.') as [string, string];
    clauses.push(
      blinded
        ? // A blinded reader's product filter matches only drugs that are not blinded.
          {
            [array]: {
              $elemMatch: {
                [field]: { $in: f.product },
                isClinicalDrug: { $ne: true },
                isBlind: { $ne: true },
              },
            },
          }
        : { [`${array}.${field}`]: { $in: f.product } },
    );
  }
  return { $and: clauses };
}

/**
 * The store filter of a query: its declared filters (caseFilter) and the age groups, which read the
 * projects' rules; with the list filters of those age groups (`ages`, clauses.ts: alternatives, null
 * without an exact list; none asked: undefined), from the same reading. A date that is no calendar
 * day is refused (translated 400).
 */
async function queryFilter(
  caller: Caller,
  permission: string,
  query: AnalyticsQuery,
  projects: string[] | null,
  blinded: boolean,
): Promise<{ filter: Filter; ages: Record<string, unknown>[] | null | undefined }> {
  checkDays(query);
  const base = caseFilter(query, projects, blinded);
  const keys = query.filters?.ageStratum;
  if (!keys?.length) return { filter: base, ages: undefined };
  const scope = await listScope(caller, permission);
  const { clause, links } = await ageStratumFilters(caller.tenant, keys, projects, scope);
  return { filter: { $and: [base, clause] }, ages: links };
}

function checkDays(query: AnalyticsQuery): void {
  const f = query.filters ?? {};
  for (const day of [f.received?.from, f.received?.to, f.onset?.from, f.onset?.to])
    if (day !== undefined && !isDay(day)) throw errors.badRequest('analytics.badDay', { value: day });
}

/** A declared dimension as the store's group dimension (a blinded reader's study drugs masked). */
export function groupDimension(d: DimensionDeclaration, blinded: boolean): GroupDimension {
  if (!d.each) return { name: d.id, path: d.path, ...(d.prefix ? { prefix: d.prefix } : {}) };
  return {
    name: d.id,
    each: d.each,
    ...(d.element ? { element: d.element } : {}),
    path: d.path,
    ...(blinded && d.blindedMask ? { mask: { when: BLINDED_DRUG, value: BLINDED_VALUE } } : {}),
  };
}

function valueLabel(d: DimensionDeclaration, value: GroupScalar, caller: Caller): string {
  if (value === null) return caller.t('analytics.unknownValue');
  if (typeof value === 'boolean') return caller.t(value ? 'analytics.yes' : 'analytics.no');
  if (value === BLINDED_VALUE && d.blindedMask) return caller.t('analytics.blinded');
  const declared = d.values?.[String(value)];
  if (declared) return caller.lang === 'zh' ? declared.zh : declared.en;
  if (d.codelist) {
    const found = codelists[d.codelist]?.values.find((v) => v.code === String(value));
    if (found) return caller.lang === 'zh' ? found.zh : found.en;
  }
  // A month (YYYYMM) and a quarter (YYYYQn) of a date as a reader writes them.
  const text = String(value);
  const quarter = d.fold === 'quarter' ? /^(\d{4})Q(\d)$/.exec(text) : null;
  if (quarter) return caller.t('analytics.quarterLabel', { year: quarter[1]!, quarter: quarter[2]! });
  if (d.prefix === 6 && /^\d{6}$/.test(text)) return e2bDateText(text);
  return text;
}

/**
 * What a count runs over: the caller's projects for the permission, whether it is blinded, and the
 * store filter of the query; null when the caller has no project to count.
 */
export async function countScope(
  caller: Caller,
  permission: string,
  query: AnalyticsQuery,
): Promise<{ blinded: boolean; filter: Filter; ages: Record<string, unknown>[] | null | undefined } | null> {
  const projects = await projectScope(caller, permission, query.filters?.projectIds);
  if (projects !== null && projects.length === 0) return null;
  const blinded = await isBlinded(caller, projects);
  return { blinded, ...(await queryFilter(caller, permission, query, projects, blinded)) };
}

/**
 * Counts cases by the given dimensions (one to three) under the query, in the store. Element
 * dimensions of the same array read the same element (a drug's name with its role); a case counts
 * once per combination.
 */
async function count(
  caller: Caller,
  permission: string,
  dimensions: DimensionDeclaration[],
  query: AnalyticsQuery,
  fixed: Record<string, string | number | boolean> = {},
  margins: PivotCount = { alongside: [], sums: [], total: true },
): Promise<{ blinded: boolean; total: number; rows: AnalyticsRow[]; sums: AnalyticsRow[][] }> {
  const { alongside, sums } = margins;
  const projects = await projectScope(caller, permission, query.filters?.projectIds);
  if (projects !== null && projects.length === 0)
    return { blinded: true, total: 0, rows: [], sums: sums.map(() => []) };
  const blinded = await isBlinded(caller, projects);
  if (dimensions.some((d) => d.source === 'summary'))
    return { ...(await countSummaries(caller, dimensions, query, fixed, projects, blinded)), sums: [] };
  const { filter: base, ages } = await queryFilter(caller, permission, query, projects, blinded);
  const filter: Filter = {
    $and: [base, ...Object.entries(fixed).map(([id, value]) => ({ [dimensionById.get(id)!.path]: value }))],
  };
  const cases = caller.tenant.collection(caseCollections.cases);
  const where = [...dimensions, ...alongside].flatMap((d) =>
    d.each && d.where
      ? d.where.map((w) => ({ each: d.each!, ...(d.element ? { element: d.element } : {}), ...w }))
      : [],
  );
  // Two dimensions reading the same element of an array under different conditions would have to
  // read two different elements: refused rather than answered wrongly (`element` names another).
  const conflicting = dimensions.some((a) =>
    dimensions.some(
      (b) =>
        a !== b &&
        a.each &&
        a.each === b.each &&
        a.element === b.element &&
        JSON.stringify(a.where) !== JSON.stringify(b.where),
    ),
  );
  if (conflicting) throw errors.badRequest('analytics.dimensionsConflict');
  // The pivot's margins: a case counts only when it has an element of each array a dimension left
  // out reads (as its cells need one), so each such element is read with one constant key (null).
  const slotOf = (d: DimensionDeclaration) => `${d.each}#${d.element ?? ''}`;
  const read = new Set(dimensions.filter((d) => d.each).map(slotOf));
  const present: GroupDimension[] = [
    ...new Map(
      alongside
        .filter((d) => d.each && !read.has(slotOf(d)))
        .map((d) => [
          slotOf(d),
          { each: d.each!, ...(d.element ? { element: d.element } : {}), path: d.path },
        ]),
    ).values(),
  ].map((slot, i) => ({ name: `present${i}`, ...slot, map: {} }));
  const grouped = async (narrowed: Filter, by: DimensionDeclaration[]): Promise<Grouped> => {
    const stratum = by.find((d) => d.stratify);
    if (stratum)
      return stratifiedGroups(
        caller.tenant,
        stratum,
        [...by.filter((d) => d !== stratum).map((d) => groupDimension(d, blinded)), ...present],
        narrowed,
        where,
      );
    const groups =
      by.length || present.length
        ? await cases.groupCount({
            filter: narrowed,
            by: [...by.map((d) => groupDimension(d, blinded)), ...present],
            ...(where.length ? { where } : {}),
          })
        : [{ key: {}, count: await cases.count(narrowed) }].filter((g) => g.count > 0);
    return { groups, labels: new Map<string, Labels>() };
  };
  const coded = dimensions.find((d) => d.meddra);
  // A pivot's counts share one filter: the release of a coded path is looked up once for all.
  const releaseAt = (path: string) => {
    const found = margins.releases?.get(path) ?? countedReleases(caller, cases, filter, path);
    margins.releases?.set(path, found);
    return found;
  };
  const [{ groups, labels, places }, total, release] = await Promise.all([
    classedGroups(filter, dimensions, grouped),
    margins.total ? cases.count(filter) : 0,
    // SOC and PT keys are codes: named from the counted reactions' MedDRA release.
    coded ? releaseAt(coded.path) : null,
  ]);
  const inLanguage = { zh: callerInLanguage(caller, 'zh'), en: callerInLanguage(caller, 'en') };
  const namesOf = (d: DimensionDeclaration, value: GroupScalar): Labels => {
    const named = d.stratify && value !== null ? labels.get(String(value)) : undefined;
    if (named) return named;
    const [zh, en] = (['zh', 'en'] as const).map(
      (lang) =>
        (d.meddra ? meddraName(release?.[lang] ?? null, d.meddra, value) : null) ??
        valueLabel(d, value, inLanguage[lang]),
    );
    return { zh: zh!, en: en! };
  };
  // Cases kept for an element of a left-out array are more than the list's filters say: no link.
  const listed = present.length ? null : queryLink(query, blinded, ages);
  const fixedDimensions = Object.keys(fixed).map((id) => dimensionById.get(id)!);
  const toRows = (by: DimensionDeclaration[], counted: GroupCount[]): AnalyticsRow[] =>
    counted.map((g) => {
      const link = rowLink(
        listed,
        [...fixedDimensions, ...by],
        { ...fixed, ...g.key },
        BLINDED_VALUE,
        blinded,
        places,
      );
      const names = Object.fromEntries(by.map((d) => [d.id, namesOf(d, g.key[d.id] ?? null)]));
      return {
        key: Object.fromEntries(by.map((d) => [d.id, g.key[d.id] ?? null])),
        labels: Object.fromEntries(
          Object.entries(names).map(([id, n]) => [id, caller.lang === 'zh' ? n.zh : n.en]),
        ),
        names,
        count: g.count,
        ...(link ? { cases: link } : {}),
      };
    });
  const cells = folded(dimensions, groups);
  return {
    blinded,
    total,
    rows: toRows(dimensions, cells),
    sums: sums.map((kept) => toRows(kept, summed(kept, cells))),
  };
}

/**
 * A count's companions in a pivot (runPivot): the pivot's other dimensions, whose arrays a case
 * needs an element of (`alongside`); sums of its groups by some of its dimensions (exact where
 * those left out are single-valued); whether to count the filters' cases too; the MedDRA releases
 * of the counts' coded paths, shared by the pivot's counts (one query, one filter).
 */
interface PivotCount {
  alongside: DimensionDeclaration[];
  sums: DimensionDeclaration[][];
  total: boolean;
  releases?: Map<string, ReturnType<typeof countedReleases>>;
}

/** Groups summed by some of their dimensions (a case counted once needs one value of the others). */
function summed(kept: DimensionDeclaration[], groups: GroupCount[]): GroupCount[] {
  const merged = new Map<string, GroupCount>();
  for (const g of groups) {
    const key = Object.fromEntries(kept.map((d) => [d.id, g.key[d.id] ?? null]));
    const id = JSON.stringify(kept.map((d) => key[d.id]));
    const found = merged.get(id);
    if (found) found.count += g.count;
    else merged.set(id, { key, count: g.count });
  }
  return [...merged.values()].sort((a, b) => b.count - a.count);
}

/** Grouped counts, the age groups' labels and, with an age-group dimension, their list filters. */
interface Grouped {
  groups: GroupCount[];
  labels: Map<string, Labels>;
  places?: StratumPlaces;
}

/**
 * Groups with a `classes` dimension: the other dimensions counted once per class under the class's
 * condition (some element of the array meets it), and under `otherwise` as all cases less those
 * meeting any class, key by key (a subset, so exact). A case counts under each class it meets.
 */
async function classedGroups(
  filter: Filter,
  dimensions: DimensionDeclaration[],
  grouped: (filter: Filter, dimensions: DimensionDeclaration[]) => Promise<Grouped>,
): Promise<Grouped> {
  const classed = dimensions.find((d) => d.classes);
  if (!classed) return grouped(filter, dimensions);
  const others = dimensions.filter((d) => d !== classed);
  const meets = (c: { path: string; in: GroupScalar[] }) => ({
    [`${classed.path}.${c.path}`]: { $in: c.in },
  });
  const under = (clause: Filter | null) =>
    classedGroups(clause ? { $and: [filter, clause] } : filter, others, grouped);
  const classes = classed.classes!;
  const [perClass, all, any] = await Promise.all([
    Promise.all(classes.map((c) => under(meets(c)))),
    under(null),
    under({ $or: classes.map(meets) }),
  ]);
  const keyOf = (g: GroupCount) => JSON.stringify(others.map((d) => g.key[d.id] ?? null));
  const meeting = new Map(any.groups.map((g) => [keyOf(g), g.count]));
  const groups = [
    ...perClass.flatMap((found, i) =>
      found.groups.map((g) => ({ key: { ...g.key, [classed.id]: classes[i]!.key }, count: g.count })),
    ),
    ...all.groups
      .map((g) => ({
        key: { ...g.key, [classed.id]: classed.otherwise! },
        count: g.count - (meeting.get(keyOf(g)) ?? 0),
      }))
      .filter((g) => g.count > 0),
  ];
  const labels = new Map([...all.labels, ...perClass.flatMap((found) => [...found.labels])]);
  // Age groups' places from the count without a class: its projects hold every class's.
  return {
    groups: groups.sort((a, b) => b.count - a.count),
    labels,
    ...(all.places ? { places: all.places } : {}),
  };
}

/**
 * Counts by dimensions of the case summary (`source: summary`: the submission facts kept beside
 * the list's values), in the store. The filters are the statistics' own, said as the case list's
 * declared filters (drill.ts, the same translation as a drill-down: exact by construction) over
 * the summaries; the fixed values through their dimensions' list filters; only cases with a value
 * of every dimension count.
 */
async function countSummaries(
  caller: Caller,
  dimensions: DimensionDeclaration[],
  query: AnalyticsQuery,
  fixed: Record<string, string | number | boolean>,
  projects: string[] | null,
  blinded: boolean,
): Promise<{ blinded: boolean; total: number; rows: AnalyticsRow[] }> {
  // Serious "none of the values" filters nothing in the count (caseFilter); the same here.
  const f = query.filters ?? {};
  // Summaries are counted through the list's filters (an onset range through its `onset`, age
  // groups through their alternatives): a key none of the caller's projects has is refused as
  // the documents' count refuses it, a choice the list cannot take too.
  let ages: Record<string, unknown>[] | null | undefined;
  if (f.ageStratum?.length) {
    const scope = await listScope(caller, PERMISSIONS.summary);
    ({ links: ages } = await ageStratumFilters(caller.tenant, f.ageStratum, projects, scope));
    if (!ages) throw errors.badRequest('analytics.filterNotForSummary', { filters: 'ageStratum' });
    if (!ages.length) return { blinded, total: 0, rows: [] };
  }
  const filters = f.serious?.length === 0 ? { ...f, serious: undefined } : f;
  const fixedDimensions = Object.keys(fixed).map((id) => dimensionById.get(id)!);
  const link = rowLink(
    queryLink({ ...query, filters }, blinded, ages),
    fixedDimensions,
    fixed,
    BLINDED_VALUE,
    blinded,
  );
  // Declarations guarantee the link (fixed values of summary statistics have list filters).
  if (!link) throw new Error('analytics: a summary statistic without an exact list query');
  // Validity on the summary's state (what the summaries' `submitted` index leads with) rather than
  // the list's copy of it, so the count reads that index alone.
  const { validity, ...listed } = link.filters;
  const filter: Filter = {
    $and: [
      { 'state.validity': { $in: validity as string[] } },
      listFilter({ tab: 'all', filters: listed, ...(link.any ? { any: link.any } : {}) }, projects ?? []),
      ...dimensions.map((d) => ({ [d.path]: { $gt: '' } })),
    ],
  };
  const summaries = caller.tenant.collection(caseCollections.summaries);
  const [zh, en] = [callerInLanguage(caller, 'zh'), callerInLanguage(caller, 'en')];
  const [groups, total] = await Promise.all([
    summaries.groupCount({ filter, by: dimensions.map((d) => groupDimension(d, blinded)) }),
    summaries.count(filter),
  ]);
  return {
    blinded,
    total,
    rows: folded(dimensions, groups).map((g) => {
      // The row's value through its dimension's list filter of the summary's value (submitted day, timeliness).
      const cases = rowLink(link, dimensions, g.key, BLINDED_VALUE, blinded);
      return {
        key: g.key,
        labels: Object.fromEntries(dimensions.map((d) => [d.id, valueLabel(d, g.key[d.id] ?? null, caller)])),
        names: Object.fromEntries(
          dimensions.map((d) => [
            d.id,
            { zh: valueLabel(d, g.key[d.id] ?? null, zh), en: valueLabel(d, g.key[d.id] ?? null, en) },
          ]),
        ),
        count: g.count,
        ...(cases ? { cases } : {}),
      };
    }),
  };
}

/** `2026` `05` -> `2026Q2`; a value that is not a month stays as it is (unknown: null). */
function quarterOf(month: GroupScalar): GroupScalar {
  if (typeof month !== 'string' || !/^[0-9]{6}$/.test(month)) return month;
  return `${month.slice(0, 4)}Q${Math.ceil(Number(month.slice(4)) / 3)}`;
}

/** Months folded into quarters where a dimension declares it: groups of one quarter summed. */
function folded(dimensions: DimensionDeclaration[], groups: GroupCount[]): GroupCount[] {
  if (!dimensions.some((d) => d.fold)) return groups;
  const merged = new Map<string, GroupCount>();
  for (const g of groups) {
    const key = Object.fromEntries(
      dimensions.map((d) => [d.id, d.fold ? quarterOf(g.key[d.id] ?? null) : (g.key[d.id] ?? null)]),
    );
    const id = JSON.stringify(dimensions.map((d) => key[d.id]));
    const found = merged.get(id);
    if (found) found.count += g.count;
    else merged.set(id, { key, count: g.count });
  }
  return [...merged.values()].sort((a, b) => b.count - a.count);
}

export async function runStatistic(
  caller: Caller,
  statisticId: string,
  query: AnalyticsQuery,
): Promise<AnalyticsAnswer> {
  const statistic = statisticById.get(statisticId);
  if (!statistic) throw errors.badRequest('analytics.unknownStatistic', { id: statisticId });
  const dimensions = statistic.dimensions.map((id) => dimensionById.get(id)!);
  const { sums: _sums, ...answer } = await count(
    caller,
    PERMISSIONS.summary,
    dimensions,
    query,
    statistic.fixed,
  );
  // A trend reads left to right in time: its rows in key order (months as YYYYMM texts).
  if (statistic.chart === 'line')
    answer.rows.sort((a, b) =>
      String(a.key[dimensions[0]!.id]).localeCompare(String(b.key[dimensions[0]!.id])),
    );
  return {
    id: statistic.id,
    labels: statistic.labels,
    chart: statistic.chart,
    dimensions: dimensions.map(({ id, labels }) => ({ id, labels })),
    ...answer,
  };
}

export async function runPivot(
  caller: Caller,
  dimensionIds: string[],
  query: AnalyticsQuery,
): Promise<AnalyticsAnswer> {
  if (
    dimensionIds.length < 1 ||
    dimensionIds.length > MAX_PIVOT_DIMENSIONS ||
    new Set(dimensionIds).size !== dimensionIds.length
  )
    throw errors.badRequest('analytics.badDimensions');
  const dimensions = dimensionIds.map((id) => {
    const d = dimensionById.get(id);
    if (!d || d.source) throw errors.badRequest('analytics.unknownDimension', { id });
    return d;
  });
  // The margins are counted (a case under several values of a multi-valued dimension is one case
  // of its row, not the sum of its cells), over the cells' cases. A margin whose left-out
  // dimensions are single-valued (one value per case, null included) is the sum of a count that
  // has them, exactly; the others are grouped counts of their own (product x SOC x seriousness:
  // three counts in all, not six).
  const single = (d: DimensionDeclaration) => !d.each && !d.classes;
  const [first, second, last] = dimensions;
  const three = last !== undefined;
  const across = second !== undefined;
  const wanted: [keyof PivotMargins, DimensionDeclaration[]][] = [
    ...(across ? [['rows', dimensions.slice(0, -1)] as [keyof PivotMargins, DimensionDeclaration[]]] : []),
    ...(three ? [['firstColumns', [first!, last]] as [keyof PivotMargins, DimensionDeclaration[]]] : []),
    ...(across ? [['columns', dimensions.slice(-1)] as [keyof PivotMargins, DimensionDeclaration[]]] : []),
    ...(three ? [['firsts', [first!]] as [keyof PivotMargins, DimensionDeclaration[]]] : []),
    ...(across ? [['total', []] as [keyof PivotMargins, DimensionDeclaration[]]] : []),
  ];
  const counts: {
    by: DimensionDeclaration[];
    sums: DimensionDeclaration[][];
    names: (keyof PivotMargins)[];
  }[] = [{ by: dimensions, sums: [], names: [] }];
  for (const [name, kept] of wanted) {
    const from = counts.find(
      (c) => kept.every((d) => c.by.includes(d)) && c.by.every((d) => kept.includes(d) || single(d)),
    );
    const into = from ?? counts[counts.push({ by: kept, sums: [], names: [] }) - 1]!;
    into.sums.push(kept);
    into.names.push(name);
  }
  const releases: PivotCount['releases'] = new Map();
  const [answer, ...others] = await Promise.all(
    counts.map((c, i) =>
      count(
        caller,
        PERMISSIONS.pivot,
        c.by,
        query,
        {},
        {
          alongside: i === 0 ? [] : dimensions,
          sums: c.sums,
          total: i === 0,
          releases,
        },
      ),
    ),
  );
  const found = new Map(
    [answer!, ...others].flatMap((a, i) => counts[i]!.names.map((name, j) => [name, a.sums[j]!] as const)),
  );
  const { sums: _sums, ...cells } = answer!;
  return {
    id: 'pivot',
    labels: { zh: '多维交叉分析', en: 'Cross-tabulation' },
    chart: 'bar',
    dimensions: dimensions.map(({ id, labels }) => ({ id, labels })),
    ...cells,
    ...(across
      ? {
          margins: {
            rows: found.get('rows')!,
            columns: found.get('columns')!,
            ...(three ? { firsts: found.get('firsts')!, firstColumns: found.get('firstColumns')! } : {}),
            total: found.get('total')![0]?.count ?? 0,
          },
        }
      : {}),
  };
}

export interface SignalRow extends Disproportionality {
  drug: string;
  /** The PT or SOC code as stored. */
  event: string;
  /** Its name in the counted reactions' MedDRA release (meddra.ts); null when the release lacks it or none is imported. */
  eventName: string | null;
  /** The same in Chinese and English (the bilingual display shows both). */
  eventNames: { zh: string | null; en: string | null };
  a: number;
  b: number;
  c: number;
  d: number;
  flags: SignalFlags;
  /** The case list query of the pair's `a` cases (drill.ts); absent for a BLINDED drug. */
  cases?: CaseListLink;
}

export interface SignalAnswer {
  by: 'pt' | 'soc';
  blinded: boolean;
  /** N: the cases with a suspect drug and a coded event (each once). */
  cases: number;
  /** The caller's tenant's thresholds the flags were set by. */
  thresholds: SignalThresholds;
  rows: SignalRow[];
}

/**
 * The signal table: every suspect drug (G.k.2.2 as stored, roles 1 and 3) x event (the stored PT or
 * SOC code) pair's 2x2 table, counted per case by the store, with PRR/chi-square, ROR and IC
 * (engine disproportionality) and the flags by the caller's tenant's thresholds. The cases are those the
 * statistics count (caller's projects, valid, the filters); a blinded reader's study drugs count
 * together as BLINDED. Unlike the CLI's engine counter, drug names are taken as stored (not folded).
 */
export async function runSignals(
  caller: Caller,
  by: 'pt' | 'soc',
  query: AnalyticsQuery,
  minCases = 1,
): Promise<SignalAnswer> {
  const projects = await projectScope(caller, PERMISSIONS.eventLevel, query.filters?.projectIds);
  const { rev: _rev, ...thresholds } = await signalThresholds(caller);
  if (projects !== null && projects.length === 0)
    return { by, blinded: true, cases: 0, thresholds, rows: [] };
  const blinded = await isBlinded(caller, projects);
  const { filter, ages } = await queryFilter(caller, PERMISSIONS.eventLevel, query, projects, blinded);
  const drug = groupDimension(dimensionById.get('product')!, blinded);
  const event = { name: 'event', each: 'reactions', path: by === 'pt' ? 'meddraPtCode' : 'meddraSocCode' };
  // Both arrays are read in every count, so N and the margins are over the same cases as `a`.
  const where = [
    ...dimensionById.get('product')!.where!.map((w) => ({ each: 'drugs', ...w })),
    { each: 'drugs', path: 'drugName', present: true as const },
    { each: 'reactions', path: event.path, present: true as const },
  ];
  const cases = caller.tenant.collection(caseCollections.cases);
  const [pairs, drugTotals, eventTotals, all, release] = await Promise.all([
    cases.groupCount({ filter, by: [drug, event], where }),
    cases.groupCount({ filter, by: [drug], where }),
    cases.groupCount({ filter, by: [event], where }),
    cases.groupCount({ filter, by: [{ name: 'v', path: 'state.validity' }], where }),
    countedReleases(caller, cases, filter, event.path),
  ]);
  const n = all.reduce((sum, g) => sum + g.count, 0);
  const withDrug = new Map(drugTotals.map((g) => [g.key[drug.name], g.count]));
  const withEvent = new Map(eventTotals.map((g) => [g.key.event, g.count]));
  const listed = queryLink(query, blinded, ages);
  const productDimension = dimensionById.get('product')!;
  const eventDimension = dimensionById.get(by)!;
  const rows = pairs
    .filter((g) => g.count >= minCases)
    .map((g) => {
      const link = rowLink(
        listed,
        [productDimension, eventDimension],
        { product: g.key[drug.name] ?? null, [by]: g.key.event ?? null },
        BLINDED_VALUE,
        blinded,
      );
      const a = g.count;
      const b = (withDrug.get(g.key[drug.name]) ?? 0) - a;
      const c = (withEvent.get(g.key.event) ?? 0) - a;
      const figures = disproportionality({ a, b, c, d: n - a - b - c });
      return {
        drug: String(g.key[drug.name]),
        event: String(g.key.event),
        eventName: meddraName(release[caller.lang], by, g.key.event),
        eventNames: {
          zh: meddraName(release.zh, by, g.key.event),
          en: meddraName(release.en, by, g.key.event),
        },
        a,
        b,
        c,
        d: n - a - b - c,
        ...figures,
        flags: signalFlags(a, figures, thresholds),
        ...(link ? { cases: link } : {}),
      };
    });
  return { by, blinded, cases: n, thresholds, rows };
}
