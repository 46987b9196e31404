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
import { errors } from '../http';
import type { Filter, Handle } from '../store';
import { dimensionById, filterById } from './declarations';
import type { Labels } from './declarations';
import { bandKey, d23Labels, projectsByRule } from './strata';

const PROJECT = 'report.studyProjectId';
const NOTHING: Filter = { [PROJECT]: { $in: [] } };

/** A real calendar day YYYYMMDD. */
export function isDay(value: string): boolean {
  if (!/^\d{8}$/.test(value)) return false;
  const [y, m, d] = [Number(value.slice(0, 4)), Number(value.slice(4, 6)), Number(value.slice(6))];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const dayAfter = (day: string): string => {
  const y = Number(day.slice(0, 4));
  const next = new Date(Date.UTC(y, Number(day.slice(4, 6)) - 1, Number(day.slice(6)) + 1));
  return `${next.getUTCFullYear()}${String(next.getUTCMonth() + 1).padStart(2, '0')}${String(next.getUTCDate()).padStart(2, '0')}`;
};

/**
 * The condition on one reaction's start date (E2B digits: YYYY, YYYYMM, YYYYMMDD[hh[mm[ss]]]) that
 * holds when the range holds the date's whole period, by string comparison alone (the bounds are
 * converted, stored dates are not padded): the lower bound is cut to its month or year when it is
 * that period's first day (so `202603` is not below `20260301`'s `202603`); the upper bound is
 * `to` followed by `:` (after every digit: a day's times stay under it), with the year and month
 * of `to` excluded as partial values when `to` is not their last day (a prefix of the bound sorts
 * below it). A partial date strictly between the bounds' periods lies wholly between them.
 */
export function onsetCondition(range: { from?: string; to?: string }): Record<string, unknown> {
  let lower = '0';
  if (range.from)
    lower = range.from.endsWith('0101')
      ? range.from.slice(0, 4)
      : range.from.endsWith('01')
        ? range.from.slice(0, 6)
        : range.from;
  const condition: Record<string, unknown> = { $gte: lower, $lt: range.to ? `${range.to}:` : ':' };
  if (range.to) {
    const next = dayAfter(range.to);
    const partial = [
      ...(next.slice(0, 4) === range.to.slice(0, 4) ? [range.to.slice(0, 4)] : []),
      ...(next.slice(0, 6) === range.to.slice(0, 6) ? [range.to.slice(0, 6)] : []),
    ];
    // Not $nin (the embedded store's SQL has none): one exclusion per partial value.
    if (partial.length) return { $gte: lower, $lt: `${range.to}:`, $not: { $in: partial } };
  }
  return condition;
}

/** One reaction (not one bound per reaction) with its start date in the range. */
export function onsetClause(range: { from?: string; to?: string }): Filter {
  const [array, field] = filterById.get('onset')!.path.split('.') as [string, string];
  return { [array]: { $elemMatch: { [field]: onsetCondition(range) } } };
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
