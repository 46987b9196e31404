/**
 * Age groups by each project's age-stratification rule (SPEC 3; schemas/entities/project.json
 * `ageGroups`, edited on the project form): the `stratify` dimension of schemas/analytics. The
 * store counts cases by age at onset and its unit (D.2.2a/b), one grouped count per distinct rule
 * over the projects that have it, and by the fallback (D.2.3 as reported) over the cases of every
 * other project; the ages are placed in the rule's bands here. Exact: the project sets are
 * disjoint and a case has one age, one unit and one D.2.3 value.
 *
 * Cases of projects with different rules: a band is keyed by its range in years (`18-65`, `65-`
 * for no upper bound), so equal ranges of several projects are one row (named as the first project
 * names it) and different ranges are rows of their own; D.2.3 groups are keyed `D.2.3:<code>`.
 */
import { codelists } from '@pv/engine';
import { findProject } from '../cases';
import type { Filter, GroupCount, GroupDimension, GroupCountSpec, GroupScalar, Handle } from '../store';
import { dimensionById } from './declarations';
import type { DimensionDeclaration, Labels } from './declarations';
import { MAX_LIST_VALUES } from './drill';
import type { StratumPlaces } from './drill';

export interface AgeBand {
  nameZh: string;
  nameEn: string;
  fromYears: number;
  toYears?: number;
}

const PROJECT = 'report.studyProjectId';
const AGE = 'stratumAge';
const UNIT = 'stratumUnit';

/** The band of an age in years (null: none holds it). */
function bandOf(rule: AgeBand[], years: number): AgeBand | null {
  return rule.find((b) => years >= b.fromYears && (b.toYears === undefined || years < b.toYears)) ?? null;
}

export const bandKey = (band: AgeBand): string => `${band.fromYears}-${band.toYears ?? ''}`;

/** Projects grouped by their age-stratification rule (equal bands: one group). */
export interface RuledProjects {
  rule: AgeBand[];
  projects: string[];
}

/**
 * The counted projects (null: cases without a project) by their rule: those declaring one grouped
 * by equal bands, the rest (and null) without a rule.
 */
export async function projectsByRule(
  handle: Handle,
  ids: (string | null)[],
): Promise<{ ruled: RuledProjects[]; unruled: (string | null)[] }> {
  const ruled = new Map<string, RuledProjects>();
  const unruled: (string | null)[] = [];
  for (const id of ids) {
    const rule = id
      ? (((await findProject(handle, id)) as { ageGroups?: AgeBand[] } | null)?.ageGroups ?? [])
      : [];
    if (!id || !rule.length) {
      unruled.push(id);
      continue;
    }
    const key = JSON.stringify(rule.map(bandKey));
    const entry = ruled.get(key) ?? { rule, projects: [] };
    entry.projects.push(id);
    ruled.set(key, entry);
  }
  return { ruled: [...ruled.values()], unruled };
}

/** A D.2.3 group's labels, said as the reporter's age group, not a band of a rule. */
export function d23Labels(code: string): Labels {
  const fallback = [...dimensionById.values()].find((d) => d.stratify)!.stratify!.fallback;
  const list = dimensionById.get(fallback)?.codelist;
  const found = list ? codelists[list]?.values.find((v) => v.code === code) : undefined;
  const name = found ?? { zh: code, en: code };
  return { zh: `${name.zh}（D.2.3）`, en: `${name.en} (D.2.3)` };
}

/**
 * The groups of a count whose dimensions include a stratify one, under the count's filter and
 * element conditions: the stratum's key per group, with its labels (bands' names, D.2.3 codes').
 */
