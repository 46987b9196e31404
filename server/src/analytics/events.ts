/**
 * The event-level tree (/pooledanalysis/eventLevel): cases down the MedDRA hierarchy SOC -> HLGT ->
 * HLT -> PT. Each reaction's stored PT code is placed on its primary path in the MedDRA release
 * most of the counted reactions were coded with; each level is one grouped count in the store whose
 * keys are the PT codes mapped to that level (GroupDimension.map), so a case counts once per node
 * however many of its reactions fall under it. A PT the release does not know counts under null
 * (shown as unknown) at every level above it.
 */
import type { MeddraDictionary, TermLanguage } from '@pv/engine';
import { C as caseCollections } from '../cases';
import { dictionaryService } from '../dictionaries';
import { AppError } from '../http';
import type { Caller } from '../http';
import type { GroupDimension, Store } from '../store';
import { ptLink, queryLink } from './drill';
import type { CaseListLink } from './drill';
import { countScope, PERMISSIONS } from './service';
import type { AnalyticsQuery } from './service';

export const TREE_LEVELS = ['soc', 'hlgt', 'hlt', 'pt'] as const;
export type TreeLevel = (typeof TREE_LEVELS)[number];

export interface TreeNode {
  level: TreeLevel;
  /** The MedDRA code; null: the PT is not in the release (or no PT at all). */
  code: string | null;
  name: string | null;
  count: number;
  children: TreeNode[];
  /** The case list query of this node's cases: any reaction with one of its PTs (drill.ts). */
  cases?: CaseListLink;
}

export interface EventTreeAnswer {
  /** The MedDRA release the PTs were placed with (null: none of the counted versions is imported). */
  meddraVersion: string | null;
  blinded: boolean;
  /** Cases with at least one reaction coded to a PT (each once). */
  total: number;
  nodes: TreeNode[];
}

const PT_PATH = 'meddraPtCode';

export async function runEventTree(
  caller: Caller,
  store: Store,
  query: AnalyticsQuery,
): Promise<EventTreeAnswer> {
  const scope = await countScope(caller, PERMISSIONS.eventLevel, query);
  if (!scope) return { meddraVersion: null, blinded: true, total: 0, nodes: [] };
  const cases = caller.tenant.collection(caseCollections.cases);
  const reaction = (name: string, map?: Record<string, string>): GroupDimension => ({
    name,
    each: 'reactions',
    path: PT_PATH,
    ...(map ? { map } : {}),
  });
  const [pts, versions] = await Promise.all([
    cases.groupCount({ filter: scope.filter, by: [reaction('pt')] }),
    cases.groupCount({
      filter: scope.filter,
      by: [{ name: 'version', each: 'reactions', path: 'meddraVersion' }],
      where: [{ each: 'reactions', path: PT_PATH, present: true }],
    }),
  ]);
  const dictionary = await releaseOf(caller, store, versions);
  const maps: Record<Exclude<TreeLevel, 'pt'>, Record<string, string>> = { soc: {}, hlgt: {}, hlt: {} };
  for (const g of pts) {
    const pt = g.key.pt;
    const path = typeof pt === 'string' ? dictionary?.dictionary.paths(pt)[0] : undefined;
    if (!path || typeof pt !== 'string') continue;
    maps.soc[pt] = path.socCode;
    maps.hlgt[pt] = path.hlgtCode;
    maps.hlt[pt] = path.hltCode;
  }
  // Level i groups by the first i + 1 levels, so each node's count is over its own cases.
  const dimensions = TREE_LEVELS.map((level) => reaction(level, level === 'pt' ? undefined : maps[level]));
  const [total, ...levels] = await Promise.all([
    cases.groupCount({
      filter: scope.filter,
      by: [{ name: 'v', path: 'state.validity' }],
      where: [{ each: 'reactions', path: PT_PATH, present: true }],
    }),
    ...TREE_LEVELS.map((_, i) => cases.groupCount({ filter: scope.filter, by: dimensions.slice(0, i + 1) })),
  ]);
  const name = (level: TreeLevel, code: string | null) =>
    code === null ? null : (dictionary?.dictionary.term(level, code)?.name ?? null);
  const roots: TreeNode[] = [];
  const byPath = new Map<string, TreeNode>();
  levels.forEach((groups, depth) => {
    for (const g of groups!) {
      const codes = TREE_LEVELS.slice(0, depth + 1).map((l) => g.key[l] ?? null) as (string | null)[];
      const level = TREE_LEVELS[depth]!;
      const node: TreeNode = {
        level,
        code: codes[depth]!,
        name: name(level, codes[depth]!),
        count: g.count,
        children: [],
      };
      byPath.set(JSON.stringify(codes), node);
      if (depth === 0) roots.push(node);
      else byPath.get(JSON.stringify(codes.slice(0, depth)))?.children.push(node);
    }
  });
  // A node's cases are those with a reaction coded to one of the PTs below it.
  const base = queryLink(query);
  // A reaction without a PT cannot be listed by one: no link for the nodes above it (null).
  const link = (node: TreeNode): string[] | null => {
    const below = node.level === 'pt' ? [node.code === null ? null : [node.code]] : node.children.map(link);
    if (below.some((pts) => pts === null)) return null;
    const pts = (below as string[][]).flat();
    const cases = ptLink(base, pts);
    if (cases) node.cases = cases;
    return pts;
  };
  roots.forEach(link);
  return {
    meddraVersion: dictionary?.version ?? null,
    blinded: scope.blinded,
    total: total!.reduce((sum, g) => sum + g.count, 0),
    nodes: roots,
  };
}

/** The imported release of the version most counted reactions carry, in the caller's language if imported in it. */
async function releaseOf(
  caller: Caller,
  store: Store,
  versions: { key: Record<string, unknown>; count: number }[],
): Promise<{ version: string; dictionary: MeddraDictionary } | null> {
  const service = dictionaryService(store);
  const language: TermLanguage = caller.lang === 'zh' ? 'zh' : 'en';
  for (const g of versions) {
    const version = g.key.version;
    if (typeof version !== 'string') continue;
    try {
      const doc = await service.resolve(caller.tenant, 'meddra', { version }, language);
      return { version, dictionary: await service.meddra(caller.tenant, doc) };
    } catch (error) {
      // Not imported in this tenant (a translated 400): the next most used version.
      if (!(error instanceof AppError)) throw error;
    }
  }
  return null;
}
