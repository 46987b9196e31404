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
import { withinCondition } from '../cases';
import { errors } from '../http';
import type { Filter, Handle } from '../store';
import { dimensionById, filterById } from './declarations';
import type { Labels } from './declarations';
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
async function projectRules(handle: Handle, projects: string[] | null) {
  const ids =
    projects ??
    (await handle.collection('cases').groupCount({ filter: {}, by: [{ name: 'p', path: PROJECT }] })).map(
      (g) => (typeof g.key.p === 'string' ? g.key.p : null),
    );
  return projectsByRule(handle, ids);
}

const fallbackCodes = () => codelists[dimensionById.get('ageGroup')!.codelist!]?.values ?? [];

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
 * `keys`; a key that none of the caller's projects (`scope`, the filter bar's offer) has is refused
 * (translated 400), one of another project than those counted matches no case.
 */
export async function ageStratumClause(
  handle: Handle,
  keys: string[],
  projects: string[] | null,
  scope: string[] | null,
): Promise<Filter> {
  const { ruled, unruled } = await projectRules(handle, projects);
  const offeredRules = scope === projects ? ruled : (await projectRules(handle, scope)).ruled;
  const offered = new Set([
    ...offeredRules.flatMap((r) => r.rule.map(bandKey)),
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
 * The case list filters (drill.ts) of an age-group choice, when the list can say it exactly; null
 * when it cannot. The list ANDs its filters, so the choice must be one project set with one age
 * condition: D.2.3 groups only (the projects without a rule, `ageGroup`), or bands only whose ranges
 * join into one range (`ageYears`) and that every counted project having one of them has all of
 * (`project`); a mix, a gap or bands shared unevenly across rules gets no link.
 */
export async function ageStratumLinkFilters(
  handle: Handle,
  keys: string[],
  projects: string[] | null,
): Promise<Record<string, unknown> | null> {
  const { ruled, unruled } = await projectRules(handle, projects);
  const codes = keys.filter((k) => k.startsWith('D.2.3:')).map((k) => k.slice('D.2.3:'.length));
  const fallback = dimensionById.get(dimensionById.get('ageStratum')!.stratify!.fallback)!.caseList;
  if (codes.length === keys.length)
    return fallback && unruled.length ? { project: unruled, [fallback.filter]: codes } : null;
  if (codes.length) return null;
  const having = ruled.filter(({ rule }) => rule.some((b) => keys.includes(bandKey(b))));
  if (!having.length || having.some(({ rule }) => keys.some((k) => !rule.some((b) => bandKey(b) === k))))
    return null;
  const years = dimensionById.get('ageStratum')!.stratify!.caseList;
  if (!years) return null;
  const bands = having[0]!.rule
    .filter((b) => keys.includes(bandKey(b)))
    .sort((a, b) => a.fromYears - b.fromYears);
  if (bands.some((b, i) => i > 0 && bands[i - 1]!.toYears !== b.fromYears)) return null;
  const last = bands[bands.length - 1]!;
  return {
    project: having.flatMap((r) => r.projects).sort(),
    [years]: { from: bands[0]!.fromYears, ...(last.toYears !== undefined ? { to: last.toYears } : {}) },
  };
}
