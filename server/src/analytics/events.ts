/**
 * The event-level tree (/pooledanalysis/eventLevel): cases down the MedDRA hierarchy SOC -> HLGT ->
 * HLT -> PT. Each reaction's stored PT code is placed on its primary path in the MedDRA release
 * most of the counted reactions were coded with; each level is one grouped count in the store whose
 * keys are the PT codes mapped to that level (GroupDimension.map), so a case counts once per node
 * however many of its reactions fall under it. A PT the release does not know counts under null
 * (shown as unknown) at every level above it.
 */
import { codelists } from '@pv/engine';
import type { MeddraDictionary, TermLanguage } from '@pv/engine';
import { C as caseCollections } from '../cases';
import { dictionaryService } from '../dictionaries';
import { AppError } from '../http';
import type { Caller } from '../http';
import type { Filter, GroupDimension, GroupScalar, Store } from '../store';
import { dimensionById } from './declarations';
import { lltLink, ptLink, queryLink } from './drill';
import { NO_ONSET, OnsetTally, onsetDays } from './onset';
import type { OnsetFigures } from './onset';
import type { CaseListLink } from './drill';
import { BLINDED_VALUE, countScope, groupDimension, PERMISSIONS } from './service';
import type { AnalyticsQuery } from './service';

export const TREE_LEVELS = ['soc', 'hlgt', 'hlt', 'pt', 'llt'] as const;
export type TreeLevel = (typeof TREE_LEVELS)[number];

export interface TreeNode {
  level: TreeLevel;
  /** The MedDRA code; null: the PT is not in the release (or no PT, or no LLT, at all). */
  code: string | null;
  name: string | null;
  /** Cases with a reaction under the node (each once). */
  count: number;
  /** Of those, cases the case seriousness (state.isSae) calls serious, and not serious (the rest: not assessed). */
  serious: number;
  notSerious: number;
  /** Events under the node: a case's reactions, those with the same PT, LLT and outcome once. */
  events: number;
  /** The events by outcome (E.i.7 code; null: not reported), largest first. */
  outcomes: { code: string | null; count: number }[];
  /** Time to onset of the suspect drug-event pairs under the node (onset.ts). */
  onset: OnsetFigures;
  children: TreeNode[];
  /** The case list query of this node's cases: any reaction with one of its PTs (drill.ts). */
  cases?: CaseListLink;
}

export interface EventTreeAnswer {
  /** The MedDRA release the PTs were placed with (null: none of the counted versions is imported). */
  meddraVersion: string | null;
  blinded: boolean;
  /** The suspect product the tree is for (null: all cases). */
  suspect: string | null;
  /** Cases with at least one reaction coded to a PT (each once). */
  total: number;
  /** The suspect products (G.k.2.2, roles 1 and 3) of the counted cases, most cases first; a blinded reader's study drugs left out. */
  products: { name: string; count: number }[];
  /** E.i.7 codes with their label in the caller's language. */
  outcomeLabels: Record<string, string>;
  nodes: TreeNode[];
}

/** The event tree's query: the statistics' filters and, optionally, one suspect product. */
export interface EventTreeQuery extends AnalyticsQuery {
  /** G.k.2.2 as stored: only cases where a drug of that name is suspect or interacting (G.k.1 1 or 3). */
  suspect?: string;
}

const PT_PATH = 'meddraPtCode';
/** E.i.2.1b: the LLT the reporter's term was coded to. */
const LLT_PATH = 'meddraCode';
const SUSPECT_ROLES = ['1', '3'];

