/**
 * The event-level tree (/pooledanalysis/eventLevel): cases down the MedDRA hierarchy SOC -> HLGT ->
 * HLT -> PT -> LLT. Each reaction's stored PT code is placed on its primary path in the MedDRA
 * release most of the counted reactions were coded with, its LLT (E.i.2.1b) below the PT; each
 * level is one grouped count in the store whose keys are the PT codes mapped to that level
 * (GroupDimension.map), so a case counts once per node however many of its reactions fall under
 * it. A PT the release does not know counts under null (shown as unknown) at every level above it.
 *
 * Two answers, so the page shows the tree before the slower figures: the counts (cases, serious,
 * not serious, links: runEventCounts) and the details (events by outcome, time to onset, the
 * suspect products: runEventDetails), matched by each node's codes; runEventTree gives both in one
 * tree (the export).
 */
import { codelists } from '@pv/engine';
import type { MeddraDictionary } from '@pv/engine';
import { C as caseCollections } from '../cases';
import { callerInLanguage } from '../http';
import type { Caller } from '../http';
import type { Collection, Filter, GroupDimension, GroupScalar, Store } from '../store';
import { dimensionById } from './declarations';
import { meddraName, releaseOf } from './meddra';
import { lltLink, ptLink, queryLink, suspectLink } from './drill';
import { NO_ONSET, OnsetTally, pairInterval, reportedIntervalDimensions } from './onset';
import type { OnsetFigures } from './onset';
import type { CaseListLink } from './drill';
import { BLINDED_VALUE, countScope, groupDimension, PERMISSIONS } from './service';
import type { AnalyticsQuery } from './service';

export const TREE_LEVELS = ['soc', 'hlgt', 'hlt', 'pt', 'llt'] as const;
export type TreeLevel = (typeof TREE_LEVELS)[number];

/** A node of the counts: its cases. */
export interface CountNode {
  level: TreeLevel;
  /** The MedDRA code; null: the PT is not in the release (or no PT, or no LLT, at all). */
  code: string | null;
  name: string | null;
  /** The name in Chinese and English (the bilingual display shows both; one language imported: that one in both). */
  names: { zh: string | null; en: string | null };
  /** Cases with a reaction under the node (each once). */
  count: number;
  /** Of those, cases the case seriousness (state.isSae) calls serious, and not serious (the rest: not assessed). */
  serious: number;
  notSerious: number;
  children: CountNode[];
  /** The case list query of this node's cases: any reaction with one of its PTs (drill.ts). */
  cases?: CaseListLink;
}

/** A node's events and time to onset. */
export interface NodeDetails {
  /** Events under the node: a case's reactions, those with the same PT, LLT and outcome once. */
  events: number;
  /** The events by outcome (E.i.7 code; null: not reported), largest first. */
  outcomes: { code: string | null; count: number }[];
  /** Time to onset of the suspect drug-event pairs under the node (onset.ts). */
  onset: OnsetFigures;
}

export interface TreeNode extends Omit<CountNode, 'children'>, NodeDetails {
  children: TreeNode[];
}

interface Common {
  /** The MedDRA release the PTs were placed with (null: none of the counted versions is imported). */
  meddraVersion: string | null;
  blinded: boolean;
  /** The suspect product the tree is for (null: all cases). */
  suspect: string | null;
}

export interface EventCountsAnswer extends Common {
  /** Cases with at least one reaction coded to a PT (each once). */
  total: number;
  nodes: CountNode[];
}

export interface EventDetailsAnswer extends Common {
  /** The suspect products (G.k.2.2, roles 1 and 3) of the counted cases, most cases first; a blinded reader's study drugs left out. */
  products: { name: string; count: number }[];
  /** E.i.7 codes with their label in the caller's language. */
  outcomeLabels: Record<string, string>;
  /** Each node's details by its codes from the SOC down (as the counts' nodes nest). */
  nodes: ({ codes: (string | null)[] } & NodeDetails)[];
}

