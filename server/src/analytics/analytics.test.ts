/**
 * /api/analytics on the case rig: the declared statistics and pivots against a brute-force count
 * over 1,000 random case documents for 200 random filter combinations; invalid, deleted and
 * other projects' cases stay out; a blinded reader's statistics by product show no study drug; the
 * signal table flags by the caller's tenant's thresholds.
 *
 * The brute force spreads the statistics over the filter combinations: each combination checks one
 * statistic (in turn) or one random pivot of up to three dimensions, so each statistic is checked
 * 100 / (number of statistics) times (5-6 with today's 17) and each dimension, in its statistics
 * and the pivots, 5-35 times; at least 4 each is asserted.
 *
 * Backends: everything on the embedded store; the brute force (the same 1,000 cases and 200 filter
 * combinations), the signal table and the SOC-to-PT tree also on MongoDB when MONGODB_URI is set
 * (the FerretDB step of `npm test`; FerretDB 1.24 lacks `$elemMatch`, which a blinded reader's
 * product filter uses: the store's driver finishes it through mingo there).
 */
import {
  countSignalPairs,
  DEFAULT_SIGNAL_THRESHOLDS,
  SIGNAL_FIGURES,
  signalFlags,
  signalTable,
} from '@pv/engine';
import type { SignalThresholds } from '@pv/engine';
import mammoth from 'mammoth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf, squash } from '../reports/testing';
import {
  DEMO_MEDDRA_VERSION,
  demoDictionaryFiles,
  demoMeddra,
  demoMeddraTerms,
  dictionaryService,
} from '../dictionaries';
import { buildSummary, demoProject } from '../cases/testing';
import type { RigUser } from '../cases/testing';
import { testBackendWanted } from '../http/test-store';
import { dimensionById, readsDocumentPath, STATISTICS } from './declarations';
import type { AnalyticsFilters as Filters } from './service';
import { analyticsRig } from './testing';

const USERS: RigUser[] = [
  { id: 'entry', name: 'Entry' },
  { id: 'blind', name: 'Blind reader', deny: ['activecase:blindBottom'] },
  { id: 'nopivot', name: 'No pivot', deny: ['pooledanalysis:multidimensionalCrossover'] },
];
type Rig = Awaited<ReturnType<typeof analyticsRig>>;
const rig = await analyticsRig(USERS);
const runner = rig.runner;
afterAll(() => rig.close());

/** A seeded generator: the cases and the brute force draw their own streams, the same on each backend. */
function randoms(seed: number) {
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const some = <T>(values: readonly T[], max: number): T[] => [
    ...new Set(Array.from({ length: Math.floor(random() * (max + 1)) }, () => pick(values))),
  ];
  return { random, pick, some };
}
type Randoms = ReturnType<typeof randoms>;
const { random, pick } = randoms(22);

const PRODUCTS = ['Study drug A', 'Placebo', 'Aspirin', 'Metformin', 'Ibuprofen'];
// PT-level terms of the demo MedDRA release (imported below) and one PT it does not know.
const TERMS = [
  ...demoMeddraTerms(8, { ptLevel: true }).map((t) => ({ pt: t.pt.code, soc: t.soc.code })),
  { pt: '99999999', soc: '99999998' },
];
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- random test documents

