/**
 * Store filters of the two filters that are not a plain path condition (schemas/analytics/filters.json):
 * - `ageStratum`: age groups by the project's age-stratification rule, the `ageStratum` dimension's
 *   keys (strata.ts): a band's range (`18-65`, `65-`) over the projects whose rule has it, the age
 *   (D.2.2a) in that range in each declared unit (D.2.2b), and `D.2.3:<code>` over the projects
 *   without a rule;
 * - `onset`: one reaction whose start date (E.i.4) lies in the range, a partial date (YYYY, YYYYMM)
 *   only when the range holds its whole period.
 */
import { codelists } from '@pv/engine';
import { MAX_ALTERNATIVES, withinCondition } from '../cases';
import { errors } from '../http';
import type { Filter, Handle } from '../store';
import { dimensionById, filterById } from './declarations';
import type { Labels } from './declarations';
import { MAX_LIST_VALUES } from './drill';
import { bandKey, d23Labels, projectsByRule } from './strata';

const PROJECT = 'report.studyProjectId';
const NOTHING: Filter = { [PROJECT]: { $in: [] } };

/**
 * One reaction (not one bound per reaction) with its start date in the range, by the condition the
 * case list's `anyWithin` filter uses (cases/e2b-range.ts).
 */
export function onsetClause(range: { from?: string; to?: string }): Filter {
  const [array, field] = filterById.get('onset')!.path.split('.') as [string, string];
  return { [array]: { $elemMatch: { [field]: withinCondition(range) } } };
}

/** The rules of the projects counted (named, else every project with cases; null: cases without a project). */
async function projectRules(handle: Handle, projects: string[] | null): Promise<ProjectRules> {
  const ids =
    projects ??
    (await handle.collection('cases').groupCount({ filter: {}, by: [{ name: 'p', path: PROJECT }] })).map(
      (g) => (typeof g.key.p === 'string' ? g.key.p : null),
    );
  return projectsByRule(handle, ids);
}

type ProjectRules = Awaited<ReturnType<typeof projectsByRule>>;

/**
 * An age-group choice's store filter (ageStratumClause) and case list filters (ageStratumLinkFilters),
 * from one reading of the counted projects' rules.
 */
export async function ageStratumFilters(
  handle: Handle,
  keys: string[],
  projects: string[] | null,
  scope: string[] | null,
): Promise<{ clause: Filter; links: Record<string, unknown>[] | null }> {
  const rules = await projectRules(handle, projects);
  const offered = scope === projects ? rules : await projectRules(handle, scope);
  return { clause: ageStratumClause(keys, rules, offered), links: ageStratumLinkFilters(keys, rules) };
}

/** The codes of the stratum's declared fallback (D.2.3), the keys of the projects without a rule. */
const fallbackCodes = () =>
  codelists[dimensionById.get(dimensionById.get('ageStratum')!.stratify!.fallback)!.codelist!]?.values ?? [];

/** The age groups a filter offers over these projects: their bands (named as the first names them), D.2.3 groups if one has no rule. */
export async function ageStratumOptions(
  handle: Handle,
  projects: string[] | null,
): Promise<({ code: string } & Labels)[]> {
  const { ruled, unruled } = await projectRules(handle, projects);
  const options = new Map<string, Labels>();
  for (const { rule } of ruled)
    for (const band of rule)
      if (!options.has(bandKey(band))) options.set(bandKey(band), { zh: band.nameZh, en: band.nameEn });
  if (unruled.length) for (const v of fallbackCodes()) options.set(`D.2.3:${v.code}`, d23Labels(v.code));
  return [...options].map(([code, labels]) => ({ code, ...labels }));
}

/**
 * The cases of `projects` whose age group (as the `ageStratum` dimension places it) is one of
 * `keys`; a key that none of the caller's projects (`scope`: their rules, the filter bar's offer)
 * has is refused (translated 400), one of another project than those counted matches no case.
 */
