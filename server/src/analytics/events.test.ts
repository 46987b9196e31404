/**
 * The event-level tree (POST /api/analytics/events and /events/details) against a brute-force count over random case
 * documents: cases, serious and non-serious cases, events and their outcomes at every node of
 * SOC -> HLGT -> HLT -> PT -> LLT, time to onset (by the dates, else the interval reported for the
 * drug-event pair, G.k.9.i.3.1), for all cases and per suspect product; a blinded reader never
 * chooses or sees a study drug; each LLT node's link lists exactly its cases.
 *
 * Backends: everything on the embedded store; the tree's figures (the brute force) also on MongoDB
 * when MONGODB_URI is set (the FerretDB step of `npm test`), where the store's `least`, `map` and
 * `match` dimensions run through the streamed GroupCounter, and a product's tree (one drug's fields
 * together, `$elemMatch`, which FerretDB 1.24 lacks) through the driver's mingo finish.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSummary, demoProject } from '../cases/testing';
import type { RigUser } from '../cases/testing';
import { testBackendWanted } from '../http/test-store';
import { DEMO_MEDDRA_VERSION, demoDictionaryFiles, demoMeddra, dictionaryService } from '../dictionaries';
import type { CountNode, EventCountsAnswer, EventDetailsAnswer, EventTreeAnswer, TreeNode } from './events';
import { mergeEventTree } from './events';
import { analyticsRig } from './testing';
import { codelists } from '@pv/engine';
import { DAYS_PER_UNIT, NO_ONSET, OnsetTally, onsetDays, pairInterval, reportedDays } from './onset';
import type { OnsetFigures } from './onset';

const USERS: RigUser[] = [
  { id: 'entry', name: 'Entry' },
  { id: 'blind', name: 'Blind reader', deny: ['activecase:blindBottom'] },
];
type Rig = Awaited<ReturnType<typeof analyticsRig>>;
const rig = await analyticsRig(USERS);
afterAll(() => rig.close());

let seed = 2022;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
// The reported intervals (G.k.9.i.3.1) and reaction ids draw from their own sequence, so the rest
// of the documents stay as they were drawn before those were added.
let seed2 = 922;
const random2 = () => (seed2 = (seed2 * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick2 = <T>(values: readonly T[]): T => values[Math.floor(random2() * values.length)]!;

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
      const dose = () => ({ startDate: pick(['20240101', '20240115', '20240301', '202402', '2024']) });
      return {
        drugName: name,
        drugCharacterisation: pick(['1', '2', '3']),
        dosages: Array.from({ length: Math.floor(random() * 3) }, dose),
        ...(name === 'Study drug A' ? { isClinicalDrug: true } : {}),
        // G.k.9.i: assessments of the case's reactions (or of one it lacks), a reaction assessed
        // twice (the first counts), intervals in every unit, none, or in a unit not declared.
        reactionAssessments: Array.from({ length: Math.floor(random2() * 3) }, () => {
          const value = pick2([3, 0, 12, 2.5, -1, undefined]);
          const unit = pick2(['d', 'h', 'wk', 'mo', 'a', 'min', 's', 'xx', undefined]);
          return {
            reactionId: `ev-${i}-r${Math.floor(random2() * 4)}`,
            ...(value === undefined ? {} : { intervalFromStart: value }),
            ...(unit === undefined ? {} : { intervalFromStartUnit: unit }),
          };
        }),
      };
    }),
    reactions: Array.from({ length: Math.floor(random() * 4) }, (_, j) => {
      const term = pick(TERMS);
      const outcome = pick(['1', '2', '5', undefined]);
      return {
        ...(random2() < 0.9 ? { id: `ev-${i}-r${j}` } : {}),
        meddraVersion: DEMO_MEDDRA_VERSION,
        meddraPtCode: term.pt,
        ...(term.llt ? { meddraCode: term.llt } : {}),
        ...(outcome ? { reactionResult: outcome } : {}),
        ...(random() < 0.9
          ? { startDate: pick(['20240101', '20240110', '20240120', '20240305', '20240415120000', '202404']) }
          : {}),
      };
    }),
  };
});
/** Project p3, the random cases with their summaries and the demo MedDRA release, in a rig's t1. */
async function seedCases(target: Rig) {
  const t1 = target.store.tenant('t1', { userId: 'system:test' });
  await t1.collection<Record<string, unknown>>('projects').insertOne({ ...demoProject('p3') });
  await t1.collection('cases').insertMany(docs);
  await t1
    .collection('caseSummaries')
    .insertMany(docs.map((d) => buildSummary(d._id, d as never, null) as unknown as Record<string, unknown>));
  await dictionaryService(target.store).importMeddra(t1, demoDictionaryFiles().meddra.en);
}
await seedCases(rig);

