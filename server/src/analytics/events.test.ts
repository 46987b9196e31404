/**
 * The event-level tree (POST /api/analytics/events) against a brute-force count over random case
 * documents: cases, serious and non-serious cases, events and their outcomes at every node of
 * SOC -> HLGT -> HLT -> PT -> LLT, for all cases and per suspect product; a blinded reader never
 * chooses or sees a study drug; each LLT node's link lists exactly its cases.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createCasesModule } from '../cases';
import { buildSummary, caseRig, demoProject } from '../cases/testing';
import {
  DEMO_MEDDRA_VERSION,
  demoDictionaryFiles,
  demoMeddra,
  dictionariesModule,
  dictionaryService,
} from '../dictionaries';
import { reportCodesModule } from '../report-codes';
import { createUnblindingModule } from '../unblinding';
import { analyticsModule } from './index';
import type { EventTreeAnswer, TreeNode } from './events';

const rig = await caseRig({
  users: [
    { id: 'entry', name: 'Entry' },
    { id: 'blind', name: 'Blind reader', deny: ['activecase:blindBottom'] },
  ],
  modules: [
    createCasesModule(),
    reportCodesModule,
    createUnblindingModule(),
    dictionariesModule,
    analyticsModule,
  ],
});
afterAll(() => rig.close());

const handle = rig.store.tenant('t1', { userId: 'system:test' });
await handle.collection<Record<string, unknown>>('projects').insertOne({ ...demoProject('p3') });

let seed = 2022;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

const meddra = demoMeddra().en;
// Three PTs with several LLTs each (the LLT level has something to split), and a PT the release lacks.
const pts = [...new Set(meddra.llts.filter((l) => l.current && l.code !== l.ptCode).map((l) => l.ptCode))]
  .filter((pt) => meddra.paths.some((p) => p.ptCode === pt))
  .slice(0, 3);
const TERMS = [
  ...meddra.llts
    .filter((l) => pts.includes(l.ptCode))
    .slice(0, 8)
    .map((l) => ({ llt: l.code as string | undefined, pt: l.ptCode })),
  { llt: undefined, pt: pts[0]! },
  { llt: '99999990', pt: '99999999' },
];
const primary = (pt: string) =>
  [...meddra.paths].sort((a, b) => Number(b.primary) - Number(a.primary)).find((p) => p.ptCode === pt);
const PRODUCTS = ['Study drug A', 'Aspirin', 'Metformin'];
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- random test documents

const docs: Doc[] = Array.from({ length: 400 }, (_, i) => {
  const sae = random();
  return {
    _id: `ev-${i}`,
    state: {
      validity: pick(['valid', 'valid', 'valid', 'invalid']),
      ...(sae < 0.4 ? { isSae: true } : sae < 0.85 ? { isSae: false } : {}),
    },
    report: { reportCode: `EV${i}`, studyProjectId: pick(['p1', 'p1', 'p3']), reportType: '2' },
    patient: {},
    drugs: Array.from({ length: Math.floor(random() * 3) }, () => {
      const name = pick(PRODUCTS);
      return {
        drugName: name,
        drugCharacterisation: pick(['1', '2', '3']),
        ...(name === 'Study drug A' ? { isClinicalDrug: true } : {}),
      };
    }),
    reactions: Array.from({ length: Math.floor(random() * 4) }, () => {
      const term = pick(TERMS);
      const outcome = pick(['1', '2', '5', undefined]);
      return {
        meddraVersion: DEMO_MEDDRA_VERSION,
        meddraPtCode: term.pt,
        ...(term.llt ? { meddraCode: term.llt } : {}),
        ...(outcome ? { reactionResult: outcome } : {}),
      };
    }),
  };
});
await handle.collection('cases').insertMany(docs);
await handle
  .collection('caseSummaries')
  .insertMany(docs.map((d) => buildSummary(d._id, d as never, null) as unknown as Record<string, unknown>));
await dictionaryService(rig.store).importMeddra(handle, demoDictionaryFiles().meddra.en);

interface Figures {
  count: number;
  serious: number;
  notSerious: number;
  events: number;
  outcomes: Record<string, number>;
}

/** Every node's figures by hand: each case once per node, each distinct (PT, LLT, outcome) one event. */
function brute(suspect?: string): { total: number; nodes: Map<string, Figures> } {
  const nodes = new Map<string, Figures>();
  let total = 0;
  for (const doc of docs) {
    if (doc.state.validity !== 'valid' || doc.report.studyProjectId !== 'p1') continue;
    if (
      suspect &&
      !doc.drugs.some((d: Doc) => d.drugName === suspect && ['1', '3'].includes(d.drugCharacterisation))
    )
      continue;
    if (doc.reactions.length) total++;
    const cased = new Set<string>();
    const events = new Set<string>();
    for (const r of doc.reactions) {
      const path = primary(r.meddraPtCode);
      const codes = [
        path?.socCode ?? null,
        path?.hlgtCode ?? null,
        path?.hltCode ?? null,
        r.meddraPtCode,
        r.meddraCode ?? null,
      ];
      for (let depth = 1; depth <= 5; depth++) cased.add(JSON.stringify(codes.slice(0, depth)));
      events.add(JSON.stringify([...codes, r.reactionResult ?? null]));
    }
    const at = (key: string) => {
      const found = nodes.get(key);
      if (found) return found;
      const fresh: Figures = { count: 0, serious: 0, notSerious: 0, events: 0, outcomes: {} };
      nodes.set(key, fresh);
      return fresh;
    };
    for (const key of cased) {
      const node = at(key);
      node.count++;
      if (doc.state.isSae === true) node.serious++;
      if (doc.state.isSae === false) node.notSerious++;
    }
    for (const event of events) {
      const codes = JSON.parse(event) as (string | null)[];
      for (let depth = 1; depth <= 5; depth++) {
        const node = at(JSON.stringify(codes.slice(0, depth)));
        node.events++;
        const outcome = String(codes[5]);
        node.outcomes[outcome] = (node.outcomes[outcome] ?? 0) + 1;
      }
    }
  }
  return { total, nodes };
}