export async function stratifiedGroups(
  handle: Handle,
  stratum: DimensionDeclaration,
  others: GroupDimension[],
  filter: Filter,
  where: NonNullable<GroupCountSpec['where']>,
): Promise<{ groups: GroupCount[]; labels: Map<string, Labels>; places: StratumPlaces }> {
  const declared = stratum.stratify!;
  const cases = handle.collection('cases');
  const counted = await cases.groupCount({ filter, by: [{ name: 'p', path: PROJECT }] });
  const byRule = await projectsByRule(
    handle,
    counted.map(({ key }) => (typeof key.p === 'string' ? key.p : null)),
  );
  // Cases of projects without a rule (or of none) count by the fallback, named exactly (SQL).
  const unruledIds = byRule.unruled.filter((id): id is string => id !== null);
  const noProject = byRule.unruled.includes(null);
  const labels = new Map<string, Labels>();
  const merged = new Map<string, GroupCount>();
  const add = (value: GroupScalar, g: GroupCount) => {
    const key = { ...g.key, [stratum.id]: value };
    delete key[AGE];
    delete key[UNIT];
    const id = JSON.stringify([value, ...others.map((o) => key[o.name] ?? null)]);
    const found = merged.get(id);
    if (found) found.count += g.count;
    else merged.set(id, { key, count: g.count });
  };
  const where_ = where.length ? { where } : {};
  for (const { rule, projects } of byRule.ruled) {
    const groups = await cases.groupCount({
      filter: { $and: [filter, { [PROJECT]: { $in: projects } }] },
      by: [{ name: AGE, path: stratum.path }, { name: UNIT, path: declared.unit }, ...others],
      ...where_,
    });
    for (const g of groups) {
      const ratio = typeof g.key[UNIT] === 'string' ? declared.years[g.key[UNIT]] : undefined;
      const age = g.key[AGE];
      const band = typeof age === 'number' && ratio ? bandOf(rule, (age * ratio[0]) / ratio[1]) : null;
      if (band && !labels.has(bandKey(band))) labels.set(bandKey(band), { zh: band.nameZh, en: band.nameEn });
      add(band ? bandKey(band) : null, g);
    }
  }
  const fallback = dimensionById.get(declared.fallback)!;
  const unruled: Filter[] = [
    ...(unruledIds.length ? [{ [PROJECT]: { $in: unruledIds } }] : []),
    ...(noProject ? [{ [PROJECT]: null }] : []),
  ];
  const groups = unruled.length
    ? await cases.groupCount({
        filter: { $and: [filter, unruled.length === 1 ? unruled[0]! : { $or: unruled }] },
        by: [{ name: AGE, path: fallback.path }, ...others],
        ...where_,
      })
    : [];
  for (const g of groups) {
    const code = g.key[AGE];
    if (code === null || code === undefined) {
      add(null, g);
      continue;
    }
    const key = `D.2.3:${String(code)}`;
    if (!labels.has(key)) labels.set(key, d23Labels(String(code)));
    add(key, g);
  }
  return {
    groups: [...merged.values()].sort((a, b) => b.count - a.count),
    labels,
    places: stratumPlaces(
      byRule,
      declared.caseList,
      fallback.caseList?.filter,
      groups.flatMap((g) => (g.key[AGE] === null || g.key[AGE] === undefined ? [] : [String(g.key[AGE])])),
    ),
  };
}

/**
 * The case list filters of each key (drill.ts): a band over the counted projects whose rule has it
 * and the age in years (the stratum's `caseList` filter, kept in the summary by the same ratios), a D.2.3
 * group over the counted projects without a rule (null: cases without a project) and the code.
 */
function stratumPlaces(
  byRule: { ruled: RuledProjects[]; unruled: (string | null)[] },
  yearsFilter: string | undefined,
  fallbackFilter: string | undefined,
  codes: string[],
): StratumPlaces {
  const bands = new Map<string, { projects: string[]; band: AgeBand }>();
  for (const { rule, projects } of byRule.ruled)
    for (const band of rule) {
      const found = bands.get(bandKey(band)) ?? { projects: [], band };
      found.projects.push(...projects);
      bands.set(bandKey(band), found);
    }
  const places: StratumPlaces = new Map();
  for (const [key, { projects, band }] of bands)
    if (yearsFilter && projects.length <= MAX_LIST_VALUES)
      places.set(key, {
        project: projects.sort(),
        [yearsFilter]: { from: band.fromYears, ...(band.toYears !== undefined ? { to: band.toYears } : {}) },
      });
  if (fallbackFilter && byRule.unruled.length && byRule.unruled.length <= MAX_LIST_VALUES)
    for (const code of codes)
      places.set(`D.2.3:${code}`, { project: byRule.unruled, [fallbackFilter]: [code] });
  return places;
}