interface Figures {
  count: number;
  serious: number;
  notSerious: number;
  events: number;
  outcomes: Record<string, number>;
  onset: OnsetFigures;
}

/** Quartiles by hand: the sorted intervals, linear interpolation between order statistics. */
function byHand(intervals: number[]): Pick<OnsetFigures, 'n' | 'median' | 'q1' | 'q3'> {
  const x = [...intervals].sort((a, b) => a - b);
  const q = (p: number) => {
    if (x.length === 0) return null;
    const h = (x.length - 1) * p;
    const low = Math.floor(h);
    return x[low]! + (h - low) * ((x[Math.min(low + 1, x.length - 1)] ?? 0) - x[low]!);
  };
  return { n: x.length, median: q(0.5), q1: q(0.25), q3: q(0.75) };
}

/** Every node's figures by hand: each case once per node, each distinct (PT, LLT, outcome) one event. */
function brute(suspect?: string): { total: number; nodes: Map<string, Figures> } {
  const nodes = new Map<string, Figures>();
  // Each node's suspect drug-event pairs: [reaction start, first dose, reported interval and unit],
  // a case's identical ones once.
  const pairsOf = new Map<string, (string | number | null)[][]>();
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
    const pairs = new Set<string>();
    const firstDose = (d: Doc): string | null =>
      ((d.dosages ?? []) as Doc[])
        .map((x) => x.startDate as string)
        .sort()[0]
        ?.slice(0, 8) ?? null;
    const suspects = (doc.drugs as Doc[]).filter(
      (d) => ['1', '3'].includes(d.drugCharacterisation) && (!suspect || d.drugName === suspect),
    );
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
      for (const d of suspects) {
        // The drug's first assessment of this reaction (G.k.9.i.1 = the reaction's id).
        const assessed =
          typeof r.id === 'string'
            ? d.reactionAssessments.find((a: Doc) => a.reactionId === r.id)
            : undefined;
        pairs.add(
          JSON.stringify([
            ...codes,
            r.startDate?.slice(0, 8) ?? null,
            firstDose(d),
            assessed?.intervalFromStart ?? null,
            assessed?.intervalFromStartUnit ?? null,
          ]),
        );
      }
    }
    const at = (key: string) => {
      const found = nodes.get(key);
      if (found) return found;
      const fresh: Figures = {
        count: 0,
        serious: 0,
        notSerious: 0,
        events: 0,
        outcomes: {},
        onset: { ...NO_ONSET },
      };
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
    for (const pair of pairs) {
      const codes = JSON.parse(pair) as (string | null)[];
      for (let depth = 1; depth <= 5; depth++) {
        const key = JSON.stringify(codes.slice(0, depth));
        pairsOf.set(key, [...(pairsOf.get(key) ?? []), codes.slice(5)]);
      }
    }
  }
  // Whole days between two complete dates; a partial or missing date and a negative interval apart.
  const day = (t: string | number | null | undefined) =>
    typeof t === 'string' && /^\d{8}$/.test(t)
      ? Date.UTC(+t.slice(0, 4), +t.slice(4, 6) - 1, +t.slice(6))
      : null;
  // Otherwise the reported interval in days (months and years as 365.25 / 12 and 365.25 days).
  const perUnit: Record<string, [number, number]> = {
    s: [1, 86_400],
    min: [1, 1440],
    h: [1, 24],
    d: [1, 1],
    wk: [7, 1],
    mo: [1461, 48],
    a: [1461, 4],
  };
  for (const [key, pairs] of pairsOf) {
    const node = nodes.get(key)!;
    const days: number[] = [];
    for (const [start, dose, value, unit] of pairs) {
      const from = day(dose);
      const to = day(start);
      const ratio = typeof unit === 'string' ? perUnit[unit] : undefined;
      const reported = typeof value === 'number' && ratio ? (value * ratio[0]) / ratio[1] : null;
      if (from !== null && to !== null) {
        if (to < from) node.onset.before++;
        else days.push((to - from) / 86_400_000);
      } else if (reported === null) node.onset.partial++;
      else if (reported < 0) node.onset.before++;
      else {
        days.push(reported);
        node.onset.reported++;
      }
    }
    node.onset = { ...node.onset, ...byHand(days) };
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
        onset: node.onset,
      });
      walk(node.children, codes);
    }
  };
  walk(answer.nodes, []);
  return got;
}