function figuresOf(answer: EventTreeAnswer): Map<string, Figures> {
  const got = new Map<string, Figures>();
  const walk = (nodes: TreeNode[], above: (string | null)[]) => {
    for (const node of nodes) {
      const codes = [...above, node.code];
      got.set(JSON.stringify(codes), {
        count: node.count,
        serious: node.serious,
        notSerious: node.notSerious,
        events: node.events,
        outcomes: Object.fromEntries(node.outcomes.map((o) => [String(o.code), o.count])),
      });
      walk(node.children, codes);
    }
  };
  walk(answer.nodes, []);
  return got;
}

const sorted = (map: Map<string, Figures>) => [...map].sort(([a], [b]) => a.localeCompare(b));

describe('event-level tree', () => {
  it('counts cases, seriousness, events and outcomes at every level down to the LLT, for all and per suspect product', async () => {
    for (const suspect of [undefined, 'Aspirin', 'Metformin']) {
      const answer = await rig.as('entry').call('POST', '/analytics/events', {
        filters: { projectIds: ['p1'] },
        ...(suspect ? { suspect } : {}),
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const tree = answer.body.data as EventTreeAnswer;
      const expected = brute(suspect);
      expect(tree.total, String(suspect)).toBe(expected.total);
      expect(sorted(figuresOf(tree)), String(suspect)).toEqual(sorted(expected.nodes));
      expect(tree.suspect).toBe(suspect ?? null);
      // LLT nodes exist, named from the release; the unknown PT's LLT sits under null above it.
      const llts = [...figuresOf(tree).keys()]
        .map((k) => JSON.parse(k) as (string | null)[])
        .filter((c) => c.length === 5);
      expect(llts.length).toBeGreaterThan(3);
    }
    const all = (await rig.as('entry').call('POST', '/analytics/events', { filters: { projectIds: ['p1'] } }))
      .body.data as EventTreeAnswer;
    // The product choices: suspect drugs (G.k.1 1 or 3) by cases.
    const products = new Map<string, number>();
    for (const doc of docs) {
      if (doc.state.validity !== 'valid' || doc.report.studyProjectId !== 'p1') continue;
      for (const name of new Set<string>(
        doc.drugs
          .filter((d: Doc) => ['1', '3'].includes(d.drugCharacterisation))
          .map((d: Doc) => d.drugName as string),
      ))
        products.set(name, (products.get(name) ?? 0) + 1);
    }
    expect(Object.fromEntries(all.products.map((p) => [p.name, p.count]))).toEqual(
      Object.fromEntries(products),
    );
    expect(all.outcomeLabels['5']).toBeTruthy();
    const llt = all.nodes[0]!.children[0]!.children[0]!.children[0]!.children.find((n) => n.code !== null)!;
    expect(llt.level).toBe('llt');
    expect(llt.name).toBe(meddra.llts.find((l) => l.code === llt.code)!.name);
  });

  it('a blinded reader neither chooses nor sees a study drug', async () => {
    const blind = rig.as('blind');
    const all = (await blind.call('POST', '/analytics/events', { filters: { projectIds: ['p1'] } })).body
      .data as EventTreeAnswer;
    expect(all.blinded).toBe(true);
    expect(all.products.map((p) => p.name).sort()).toEqual(['Aspirin', 'Metformin']);
    const study = (await blind.call('POST', '/analytics/events', { suspect: 'Study drug A' })).body
      .data as EventTreeAnswer;
    expect(study.total).toBe(0);
    expect(study.nodes).toEqual([]);
  });

  it('each LLT node links to the case list showing exactly its cases', async () => {
    const tree = (
      await rig.as('entry').call('POST', '/analytics/events', { filters: { projectIds: ['p1'] } })
    ).body.data as EventTreeAnswer;
    const llts: TreeNode[] = [];
    const walk = (nodes: TreeNode[]) =>
      nodes.forEach((n) => (n.level === 'llt' && n.code !== null ? llts.push(n) : walk(n.children)));
    walk(tree.nodes);
    expect(llts.length).toBeGreaterThan(3);
    for (const node of llts) {
      expect(node.cases, String(node.code)).toBeDefined();
      const listed = await rig.as('entry').call('POST', '/cases/search', { ...node.cases, size: 200 });
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body.data.total, String(node.code)).toBe(node.count);
    }
  });
});