const docs: Doc[] = Array.from({ length: 1000 }, (_, i) => ({
  _id: `case-${i}`,
  state: {
    validity: pick(['valid', 'valid', 'valid', 'invalid', 'deleted']),
    isSae: random() < 0.4,
    isSusar: random() < 0.2,
    workflowNode: pick(['entry', 'qc', 'medical', 'submit']),
    versionType: pick(['initial', 'followUp']),
  },
  report: {
    reportCode: `R${i}`,
    studyProjectId: pick(['p1', 'p1', 'p2', 'p3']),
    reportType: pick(['1', '2', '3']),
    reportDateFirst: `2026${String(1 + Math.floor(random() * 12)).padStart(2, '0')}${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
    happenCountry: pick(['CN', 'US', 'JP']),
    cnReportSource: pick(['1', '6']),
    cnReportClassify: pick(['11', '12']),
  },
  patient: random() < 0.9 ? { gender: pick(['1', '2']), ageGroup: pick(['3', '5', '6']) } : {},
  drugs: Array.from({ length: Math.floor(random() * 4) }, () => {
    const name = pick(PRODUCTS);
    return {
      drugName: name,
      drugCharacterisation: pick(['1', '1', '2', '3']),
      ...(name === 'Study drug A' || name === 'Placebo' ? { isClinicalDrug: true } : {}),
    };
  }),
  reactions: Array.from({ length: Math.floor(random() * 3) }, () => {
    const term = pick(TERMS);
    return {
      meddraVersion: DEMO_MEDDRA_VERSION,
      meddraSocCode: term.soc,
      meddraPtCode: term.pt,
      reactionResult: pick(['1', '5']),
      // E.i.3.2a / E.i.3.2b: true, false, null (a null flavor) or absent.
      ...(random() < 0.6 ? { isResultInDeath: pick([true, false, null]) } : {}),
      ...(random() < 0.6 ? { isThreadToLife: pick([true, false, null]) } : {}),
    };
  }),
}));
/** Projects p2 and p3, the random cases with their summaries and the demo MedDRA release, in a rig's t1. */
async function seedCases(target: Rig) {
  const t1 = target.store.tenant('t1', { userId: 'system:test' });
  await t1
    .collection<Record<string, unknown>>('projects')
    .insertMany([{ ...demoProject('p2') }, { ...demoProject('p3') }]);
  // entry and blind work in p1 and p2; nobody in p3 (its cases never count).
  for (const userId of ['entry', 'blind'])
    await t1
      .collection('projectMembers')
      .insertOne({ projectId: 'p2', userId, roleIds: [], permissionKeys: [] });
  await t1.collection('cases').insertMany(docs);
  // The case list reads summaries: the drill-down's lists need them beside the documents.
  await t1
    .collection('caseSummaries')
    .insertMany(docs.map((d) => buildSummary(d._id, d as never, null) as unknown as Record<string, unknown>));
  await dictionaryService(target.store).importMeddra(t1, demoDictionaryFiles().meddra.en);
}
await seedCases(rig);

const isBlindedDrug = (drug: Doc) => drug.isClinicalDrug === true || drug.isBlind === true;

/** The brute force: each case's set of keys, from the declarations' paths, counted by hand. */
function brute(
  dimensions: string[],
  filters: Filters,
  options: { blinded: boolean; fixed?: Record<string, unknown> },
) {
  const projects = filters.projectIds?.length ? filters.projectIds : ['p1', 'p2'];
  const get = (value: unknown, path: string): unknown =>
    path
      .split('.')
      .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Doc)[k] : undefined), value);
  const counts = new Map<string, number>();
  // Each counted case's cells, for the pivot's margins (projections of them, counted per case).
  const cells: Record<string, unknown>[][] = [];
  let total = 0;
  for (const doc of docs) {
    if (doc.state.validity !== 'valid' || !projects.includes(doc.report.studyProjectId)) continue;
    const r = filters.received;
    if (r?.from && !(doc.report.reportDateFirst >= r.from)) continue;
    if (r?.to && !(doc.report.reportDateFirst <= r.to)) continue;
    if (filters.reportType?.length && !filters.reportType.includes(doc.report.reportType)) continue;
    if (filters.serious?.length && !filters.serious.includes(doc.state.isSae)) continue;
    if (filters.country?.length && !filters.country.includes(doc.report.happenCountry)) continue;
    if (filters.sex?.length && !filters.sex.includes(doc.patient.gender)) continue;
    if (
      filters.product?.length &&
      !doc.drugs.some(
        (d: Doc) => filters.product!.includes(d.drugName) && !(options.blinded && isBlindedDrug(d)),
      )
    )
      continue;
    if (Object.entries(options.fixed ?? {}).some(([id, v]) => get(doc, dimensionById.get(id)!.path) !== v))
      continue;
    total++;
    let combos: Record<string, unknown>[] = [{}];
    const byArray = new Map<string, string[]>();
    for (const id of dimensions) {
      const d = dimensionById.get(id)!;
      // Dimensions naming an `element` read their own element of the array.
      const slot = `${d.each}#${d.element ?? ''}`;
      if (d.each) byArray.set(slot, [...(byArray.get(slot) ?? []), id]);
      else if (d.classes) {
        // Every class some element meets, else the otherwise key.
        const met = d.classes
          .filter((c) => (doc[d.path] as Doc[]).some((e) => c.in.includes(e[c.path])))
          .map((c) => c.key);
        const keys = met.length ? met : [d.otherwise!];
        combos = combos.flatMap((c) => keys.map((key) => ({ ...c, [id]: key })));
      } else {
        const value = get(doc, d.path) ?? null;
        const cut = d.prefix && typeof value === 'string' ? value.slice(0, d.prefix) : value;
        const quarter =
          d.fold && typeof cut === 'string'
            ? `${cut.slice(0, 4)}Q${Math.ceil(Number(cut.slice(4)) / 3)}`
            : cut;
        combos = combos.map((c) => ({ ...c, [id]: quarter }));
      }
    }
    for (const [slot, ids] of byArray) {
      const elements = (doc[slot.split('#')[0]!] as Doc[]).filter((e) =>
        ids.every((id) => (dimensionById.get(id)!.where ?? []).every((w) => w.in.includes(e[w.path]))),
      );
      combos = combos.flatMap((c) =>
        elements.map((e) => {
          const next = { ...c };
          for (const id of ids) {
            const d = dimensionById.get(id)!;
            next[id] = options.blinded && d.blindedMask && isBlindedDrug(e) ? 'BLINDED' : (e[d.path] ?? null);
          }
          return next;
        }),
      );
    }
    for (const key of new Set(combos.map((c) => JSON.stringify(dimensions.map((id) => c[id])))))
      counts.set(key, (counts.get(key) ?? 0) + 1);
    if (combos.length) cells.push(combos);
  }
  /** Distinct cases by some of the dimensions, over the cases in the cells (a margin). */
  const margin = (kept: string[]) => {
    const n = new Map<string, number>();
    for (const combos of cells)
      for (const key of new Set(combos.map((c) => JSON.stringify(kept.map((id) => c[id])))))
        n.set(key, (n.get(key) ?? 0) + 1);
    return [...n].map(([k, m]) => JSON.stringify([...JSON.parse(k), m])).sort();
  };
  return {
    total,
    rows: [...counts].map(([k, n]) => JSON.stringify([...JSON.parse(k), n])).sort(),
    margin,
    inCells: cells.length,
  };
}

const sumOf = (rows: { count: number }[]) => rows.reduce((sum, r) => sum + r.count, 0);

const asRows = (dimensions: string[], rows: { key: Record<string, unknown>; count: number }[]) =>
  rows.map((r) => JSON.stringify([...dimensions.map((id) => r.key[id]), r.count])).sort();

function randomFilters({ random, pick, some }: Randoms): Filters {
  const f: Filters = {};
  if (random() < 0.3) f.projectIds = [pick(['p1', 'p2'])];
  if (random() < 0.4) {
    const a = `2026${String(1 + Math.floor(random() * 12)).padStart(2, '0')}01`;
    f.received = random() < 0.5 ? { from: a } : { to: a };
  }
  if (random() < 0.3) f.reportType = some(['1', '2', '3'], 2);
  if (random() < 0.3) f.serious = [random() < 0.5];
  if (random() < 0.3) f.country = some(['CN', 'US', 'JP'], 2);
  if (random() < 0.2) f.sex = [pick(['1', '2'])];
  if (random() < 0.3) f.product = some(PRODUCTS, 2);
  return f;
}

/**
 * The brute force: 200 random filter combinations, each checking one statistic (in turn) or one
 * random pivot of up to three dimensions, a blinded reader every fourth.
 */
async function bruteForce(target: Rig): Promise<void> {
  const draw = randoms(2201);
  // How often each statistic and each dimension (in a pivot) was answered and checked.
  const checked = new Map<string, number>();
  const tally = (id: string) => checked.set(id, (checked.get(id) ?? 0) + 1);
  // Summary and computed dimensions have their own brute force (trends.test.ts).
  const pivotable = [...dimensionById.values()].filter(readsDocumentPath).map((d) => d.id);
  const statistics = STATISTICS.filter((s) =>
    s.dimensions.every((id) => readsDocumentPath(dimensionById.get(id)!)),
  );
  for (let i = 0; i < 200; i++) {
    const filters = randomFilters(draw);
    const blinded = i % 4 === 3;
    const who = blinded ? 'blind' : 'entry';
    if (i % 2 === 0) {
      const statistic = statistics[(i / 2) % statistics.length]!;
      const answer = await target
        .as(who)
        .call('POST', '/analytics/statistic', { statisticId: statistic.id, filters });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const expected = brute(statistic.dimensions, filters, { blinded, fixed: statistic.fixed ?? {} });
      expect(answer.body.data.blinded).toBe(blinded);
      expect(answer.body.data.total).toBe(expected.total);
      expect(asRows(statistic.dimensions, answer.body.data.rows)).toEqual(expected.rows);
      for (const id of [`statistic ${statistic.id}`, ...statistic.dimensions.map((d) => `dimension ${d}`)])
        tally(id);
    } else {
      const dimensions = draw.some(pivotable, 3);
      if (dimensions.length === 0) dimensions.push('sex');
      const answer = await target.as(who).call('POST', '/analytics/pivot', { dimensions, filters });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const expected = brute(dimensions, filters, { blinded });
      expect(answer.body.data.total).toBe(expected.total);
      expect(asRows(dimensions, answer.body.data.rows)).toEqual(expected.rows);
      for (const id of dimensions) tally(`dimension ${id}`);
      // The margins: distinct cases over the cells' cases, counted (brute.margin), not summed.
      const margins = answer.body.data.margins;
      if (dimensions.length === 1) expect(margins).toBeUndefined();
      else {
        const [first, ...rest] = dimensions as [string, ...string[]];
        const kept = {
          rows: dimensions.slice(0, -1),
          columns: dimensions.slice(-1),
          firsts: [first],
          firstColumns: [first, ...rest.slice(1)],
        };
        const parts = [
          'rows',
          'columns',
          ...(rest.length > 1 ? (['firsts', 'firstColumns'] as const) : []),
        ] as const;
        for (const part of parts) {
          expect(asRows(kept[part], margins[part]), part).toEqual(expected.margin(kept[part]));
          // A case under several values of a left-out dimension: its margin is less than its cells' sum.
          if (sumOf(margins[part]) < sumOf(answer.body.data.rows)) tally('margin under the sum of its cells');
        }
        if (rest.length === 1) expect([margins.firsts, margins.firstColumns]).toEqual([undefined, undefined]);
        expect(margins.total).toBe(expected.inCells);
      }
    }
  }
  const times = [
    'margin under the sum of its cells',
    ...statistics.map((s) => `statistic ${s.id}`),
    ...pivotable.map((id) => `dimension ${id}`),
  ].map((id) => [id, checked.get(id) ?? 0] as const);
  expect(times.filter(([, n]) => n < 4)).toEqual([]);
}

/** The signal table against the engine counting the same documents; a blinded reader's names no study drug. */
async function checkSignals(target: Rig): Promise<void> {
  for (const by of ['pt', 'soc'] as const) {
    const answer = await target.as('entry').call('POST', '/analytics/signals', { by });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const counted = docs
      .filter((d) => ['p1', 'p2'].includes(d.report.studyProjectId))
      .map((d) => ({
        ...d,
        reactions: d.reactions.map((r: Doc) => ({ ...r, meddraCode: r.meddraPtCode })),
      }));
    const expected = countSignalPairs(counted, { by });
    expect(answer.body.data.cases).toBe(expected.cases);
    const key = (r: { drug: string; event: string }) => `${r.drug}|${r.event}`;
    const got = new Map(
      answer.body.data.rows.map((r: { drug: string; event: string }) => [key(r), r] as const),
    );
    const table = signalTable(expected);
    expect(got.size).toBe(table.length);
    for (const row of table) {
      const mine = got.get(key(row)) as Record<string, unknown>;
      for (const field of SIGNAL_FIGURES) expect(mine[field], `${key(row)} ${field}`).toEqual(row[field]);
    }
  }
  const blind = await target.as('blind').call('POST', '/analytics/signals', { by: 'soc' });
  const drugs = new Set(blind.body.data.rows.map((r: { drug: string }) => r.drug));
  expect(drugs.has('BLINDED')).toBe(true);
  expect(drugs.has('Placebo') || drugs.has('Study drug A')).toBe(false);
}

/** The event tree's SOC -> HLGT -> HLT -> PT counts against the primary paths counted by hand. */
async function checkEventTree(target: Rig): Promise<void> {
  const answer = await target.as('entry').call('POST', '/analytics/events', {});
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const tree = answer.body.data as {
    meddraVersion: string;
    total: number;
    nodes: { code: string | null; name: string | null; count: number; children: unknown[] }[];
  };
  expect(tree.meddraVersion).toBe(DEMO_MEDDRA_VERSION);
  const { paths, socs } = demoMeddra().en;
  const primary = (pt: string) =>
    [...paths].sort((a, b) => Number(b.primary) - Number(a.primary)).find((p) => p.ptCode === pt);
  const expected = new Map<string, number>();
  let total = 0;
  for (const doc of docs) {
    if (doc.state.validity !== 'valid' || !['p1', 'p2'].includes(doc.report.studyProjectId)) continue;
    if (doc.reactions.length) total++;
    const keys = new Set<string>();
    for (const r of doc.reactions) {
      const path = primary(r.meddraPtCode);
      const codes = [path?.socCode ?? null, path?.hlgtCode ?? null, path?.hltCode ?? null, r.meddraPtCode];
      for (let depth = 1; depth <= 4; depth++) keys.add(JSON.stringify(codes.slice(0, depth)));
    }
    for (const key of keys) expected.set(key, (expected.get(key) ?? 0) + 1);
  }
  const got = new Map<string, number>();
  type Node = { code: string | null; count: number; children: Node[] };
  const walk = (nodes: Node[], above: (string | null)[]) => {
    for (const node of nodes) {
      const codes = [...above, node.code];
      // SOC to PT here; the LLT level below is events.test's.
      if (codes.length <= 4) got.set(JSON.stringify(codes), node.count);
      walk(node.children, codes);
    }
  };
  walk(tree.nodes as Node[], []);
  expect(tree.total).toBe(total);
  expect([...got].sort()).toEqual([...expected].sort());
  // Unknown PTs sit under null at each level above; known SOCs carry the release's names.
  expect(got.get(JSON.stringify([null, null, null, '99999999']))).toBeGreaterThan(0);
  const named = tree.nodes.find((n) => n.code !== null)!;
  expect(named.name).toBe(socs.find((s) => s.code === named.code)!.name);
}

describe.skipIf(!testBackendWanted('embedded'))('analytics', () => {
  it('every statistic and pivot equals a brute-force count over 1,000 random cases for 200 filter combinations', () =>
    bruteForce(rig));

  it('SUSARs fatal / life-threatening: the random cases give every key, and a case with both counts in both', async () => {
    const answer = await rig
      .as('entry')
      .call('POST', '/analytics/statistic', { statisticId: 'susarFatalLifeThreatening' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rows = answer.body.data.rows as { key: { fatalLifeThreatening: string }; count: number }[];
    const count = (key: string) => rows.find((r) => r.key.fatalLifeThreatening === key)?.count ?? 0;
    for (const key of ['fatal', 'lifeThreatening', 'neither']) expect(count(key)).toBeGreaterThan(0);
    // Each row links to its cases (the drill-down test below lists them).
    expect(rows.every((r) => 'cases' in r)).toBe(true);
    // Some SUSAR has both a fatal and a life-threatening reaction: the rows add up to more than the total.
    expect(count('fatal') + count('lifeThreatening') + count('neither')).toBeGreaterThan(
      answer.body.data.total,
    );
    expect(answer.body.data.rows.find((r: Doc) => r.key.fatalLifeThreatening === 'fatal').labels).toEqual({
      fatalLifeThreatening: 'Fatal',
    });
  });

  it("a blinded reader's statistics by product show no study drug, and its product filter finds none", async () => {
    const blind = await rig.as('blind').call('POST', '/analytics/pivot', { dimensions: ['product'] });
    const names = blind.body.data.rows.map((r: { key: { product: string } }) => r.key.product);
    expect(names).toContain('BLINDED');
    expect(names).not.toContain('Study drug A');
    expect(names).not.toContain('Placebo');
    const label = blind.body.data.rows.find((r: { key: { product: string } }) => r.key.product === 'BLINDED');
    expect(label.labels.product).toBe('Blinded');
    const filtered = await rig
      .as('blind')
      .call('POST', '/analytics/pivot', { dimensions: ['sex'], filters: { product: ['Placebo'] } });
    expect(filtered.body.data.total).toBe(0);
    const open = await rig.as('entry').call('POST', '/analytics/pivot', { dimensions: ['product'] });
    const openNames = open.body.data.rows.map((r: { key: { product: string } }) => r.key.product);
    expect(openNames).toContain('Placebo');
    expect(openNames).not.toContain('BLINDED');
  });

  it('leaves invalid, deleted and other projects’ cases out; counts invalid ones only when chosen', async () => {
    const all = await rig.as('entry').call('POST', '/analytics/statistic', { statisticId: 'byReportType' });
    const valid = docs.filter((d) => d.state.validity === 'valid' && d.report.studyProjectId !== 'p3');
    expect(all.body.data.total).toBe(valid.length);
    const withInvalid = await rig
      .as('entry')
      .call('POST', '/analytics/statistic', { statisticId: 'byReportType', includeInvalid: true });
    expect(withInvalid.body.data.total).toBe(
      docs.filter((d) => d.state.validity !== 'deleted' && d.report.studyProjectId !== 'p3').length,
    );
    const other = await rig
      .as('entry')
      .call('POST', '/analytics/statistic', { statisticId: 'byReportType', filters: { projectIds: ['p3'] } });
    expect(other.status).toBe(403);
  });

  it('labels code values in the caller’s language and refuses bad input with a translated 400', async () => {
    const zh = await rig
      .as('entry')
      .call('POST', '/analytics/statistic', { statisticId: 'byReportType' }, 'cn');
    expect(zh.body.data.rows.map((r: { labels: { reportType: string } }) => r.labels.reportType)).toContain(
      '自发报告',
    );
    const bad = await rig.as('entry').call('POST', '/analytics/pivot', { dimensions: ['nope'] });
    expect(bad.status).toBe(400);
    const denied = await rig.as('nopivot').call('POST', '/analytics/pivot', { dimensions: ['sex'] });
    expect(denied.status).toBe(403);
  });

  it('the signal table equals the engine counting the same case documents (by PT and by SOC)', () =>
    checkSignals(rig));

  it('the event-level tree counts each case once per SOC, HLGT, HLT and PT on the primary path', () =>
    checkEventTree(rig));

  it('each count links to the case list showing exactly its cases (declared list filters)', async () => {
    const entry = rig.as('entry');
    const listed = async (cases: { tab: string; filters: Record<string, unknown> }) => {
      const answer = await entry.call('POST', '/cases/search', { ...cases, size: 200 });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data.total as number;
    };
    let checked = 0;
    for (const [statisticId, filters] of [
      ['susarBySoc', { received: { from: '20260301' } }],
      ['trendSeriousQuarter', { country: ['CN', 'US'] }],
      ['byAgeGroup', { projectIds: ['p2'], serious: [false] }],
      ['byWorkflowNode', {}],
      ['susarFatalLifeThreatening', { serious: [true] }],
    ] as const) {
      const answer = await entry.call('POST', '/analytics/statistic', { statisticId, filters });
      for (const row of answer.body.data.rows.filter((r: { key: Record<string, unknown> }) =>
        Object.values(r.key).every((v) => v !== null),
      )) {
        expect(row.cases, `${statisticId} ${JSON.stringify(row.key)}`).toBeDefined();
        expect(await listed(row.cases), `${statisticId} ${JSON.stringify(row.key)}`).toBe(row.count);
        checked++;
      }
    }
    const tree = await entry.call('POST', '/analytics/events', {});
    type Node = {
      code: string | null;
      count: number;
      children: Node[];
      cases?: { tab: string; filters: Record<string, unknown> };
    };
    const soc = (tree.body.data.nodes as Node[]).find((n) => n.code !== null && n.cases)!;
    expect(await listed(soc.cases!)).toBe(soc.count);
    expect(await listed(soc.children[0]!.cases!)).toBe(soc.children[0]!.count);
    expect(checked).toBeGreaterThan(10);
    // A product filter goes through the list's exact drug filter (trends.test.ts checks products).
    const product = await entry.call('POST', '/analytics/statistic', {
      statisticId: 'byReportType',
      filters: { product: ['Aspirin'] },
    });
    for (const row of product.body.data.rows) expect(await listed(row.cases)).toBe(row.count);
    // Fatal / life-threatening crossed with SOC: the class's list filter (kept in the summary) and the SOC's.
    const classes = await entry.call('POST', '/analytics/pivot', {
      dimensions: ['fatalLifeThreatening', 'soc'],
      filters: { country: ['CN'] },
    });
    for (const row of classes.body.data.rows.filter(
      (r: { key: Record<string, unknown> }) => r.key.soc !== null,
    ))
      expect(await listed(row.cases), JSON.stringify(row.key)).toBe(row.count);
    // Outcomes (E.i.7, a case under each outcome some reaction has) and concomitant drugs (G.k.1 2):
    // their own exact list filters.
    for (const dimensions of [['outcome', 'sex'], ['concomitant']]) {
      const pivot = await entry.call('POST', '/analytics/pivot', {
        dimensions,
        filters: { country: ['CN'] },
      });
      const rows = pivot.body.data.rows.filter((r: { key: Record<string, unknown> }) =>
        Object.values(r.key).every((v) => v !== null),
      );
      expect(rows.length, dimensions.join()).toBeGreaterThan(1);
      for (const row of rows) expect(await listed(row.cases), JSON.stringify(row.key)).toBe(row.count);
    }
    // A pivot's margins: a SOC's column total (sex is one value per case) lists exactly its cases;
    // a sex's row total counts only cases with a reaction, which the list cannot say: no link.
    const crossed = await entry.call('POST', '/analytics/pivot', {
      dimensions: ['sex', 'soc'],
      filters: { country: ['CN'] },
    });
    const { rows: bySex, columns: bySoc } = crossed.body.data.margins;
    expect(bySex.filter((r: { cases?: unknown }) => r.cases)).toEqual([]);
    const linked = bySoc.filter((r: { key: Record<string, unknown> }) => r.key.soc !== null);
    expect(linked.length).toBeGreaterThan(1);
    for (const row of linked) expect(await listed(row.cases), JSON.stringify(row.key)).toBe(row.count);
  });

  it("flags signals by the caller's tenant's thresholds; another tenant keeps its own", async () => {
    // Tenant t2: the same cases in its own project t2p (ids are unique across tenants), where entry works too.
    const t2 = rig.store.tenant('t2', { userId: 'system:test' });
    await t2.collection<Record<string, unknown>>('projects').insertOne({ ...demoProject('t2p') });
    await t2
      .collection('projectMembers')
      .insertOne({ projectId: 't2p', userId: 'entry', roleIds: [], permissionKeys: [] });
    await t2
      .collection('cases')
      .insertMany(
        docs.map((d) => ({ ...d, _id: `t2-${d._id}`, report: { ...d.report, studyProjectId: 't2p' } })),
      );
    type Row = Parameters<typeof signalFlags>[1] & { drug: string; event: string; a: number; flags: unknown };
    const signals = async (tenant: string) => {
      const answer = await rig.as('entry', tenant).call('POST', '/analytics/signals', { by: 'pt' });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.data as { thresholds: SignalThresholds; rows: Row[] };
    };
    const flaggedBy = (rows: Row[], thresholds: SignalThresholds) =>
      rows.map((r) => signalFlags(r.a, r, thresholds));
    const flagged = (rows: Row[]) => rows.filter((r) => JSON.stringify(r.flags).includes('true')).length;

    const before = await signals('t1');
    const read = await rig.as('entry').call('GET', '/analytics/thresholds');
    expect(read.body.data).toEqual({ ...DEFAULT_SIGNAL_THRESHOLDS, rev: null });
    expect(before.thresholds).toEqual(DEFAULT_SIGNAL_THRESHOLDS);
    expect(before.rows.map((r) => r.flags)).toEqual(flaggedBy(before.rows, DEFAULT_SIGNAL_THRESHOLDS));

    const looser = { minCases: 1, prr: 1, chi2: 0, rorLower: 0.5, ic025: -1 };
    const saved = await rig.as('entry').call('PUT', '/analytics/thresholds', { ...looser, rev: null });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const after = await signals('t1');
    expect(after.thresholds).toEqual(looser);
    expect(after.rows.map((r) => r.flags)).toEqual(flaggedBy(after.rows, looser));
    expect(flagged(after.rows)).toBeGreaterThan(flagged(before.rows));

    const other = await signals('t2');
    expect(other.thresholds).toEqual(DEFAULT_SIGNAL_THRESHOLDS);
    expect(other.rows.map((r) => r.flags)).toEqual(flaggedBy(other.rows, DEFAULT_SIGNAL_THRESHOLDS));

    // A save naming no revision after one exists, a stale revision, a bad value: refused, nothing changed.
    const again = await rig
      .as('entry')
      .call('PUT', '/analytics/thresholds', { ...looser, prr: 3, rev: null });
    expect(again.status).toBe(409);
    const stale = await rig
      .as('entry')
      .call('PUT', '/analytics/thresholds', { ...looser, prr: 3, rev: saved.body.data.rev - 1 });
    expect(stale.status).toBe(409);
    const bad = await rig
      .as('entry')
      .call('PUT', '/analytics/thresholds', { ...looser, prr: -1, rev: saved.body.data.rev }, 'cn');
    expect(bad.status).toBe(400);
    expect((await rig.as('entry').call('GET', '/analytics/thresholds')).body.data).toEqual({
      ...looser,
      rev: saved.body.data.rev,
    });
  });

  it('exports a statistic as Word and PDF download tasks: title, filters and table', async () => {
    const filters = { country: ['CN'] };
    const shown = await rig
      .as('entry')
      .call('POST', '/analytics/statistic', { statisticId: 'byReportType', filters });
    const tasks: Record<string, string> = {};
    for (const format of ['docx', 'pdf'] as const) {
      const started = await rig
        .as('entry')
        .call('POST', '/analytics/statistic/export', { statisticId: 'byReportType', filters, format }, 'cn');
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      tasks[format] = started.body.data.taskId;
    }
    const refused = await rig.as('entry').call('POST', '/analytics/statistic/export', {
      statisticId: 'byReportType',
      format: 'pdf',
      filters: { projectIds: ['p3'] },
    });
    expect(refused.status).toBe(403);
    await runner.tick();
    await runner.idle();
    const file = async (taskId: string) => {
      const res = await rig.platform.app.request(`/api/downloads/tasks/${taskId}/file`, {
        headers: { authorization: 'Bearer t1:entry' },
      });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const word = (await mammoth.extractRawText({ buffer: await file(tasks.docx!) })).value;
    const pdf = squash((await readPdf(new Uint8Array(await file(tasks.pdf!)))).pages.join(''));
    const rows = shown.body.data.rows as { labels: { reportType: string }; count: number }[];
    expect(rows.length).toBeGreaterThan(1);
    for (const text of [squash(word), pdf]) {
      expect(text).toContain(squash(shown.body.data.labels.zh));
      expect(text).toContain(squash(`共 ${shown.body.data.total} 例`));
      // The filter by its name and the country's (not its code).
      expect(text).toContain(squash('发生国家：中国'));
    }
    // The rows in the caller's language with their counts, in the Word table's order.
    const zhRows = await rig
      .as('entry')
      .call('POST', '/analytics/statistic', { statisticId: 'byReportType', filters }, 'cn');
    expect(squash(word)).toContain(
      squash(
        zhRows.body.data.rows
          .map(
            (r: { labels: { reportType: string }; count: number }) =>
              `${r.labels.reportType}${r.count}${((100 * r.count) / zhRows.body.data.total).toFixed(1)}%`,
          )
          .join(''),
      ),
    );
  }, 120_000);
});

describe.skipIf(!testBackendWanted('mongodb'))('analytics on MongoDB', () => {
  let mongo: Rig;
  beforeAll(async () => {
    mongo = await analyticsRig(USERS, { backend: 'mongodb' });
    await seedCases(mongo);
  });
  afterAll(() => mongo?.close());

  it('every statistic and pivot equals a brute-force count over 1,000 random cases for 200 filter combinations', () =>
    bruteForce(mongo));

  it('the signal table equals the engine counting the same case documents (by PT and by SOC)', () =>
    checkSignals(mongo));

  it('the event-level tree counts each case once per SOC, HLGT, HLT and PT on the primary path', () =>
    checkEventTree(mongo));
});