export async function runEventTree(
  caller: Caller,
  store: Store,
  query: EventTreeQuery,
): Promise<EventTreeAnswer> {
  const suspect = query.suspect ?? null;
  const outcomeLabels = Object.fromEntries(
    (codelists.outcome?.values ?? []).map((v) => [v.code, caller.lang === 'zh' ? v.zh : v.en]),
  );
  const scope = await countScope(caller, PERMISSIONS.eventLevel, query);
  if (!scope)
    return { meddraVersion: null, blinded: true, suspect, total: 0, products: [], outcomeLabels, nodes: [] };
  const cases = caller.tenant.collection(caseCollections.cases);
  // Per product: the cases where the product is a suspect (or interacting) drug; a blinded reader's
  // choice matches only drugs the blinding does not hide, as the product filter does.
  const filter: Filter =
    suspect === null
      ? scope.filter
      : {
          $and: [
            scope.filter,
            {
              drugs: {
                $elemMatch: {
                  drugName: suspect,
                  drugCharacterisation: { $in: SUSPECT_ROLES },
                  ...(scope.blinded ? { isClinicalDrug: { $ne: true }, isBlind: { $ne: true } } : {}),
                },
              },
            },
          ],
        };
  const reaction = (name: string, path = PT_PATH, map?: Record<string, string>): GroupDimension => ({
    name,
    each: 'reactions',
    path,
    ...(map ? { map } : {}),
  });
  const sae: GroupDimension = { name: 'sae', path: 'state.isSae' };
  const coded = [{ each: 'reactions', path: PT_PATH, present: true as const }];
  const product = groupDimension(dimensionById.get('product')!, scope.blinded);
  const [versions, ptLevel, lltLevel, outcomes, total, products, onsets] = await Promise.all([
    cases.groupCount({
      filter,
      by: [{ name: 'version', each: 'reactions', path: 'meddraVersion' }],
      where: coded,
    }),
    cases.groupCount({ filter, by: [reaction('pt'), sae] }),
    cases.groupCount({ filter, by: [reaction('pt'), reaction('llt', LLT_PATH), sae] }),
    cases.groupCount({
      filter,
      by: [reaction('pt'), reaction('llt', LLT_PATH), reaction('outcome', 'reactionResult')],
    }),
    cases.groupCount({ filter, by: [{ name: 'v', path: 'state.validity' }], where: coded }),
    // The choices of product: over all counted cases, whichever product is chosen.
    cases.groupCount({
      filter: scope.filter,
      by: [product],
      where: [
        ...dimensionById.get('product')!.where!.map((w) => ({ each: 'drugs', ...w })),
        { each: 'drugs', path: 'drugName', present: true as const },
      ],
    }),
    // Time to onset: each suspect drug's first dose (G.k.4.r.4) with each reaction's start (E.i.4).
    cases.groupCount({
      filter,
      by: [
        reaction('pt'),
        reaction('llt', LLT_PATH),
        { name: 'start', each: 'reactions', path: 'startDate', prefix: 8 },
        { name: 'dose', each: 'drugs', least: 'dosages', path: 'startDate', prefix: 8 },
      ],
      where: [
        ...dimensionById.get('product')!.where!.map((w) => ({ each: 'drugs', ...w })),
        ...(suspect === null ? [] : [{ each: 'drugs', path: 'drugName', in: [suspect] }]),
      ],
    }),
  ]);
  const dictionary = await releaseOf(caller, store, versions);
  // The primary path above each PT: [SOC, HLGT, HLT] codes (null where the release lacks the PT).
  const pathOf = new Map<string | null, (string | null)[]>();
  for (const g of ptLevel) {
    const pt = g.key.pt;
    if (typeof pt !== 'string' || pathOf.has(pt)) continue;
    const path = dictionary?.dictionary.paths(pt)[0];
    pathOf.set(pt, path ? [path.socCode, path.hlgtCode, path.hltCode] : [null, null, null]);
  }
  const above = (pt: GroupScalar): (string | null)[] =>
    pathOf.get(typeof pt === 'string' ? pt : null) ?? [null, null, null];
  // SOC, HLGT and HLT: one count each, keyed by the node's codes from the SOC down joined in one
  // text (PT -> that text, GroupDimension.map), so a case counts once per node.
  const joined = (codes: (string | null)[]) => codes.join('/');
  const upper = await Promise.all(
    [1, 2, 3].map((depth) => {
      const map: Record<string, string> = {};
      for (const [pt, codes] of pathOf)
        if (pt !== null && codes[0] !== null) map[pt] = joined(codes.slice(0, depth));
      return cases.groupCount({ filter, by: [reaction('node', PT_PATH, map), sae] });
    }),
  );
  const name = (level: TreeLevel, code: string | null) =>
    code === null ? null : (dictionary?.dictionary.term(level, code)?.name ?? null);
  const roots: TreeNode[] = [];
  const byPath = new Map<string, TreeNode>();
  const place = (codes: (string | null)[], isSae: GroupScalar, count: number) => {
    const id = JSON.stringify(codes);
    let node = byPath.get(id);
    if (!node) {
      const level = TREE_LEVELS[codes.length - 1]!;
      const code = codes[codes.length - 1]!;
      node = {
        level,
        code,
        name: name(level, code),
        count: 0,
        serious: 0,
        notSerious: 0,
        events: 0,
        outcomes: [],
        onset: NO_ONSET,
        children: [],
      };
      byPath.set(id, node);
      if (codes.length === 1) roots.push(node);
      else byPath.get(JSON.stringify(codes.slice(0, -1)))?.children.push(node);
    }
    // Each case has one seriousness: the groups of a node sum to its count.
    node.count += count;
    if (isSae === true) node.serious += count;
    if (isSae === false) node.notSerious += count;
  };
  upper.forEach((groups, i) => {
    for (const g of groups) {
      const key = g.key.node;
      // A PT outside the release counts under null at every level above it.
      const codes = typeof key === 'string' ? key.split('/') : Array<null>(i + 1).fill(null);
      place(codes, g.key.sae ?? null, g.count);
    }
  });
  for (const g of ptLevel) place([...above(g.key.pt), str(g.key.pt)], g.key.sae ?? null, g.count);
  for (const g of lltLevel)
    place([...above(g.key.pt), str(g.key.pt), str(g.key.llt)], g.key.sae ?? null, g.count);
  // Outcomes: events summed up the path of each (PT, LLT) pair.
  const tally = new Map<TreeNode, Map<string | null, number>>();
  for (const g of outcomes) {
    const codes = [...above(g.key.pt), str(g.key.pt), str(g.key.llt)];
    for (let depth = 1; depth <= codes.length; depth++) {
      const node = byPath.get(JSON.stringify(codes.slice(0, depth)));
      if (!node) continue;
      node.events += g.count;
      const byOutcome = tally.get(node) ?? new Map<string | null, number>();
      const outcome = str(g.key.outcome);
      byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + g.count);
      tally.set(node, byOutcome);
    }
  }
  // Time to onset: each (PT, LLT, start, first dose) group's interval added up its path.
  const intervals = new Map<TreeNode, OnsetTally>();
  for (const g of onsets) {
    const codes = [...above(g.key.pt), str(g.key.pt), str(g.key.llt)];
    const days = onsetDays(str(g.key.dose), str(g.key.start));
    for (let depth = 1; depth <= codes.length; depth++) {
      const node = byPath.get(JSON.stringify(codes.slice(0, depth)));
      if (!node) continue;
      const found = intervals.get(node) ?? new OnsetTally();
      found.add(days, g.count);
      intervals.set(node, found);
    }
  }
  for (const [node, found] of intervals) node.onset = found.figures();
  for (const [node, byOutcome] of tally)
    node.outcomes = [...byOutcome]
      .map(([code, count]) => ({ code, count }))
      .sort((a, b) => b.count - a.count || String(a.code).localeCompare(String(b.code)));
  sortNodes(roots);
  // A node's cases are those with a reaction coded to one of the PTs below it (an LLT: that PT and LLT).
  const base = suspect === null ? queryLink(query) : null;
  // A reaction without a PT cannot be listed by one: no link for the nodes above it (null).
  const link = (node: TreeNode, pt: string | null): string[] | null => {
    if (node.level === 'llt') {
      const cases = pt === null || node.code === null ? null : lltLink(base, pt, node.code);
      if (cases) node.cases = cases;
      return null;
    }
    if (node.level === 'pt') {
      for (const child of node.children) link(child, node.code);
      if (node.code === null) return null;
      const cases = ptLink(base, [node.code]);
      if (cases) node.cases = cases;
      return [node.code];
    }
    const below = node.children.map((child) => link(child, null));
    if (below.some((pts) => pts === null)) return null;
    const pts = (below as string[][]).flat();
    const cases = ptLink(base, pts);
    if (cases) node.cases = cases;
    return pts;
  };
  roots.forEach((node) => link(node, null));
  return {
    meddraVersion: dictionary?.version ?? null,
    blinded: scope.blinded,
    suspect,
    total: total.reduce((sum, g) => sum + g.count, 0),
    products: products
      .filter((g) => typeof g.key[product.name] === 'string' && g.key[product.name] !== BLINDED_VALUE)
      .map((g) => ({ name: String(g.key[product.name]), count: g.count })),
    outcomeLabels,
    nodes: roots,
  };
}

function str(value: GroupScalar | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

/** Most cases first at every level, then by code (unknown last). */
function sortNodes(nodes: TreeNode[]): void {
  nodes.sort(
    (a, b) =>
      b.count - a.count ||
      (a.code === null ? 1 : 0) - (b.code === null ? 1 : 0) ||
      String(a.code).localeCompare(String(b.code)),
  );
  for (const node of nodes) sortNodes(node.children);
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