export interface EventTreeAnswer extends Common {
  total: number;
  products: EventDetailsAnswer['products'];
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

const reaction = (name: string, path = PT_PATH, map?: Record<string, string>): GroupDimension => ({
  name,
  each: 'reactions',
  path,
  ...(map ? { map } : {}),
});
const SAE: GroupDimension = { name: 'sae', path: 'state.isSae' };
const CODED = [{ each: 'reactions', path: PT_PATH, present: true as const }];

/** What every count of a request shares: the caller's scope, the filter with the product, the release. */
interface Counting {
  suspect: string | null;
  blinded: boolean;
  /** The list filters of the query's age groups (queryLink). */
  ages: Record<string, unknown>[] | null | undefined;
  scopeFilter: Filter;
  filter: Filter;
  cases: Collection;
  release: Promise<{ version: string; dictionary: MeddraDictionary } | null>;
}

async function counting(caller: Caller, store: Store, query: EventTreeQuery): Promise<Counting | null> {
  const scope = await countScope(caller, PERMISSIONS.eventLevel, query);
  if (!scope) return null;
  const suspect = query.suspect ?? null;
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
  const versions = cases.groupCount({
    filter,
    by: [{ name: 'version', each: 'reactions', path: 'meddraVersion' }],
    where: CODED,
  });
  return {
    suspect,
    blinded: scope.blinded,
    ages: scope.ages,
    scopeFilter: scope.filter,
    filter,
    cases,
    release: versions.then((groups) => releaseOf(caller, store, groups)),
  };
}

/** The primary path above each PT: [SOC, HLGT, HLT] codes ([null, null, null] where the release lacks the PT). */
function pathsAbove(
  release: { dictionary: MeddraDictionary } | null,
  pts: Iterable<GroupScalar>,
): (pt: GroupScalar) => (string | null)[] {
  const pathOf = new Map<string, (string | null)[]>();
  for (const pt of pts) {
    if (typeof pt !== 'string' || pathOf.has(pt)) continue;
    const path = release?.dictionary.paths(pt)[0];
    pathOf.set(pt, path ? [path.socCode, path.hlgtCode, path.hltCode] : [null, null, null]);
  }
  return (pt) => pathOf.get(typeof pt === 'string' ? pt : '') ?? [null, null, null];
}

function emptyCommon(query: EventTreeQuery): Common {
  return { meddraVersion: null, blinded: true, suspect: query.suspect ?? null };
}

/** The tree's counts: cases, serious and not serious per node, each count's case list link. */
export async function runEventCounts(
  caller: Caller,
  store: Store,
  query: EventTreeQuery,
): Promise<EventCountsAnswer> {
  const c = await counting(caller, store, query);
  if (!c) return { ...emptyCommon(query), total: 0, nodes: [] };
  const { cases, filter } = c;
  const [release, ptLevel, lltLevel, total] = await Promise.all([
    c.release,
    cases.groupCount({ filter, by: [reaction('pt'), SAE] }),
    cases.groupCount({ filter, by: [reaction('pt'), reaction('llt', LLT_PATH), SAE] }),
    cases.groupCount({ filter, by: [{ name: 'v', path: 'state.validity' }], where: CODED }),
  ]);
  const above = pathsAbove(
    release,
    ptLevel.map((g) => g.key.pt ?? null),
  );
  // SOC, HLGT and HLT: one count each, keyed by the node's codes from the SOC down joined in one
  // text (PT -> that text, GroupDimension.map), so a case counts once per node.
  const upper = await Promise.all(
    [1, 2, 3].map((depth) => {
      const map: Record<string, string> = {};
      for (const g of ptLevel) {
        const pt = g.key.pt;
        const codes = above(pt ?? null);
        if (typeof pt === 'string' && codes[0] !== null) map[pt] = codes.slice(0, depth).join('/');
      }
      return cases.groupCount({ filter, by: [reaction('node', PT_PATH, map), SAE] });
    }),
  );
  const name = (level: TreeLevel, code: string | null) => meddraName(release, level, code);
  // The same release in the other language, for the bilingual display (cached once loaded).
  const other = release
    ? await releaseOf(callerInLanguage(caller, caller.lang === 'zh' ? 'en' : 'zh'), store, [
        { key: { version: release.version }, count: 1 },
      ])
    : null;
  const names = (level: TreeLevel, code: string | null) => {
    const mine = name(level, code);
    const theirs = meddraName(other, level, code) ?? mine;
    return caller.lang === 'zh' ? { zh: mine, en: theirs } : { zh: theirs, en: mine };
  };
  const roots: CountNode[] = [];
  const byPath = new Map<string, CountNode>();
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
        names: names(level, code),
        count: 0,
        serious: 0,
        notSerious: 0,
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
  for (const g of ptLevel) place([...above(g.key.pt ?? null), str(g.key.pt)], g.key.sae ?? null, g.count);
  for (const g of lltLevel)
    place([...above(g.key.pt ?? null), str(g.key.pt), str(g.key.llt)], g.key.sae ?? null, g.count);
  sortNodes(roots);
  const listed = queryLink(query, c.blinded, c.ages);
  link(roots, c.suspect === null ? listed : suspectLink(listed, c.suspect, c.blinded));
  return {
    meddraVersion: release?.version ?? null,
    blinded: c.blinded,
    suspect: c.suspect,
    total: total.reduce((sum, g) => sum + g.count, 0),
    nodes: roots,
  };
}

/** The tree's details: each node's events by outcome and time to onset, and the suspect products. */
export async function runEventDetails(
  caller: Caller,
  store: Store,
  query: EventTreeQuery,
): Promise<EventDetailsAnswer> {
  const outcomeLabels = Object.fromEntries(
    (codelists.outcome?.values ?? []).map((v) => [v.code, caller.lang === 'zh' ? v.zh : v.en]),
  );
  const c = await counting(caller, store, query);
  if (!c) return { ...emptyCommon(query), products: [], outcomeLabels, nodes: [] };
  const { cases, filter } = c;
  const product = groupDimension(dimensionById.get('product')!, c.blinded);
  const suspectRoles = dimensionById.get('product')!.where!.map((w) => ({ each: 'drugs', ...w }));
  const [release, outcomes, onsets, products] = await Promise.all([
    c.release,
    cases.groupCount({
      filter,
      by: [reaction('pt'), reaction('llt', LLT_PATH), reaction('outcome', 'reactionResult')],
    }),
    // Time to onset: each suspect drug's first dose (G.k.4.r.4) with each reaction's start (E.i.4),
    // and the interval reported for the pair (G.k.9.i.3.1) for when the dates give none.
    cases.groupCount({
      filter,
      by: [
        reaction('pt'),
        reaction('llt', LLT_PATH),
        { name: 'start', each: 'reactions', path: 'startDate', prefix: 8 },
        { name: 'dose', each: 'drugs', least: 'dosages', path: 'startDate', prefix: 8 },
        ...reportedIntervalDimensions({ value: 'interval', unit: 'unit' }),
      ],
      where: [
        ...suspectRoles,
        ...(c.suspect === null ? [] : [{ each: 'drugs', path: 'drugName', in: [c.suspect] }]),
      ],
    }),
    // The choices of product: over all counted cases, whichever product is chosen.
    cases.groupCount({
      filter: c.scopeFilter,
      by: [product],
      where: [...suspectRoles, { each: 'drugs', path: 'drugName', present: true as const }],
    }),
  ]);
  const above = pathsAbove(release, [
    ...outcomes.map((g) => g.key.pt ?? null),
    ...onsets.map((g) => g.key.pt ?? null),
  ]);
  const codesOf = (g: { key: Record<string, GroupScalar> }) => [
    ...above(g.key.pt ?? null),
    str(g.key.pt),
    str(g.key.llt),
  ];
  const nodes = new Map<string, DetailTally>();
  // Each group's figures added to every node on its path.
  const along = (codes: (string | null)[], add: (node: DetailTally) => void) => {
    for (let depth = 1; depth <= codes.length; depth++) {
      const id = JSON.stringify(codes.slice(0, depth));
      let node = nodes.get(id);
      if (!node) {
        node = { codes: codes.slice(0, depth), outcomes: new Map(), onset: new OnsetTally(), events: 0 };
        nodes.set(id, node);
      }
      add(node);
    }
  };
  for (const g of outcomes)
    along(codesOf(g), (node) => {
      node.events += g.count;
      const outcome = str(g.key.outcome);
      node.outcomes.set(outcome, (node.outcomes.get(outcome) ?? 0) + g.count);
    });
  for (const g of onsets) {
    const { days, reported } = pairInterval(
      str(g.key.dose),
      str(g.key.start),
      g.key.interval ?? null,
      g.key.unit ?? null,
    );
    along(codesOf(g), (node) => node.onset.add(days, g.count, reported));
  }
  return {
    meddraVersion: release?.version ?? null,
    blinded: c.blinded,
    suspect: c.suspect,
    products: products
      .filter((g) => typeof g.key[product.name] === 'string' && g.key[product.name] !== BLINDED_VALUE)
      .map((g) => ({ name: String(g.key[product.name]), count: g.count })),
    outcomeLabels,
    nodes: [...nodes.values()].map((node) => ({
      codes: node.codes,
      events: node.events,
      outcomes: [...node.outcomes]
        .map(([code, count]) => ({ code, count }))
        .sort((a, b) => b.count - a.count || String(a.code).localeCompare(String(b.code))),
      onset: node.onset.figures(),
    })),
  };
}

/** A node's details as they are added up. */
interface DetailTally {
  codes: (string | null)[];
  events: number;
  outcomes: Map<string | null, number>;
  onset: OnsetTally;
}

/** Counts and details in one tree (the export reads every figure of every node). */
export async function runEventTree(
  caller: Caller,
  store: Store,
  query: EventTreeQuery,
): Promise<EventTreeAnswer> {
  const [counts, details] = await Promise.all([
    runEventCounts(caller, store, query),
    runEventDetails(caller, store, query),
  ]);
  return mergeEventTree(counts, details);
}

/** The counts' tree with each node's details (matched by its codes from the SOC down). */
export function mergeEventTree(counts: EventCountsAnswer, details: EventDetailsAnswer): EventTreeAnswer {
  const byCodes = new Map(details.nodes.map((d) => [JSON.stringify(d.codes), d]));
  const merge = (nodes: CountNode[], above: (string | null)[]): TreeNode[] =>
    nodes.map((node) => {
      const codes = [...above, node.code];
      const found = byCodes.get(JSON.stringify(codes));
      return {
        ...node,
        events: found?.events ?? 0,
        outcomes: found?.outcomes ?? [],
        onset: found?.onset ?? NO_ONSET,
        children: merge(node.children, codes),
      };
    });
  return {
    ...counts,
    products: details.products,
    outcomeLabels: details.outcomeLabels,
    nodes: merge(counts.nodes, []),
  };
}

/**
 * Each node's case list link: a reaction with one of the PTs below it (an LLT: its PT and LLT). A
 * reaction without a PT cannot be listed by one: no link for the nodes above it.
 */
function link(roots: CountNode[], base: CaseListLink | null): void {
  const visit = (node: CountNode, pt: string | null): string[] | null => {
    if (node.level === 'llt') {
      const cases = pt === null || node.code === null ? null : lltLink(base, pt, node.code);
      if (cases) node.cases = cases;
      return null;
    }
    if (node.level === 'pt') {
      for (const child of node.children) visit(child, node.code);
      if (node.code === null) return null;
      const cases = ptLink(base, [node.code]);
      if (cases) node.cases = cases;
      return [node.code];
    }
    const below = node.children.map((child) => visit(child, null));
    if (below.some((pts) => pts === null)) return null;
    const pts = (below as string[][]).flat();
    const cases = ptLink(base, pts);
    if (cases) node.cases = cases;
    return pts;
  };
  for (const root of roots) visit(root, null);
}

function str(value: GroupScalar | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

/** Most cases first at every level, then by code (unknown last). */
function sortNodes(nodes: CountNode[]): void {
  nodes.sort(
    (a, b) =>
      b.count - a.count ||
      (a.code === null ? 1 : 0) - (b.code === null ? 1 : 0) ||
      String(a.code).localeCompare(String(b.code)),
  );
  for (const node of nodes) sortNodes(node.children);
}