function ageStratumClause(keys: string[], { ruled, unruled }: ProjectRules, scope: ProjectRules): Filter {
  const offered = new Set([
    ...scope.ruled.flatMap((r) => r.rule.map(bandKey)),
    ...fallbackCodes().map((v) => `D.2.3:${v.code}`),
  ]);
  const unknown = keys.find((k) => !offered.has(k));
  if (unknown !== undefined) throw errors.badRequest('analytics.unknownAgeBand', { key: unknown });
  const stratum = dimensionById.get('ageStratum')!;
  const { unit, years } = stratum.stratify!;
  const clauses: Filter[] = [];
  for (const { rule, projects: ids } of ruled) {
    const bands = rule.filter((b) => keys.includes(bandKey(b)));
    if (!bands.length) continue;
    // years = age x n / d (strata.ts), so years in [from, to) is age in [from x d / n, to x d / n).
    const ages = Object.entries(years).flatMap(([code, [n, d]]) =>
      bands.map((b) => ({
        [unit]: code,
        [stratum.path]: {
          $gte: (b.fromYears * d) / n,
          ...(b.toYears !== undefined ? { $lt: (b.toYears * d) / n } : {}),
        },
      })),
    );
    clauses.push({ $and: [{ [PROJECT]: { $in: ids } }, { $or: ages }] });
  }
  const codes = keys.filter((k) => k.startsWith('D.2.3:')).map((k) => k.slice('D.2.3:'.length));
  if (codes.length && unruled.length) {
    const named = unruled.filter((id): id is string => id !== null);
    const where: Filter[] = [
      ...(named.length ? [{ [PROJECT]: { $in: named } }] : []),
      ...(unruled.includes(null) ? [{ [PROJECT]: null }] : []),
    ];
    const fallback = dimensionById.get(stratum.stratify!.fallback)!.path;
    clauses.push({ $and: [where.length === 1 ? where[0]! : { $or: where }, { [fallback]: { $in: codes } }] });
  }
  return clauses.length === 0 ? NOTHING : clauses.length === 1 ? clauses[0]! : { $or: clauses };
}

/**
 * The case list filters (drill.ts) of an age-group choice: alternatives the list ORs (its `any`),
 * each ANDing a project set with one age condition - per rule, its projects with each run of
 * adjacent chosen bands as one range of `ageYears` (equal ranges of several rules: one alternative
 * with all their projects), and the projects without a rule with the chosen D.2.3 codes. None when
 * nothing is chosen that these projects have (the count is empty); null when the list could not
 * take them (over 20 alternatives, 500 projects in one).
 */
function ageStratumLinkFilters(
  keys: string[],
  { ruled, unruled }: ProjectRules,
): Record<string, unknown>[] | null {
  const stratum = dimensionById.get('ageStratum')!.stratify!;
  const fallback = dimensionById.get(stratum.fallback)!.caseList;
  const ranges = new Map<string, { projects: string[]; range: { from: number; to?: number } }>();
  for (const { rule, projects: ids } of ruled) {
    const bands = rule.filter((b) => keys.includes(bandKey(b))).sort((a, b) => a.fromYears - b.fromYears);
    bands.forEach((band, i) => {
      if (i > 0 && bands[i - 1]!.toYears === band.fromYears) return;
      let last = band;
      for (let j = i + 1; j < bands.length && last.toYears === bands[j]!.fromYears; j++) last = bands[j]!;
      const range = { from: band.fromYears, ...(last.toYears !== undefined ? { to: last.toYears } : {}) };
      const found = ranges.get(JSON.stringify(range)) ?? { projects: [], range };
      found.projects.push(...ids);
      ranges.set(JSON.stringify(range), found);
    });
  }
  const alternatives: Record<string, unknown>[] = [];
  if (ranges.size && !stratum.caseList) return null;
  // In age order (an open range last among equal starts), so a link reads the same every time.
  const upper = (r: { to?: number }) => r.to ?? Infinity;
  const ordered = [...ranges.values()].sort(
    (a, b) => a.range.from - b.range.from || upper(a.range) - upper(b.range),
  );
  for (const { projects: ids, range } of ordered)
    alternatives.push({ project: ids.sort(), [stratum.caseList!]: range });
  const codes = keys.filter((k) => k.startsWith('D.2.3:')).map((k) => k.slice('D.2.3:'.length));
  if (codes.length && unruled.length) {
    if (!fallback) return null;
    alternatives.push({ project: unruled, [fallback.filter]: codes });
  }
  const fits =
    alternatives.length <= MAX_ALTERNATIVES &&
    alternatives.every((a) => (a.project as unknown[]).length <= MAX_LIST_VALUES);
  return fits ? alternatives : null;
}