/** The page's two requests, the counts and the details, put together by each node's codes. */
async function treeOf(target: Rig, who: string, body: Record<string, unknown>): Promise<EventTreeAnswer> {
  const [counts, details] = await Promise.all([
    target.as(who).call('POST', '/analytics/events', body),
    target.as(who).call('POST', '/analytics/events/details', body),
  ]);
  expect(counts.status, JSON.stringify(counts.body)).toBe(200);
  expect(details.status, JSON.stringify(details.body)).toBe(200);
  const c = counts.body.data as EventCountsAnswer;
  const d = details.body.data as EventDetailsAnswer;
  expect(d.meddraVersion).toBe(c.meddraVersion);
  // Every node of the details is a node of the counts.
  const counted = new Set<string>();
  const walk = (nodes: CountNode[], above: (string | null)[]) =>
    nodes.forEach((n) => {
      counted.add(JSON.stringify([...above, n.code]));
      walk(n.children, [...above, n.code]);
    });
  walk(c.nodes, []);
  expect(d.nodes.filter((n) => !counted.has(JSON.stringify(n.codes)))).toEqual([]);
  return mergeEventTree(c, d);
}

const sorted = (map: Map<string, Figures>) => [...map].sort(([a], [b]) => a.localeCompare(b));

/**
 * The tree's figures at every node against the brute force, for all cases and per suspect product,
 * and the product choices.
 */
async function checkTree(target: Rig): Promise<void> {
  for (const suspect of [undefined, 'Aspirin', 'Metformin']) {
    const body = { filters: { projectIds: ['p1'] }, ...(suspect ? { suspect } : {}) };
    const tree = await treeOf(target, 'entry', body);
    const expected = brute(suspect);
    expect(tree.total, String(suspect)).toBe(expected.total);
    expect(sorted(figuresOf(tree)), String(suspect)).toEqual(sorted(expected.nodes));
    expect(tree.suspect).toBe(suspect ?? null);
    // The onset figures are not trivial: intervals, partial dates and reactions before the first dose.
    const roots = tree.nodes.map((n) => n.onset);
    expect(roots.some((o) => o.n > 1 && o.q1 !== o.q3)).toBe(true);
    expect(roots.some((o) => o.partial > 0) && roots.some((o) => o.before > 0)).toBe(true);
    // ...and intervals as reported (G.k.9.i.3.1) where the dates give none, in fractions of days too.
    expect(roots.some((o) => o.reported > 0 && o.reported < o.n)).toBe(true);
    // LLT nodes exist, named from the release; the unknown PT's LLT sits under null above it.
    const llts = [...figuresOf(tree).keys()]
      .map((k) => JSON.parse(k) as (string | null)[])
      .filter((c) => c.length === 5);
    expect(llts.length).toBeGreaterThan(3);
  }
  const all = await treeOf(target, 'entry', { filters: { projectIds: ['p1'] } });
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
  // Both languages for the bilingual display (the release is imported in English only here).
  expect(llt.names).toEqual({ zh: llt.name, en: llt.name });
}

describe.skipIf(!testBackendWanted('embedded'))('event-level tree', () => {
  it('counts cases, seriousness, events and outcomes at every level down to the LLT, for all and per suspect product', () =>
    checkTree(rig));

  it('time to onset: whole days, partial dates and reactions before the first dose apart; quartiles by hand', () => {
    expect(onsetDays('20240228', '20240301')).toBe(2); // 2024 is a leap year
    expect(onsetDays('20240101', '20240101')).toBe(0);
    expect(onsetDays('20240301', '20240228')).toBe(-2);
    expect(onsetDays('202402', '20240301')).toBeNull();
    expect(onsetDays('20240231', '20240301')).toBeNull();
    expect(onsetDays(null, '20240301')).toBeNull();
    const tally = new OnsetTally();
    // 0, 1, 3, 3, 10, 30 (3 twice) with one partial pair and two before the first dose.
    for (const [days, count] of [
      [3, 2],
      [0, 1],
      [30, 1],
      [10, 1],
      [1, 1],
      [null, 1],
      [-4, 2],
    ] as const)
      tally.add(days, count);
    // n = 6: Q1 at rank 1.25 -> 1 + 0.25 x (3 - 1) = 1.5; median at 2.5 -> 3; Q3 at 3.75 -> 3 + 0.75 x (10 - 3) = 8.25.
    expect(tally.figures()).toEqual({
      n: 6,
      median: 3,
      q1: 1.5,
      q3: 8.25,
      reported: 0,
      partial: 1,
      before: 2,
    });
    expect(new OnsetTally().figures()).toEqual(NO_ONSET);
  });

  it('time to onset as reported (G.k.9.i.3.1) only when the dates give none; every time unit in days', () => {
    // Every unit of the code list G.k.9.i.3.1b takes is declared (schemas/analytics/onset.json).
    expect([...DAYS_PER_UNIT.keys()].sort()).toEqual(codelists.timeUnit!.values.map((v) => v.code).sort());
    expect(reportedDays(36, 'h')).toBe(1.5);
    expect(reportedDays(2, 'wk')).toBe(14);
    expect(reportedDays(1, 'a')).toBe(365.25);
    expect(reportedDays(2, 'mo')).toBe(60.875);
    expect(reportedDays(30, 'min')).toBeCloseTo(30 / 1440, 12);
    expect(reportedDays(3, 'xx')).toBeNull();
    expect(reportedDays(null, 'd')).toBeNull();
    expect(reportedDays(3, null)).toBeNull();
    // Whole dates win over the reported interval, even before the first dose; partial ones do not.
    expect(pairInterval('20240101', '20240111', 3, 'd')).toEqual({ days: 10, reported: false });
    expect(pairInterval('20240111', '20240101', 3, 'd')).toEqual({ days: -10, reported: false });
    expect(pairInterval('202401', '20240111', 3, 'd')).toEqual({ days: 3, reported: true });
    expect(pairInterval(null, null, 48, 'h')).toEqual({ days: 2, reported: true });
    expect(pairInterval(null, '20240111', 3, 'xx')).toEqual({ days: null, reported: false });
    const tally = new OnsetTally();
    tally.add(2, 1, true);
    tally.add(-1, 1, true);
    tally.add(4, 1);
    expect(tally.figures()).toEqual({
      n: 2,
      median: 3,
      q1: 2.5,
      q3: 3.5,
      reported: 1,
      partial: 0,
      before: 1,
    });
  });

  it('names SOC and PT keys from the MedDRA release in statistics and the signal table (codes it lacks as they are)', async () => {
    const name = (pt: string) => meddra.pts.find((p) => p.code === pt)?.name ?? null;
    const pivot = await rig.as('entry').call('POST', '/analytics/pivot', { dimensions: ['pt', 'serious'] });
    type Row = { key: { pt: string; serious: boolean | null }; labels: Record<string, string> };
    const rows = pivot.body.data.rows as (Row & { names: Record<string, { zh: string; en: string }> })[];
    expect(new Set(rows.map((r) => r.key.pt)).size).toBe(4);
    for (const row of rows) {
      expect(row.labels.pt).toBe(name(row.key.pt) ?? row.key.pt);
      // Both languages for the bilingual display: the release is imported in English only here.
      expect(row.names.pt).toEqual({ zh: row.labels.pt, en: row.labels.pt });
      if (row.key.serious !== null)
        expect(row.names.serious).toEqual(row.key.serious ? { zh: '是', en: 'Yes' } : { zh: '否', en: 'No' });
    }
    expect(rows.find((r) => r.key.pt === '99999999')!.labels.pt).toBe('99999999');
    const signals = await rig.as('entry').call('POST', '/analytics/signals', { by: 'pt' });
    const pairs = signals.body.data.rows as {
      event: string;
      eventName: string | null;
      eventNames: { zh: string | null; en: string | null };
    }[];
    expect(pairs.length).toBeGreaterThan(3);
    for (const pair of pairs) {
      expect(pair.eventName).toBe(name(pair.event));
      expect(pair.eventNames).toEqual({ zh: pair.eventName, en: pair.eventName });
    }
    expect(pairs.some((p) => p.eventName !== null) && pairs.some((p) => p.eventName === null)).toBe(true);
  });

  it('a blinded reader neither chooses nor sees a study drug', async () => {
    const all = await treeOf(rig, 'blind', { filters: { projectIds: ['p1'] } });
    expect(all.blinded).toBe(true);
    expect(all.products.map((p) => p.name).sort()).toEqual(['Aspirin', 'Metformin']);
    const study = await treeOf(rig, 'blind', { suspect: 'Study drug A' });
    expect(study.total).toBe(0);
    expect(study.nodes).toEqual([]);
  });

  it('each LLT node links to the case list showing exactly its cases, per suspect product too', async () => {
    for (const [who, suspect] of [
      ['entry', undefined],
      ['entry', 'Aspirin'],
      ['blind', 'Metformin'],
    ] as const) {
      const tree = await treeOf(rig, who, {
        filters: { projectIds: ['p1'] },
        ...(suspect ? { suspect } : {}),
      });
      const linked: TreeNode[] = [tree.nodes[0]!];
      const walk = (nodes: TreeNode[]) =>
        nodes.forEach((n) => (n.level === 'llt' && n.code !== null ? linked.push(n) : walk(n.children)));
      walk(tree.nodes);
      expect(linked.length).toBeGreaterThan(3);
      for (const node of linked) {
        expect(node.cases, `${suspect} ${node.code}`).toBeDefined();
        const listed = await rig.as(who).call('POST', '/cases/search', { ...node.cases, size: 200 });
        expect(listed.status, JSON.stringify(listed.body)).toBe(200);
        expect(listed.body.data.total, `${who} ${suspect} ${node.level} ${node.code}`).toBe(node.count);
      }
    }
  });
});

describe.skipIf(!testBackendWanted('mongodb'))('event-level tree on MongoDB', () => {
  let mongo: Rig;
  beforeAll(async () => {
    mongo = await analyticsRig(USERS, { backend: 'mongodb' });
    await seedCases(mongo);
  });
  afterAll(() => mongo?.close());

  it('counts cases, seriousness, events and outcomes at every level down to the LLT, for all and per suspect product', () =>
    checkTree(mongo));
});
