/**
 * Submitted trends, on-time submission and drill-down by product (issue 22), on one case rig:
 * - the submitted statistics (month, quarter, timeliness) equal a brute-force count over the case
 *   documents and the transmissions the test recorded (through cases' recordCaseTransmissions, due
 *   dates from submission plans), under random filters, for an unblinded and a blinded reader;
 * - product rows, product x SOC cells and signal pairs open the case list on exactly their cases
 *   (the list's total equals the count), and a blinded reader's links never name a blinded drug.
 *
 * Backends: everything on the embedded store; the submitted statistics' brute force also on MongoDB
 * when MONGODB_URI is set (the FerretDB step of `npm test`), over copies of the cases and summaries
 * the embedded rig recorded (recording hundreds of transmissions one by one takes minutes there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCasesModule, recordCaseTransmissions } from '../cases';
import type { CaseTransmissionMove } from '../cases';
import { buildSummary, caseRig, demoProject } from '../cases/testing';
import { testBackendWanted } from '../http/test-store';
import type { TestBackend } from '../http/test-store';
import { exportsModule } from '../exports';
import { projectsModule } from '../projects';
import { reportCodesModule } from '../report-codes';
import { createSubmissionsModule } from '../submissions';
import { createUnblindingModule } from '../unblinding';
import { workflowModule } from '../workflow';
import { analyticsModule } from './index';
import type { AnalyticsFilters as Filters } from './service';

/** The case rig with projects p2, p3 and p4 (entry and blind work in p1, p2 and p4). */
async function trendsRig(backend: TestBackend) {
  const opened = await caseRig({
    backend,
    users: [
      { id: 'entry', name: 'Entry' },
      { id: 'blind', name: 'Blind reader', deny: ['activecase:blindBottom'] },
    ],
    modules: [
      createCasesModule(),
      reportCodesModule,
      workflowModule,
      projectsModule,
      exportsModule,
      createSubmissionsModule(),
      createUnblindingModule(),
      analyticsModule,
    ],
  });
  const t1 = opened.store.tenant('t1', { userId: 'system:test' });
  await t1
    .collection<Record<string, unknown>>('projects')
    .insertMany([{ ...demoProject('p2') }, { ...demoProject('p3') }, { ...demoProject('p4') }]);
  for (const projectId of ['p2', 'p4'])
    for (const userId of ['entry', 'blind'])
      await t1.collection('projectMembers').insertOne({ projectId, userId, roleIds: [], permissionKeys: [] });
  return opened;
}
type Rig = Awaited<ReturnType<typeof trendsRig>>;
const rig = await trendsRig('embedded');
afterAll(() => rig.close());
const handle = rig.store.tenant('t1', { userId: 'system:test' });

let seed = 2211;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const some = <T>(values: readonly T[], max: number): T[] => [
  ...new Set(Array.from({ length: Math.floor(random() * (max + 1)) }, () => pick(values))),
];
const day = (month: number, d: number) =>
  `2026-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

// Study drug A and Placebo are always blinded (study drugs); Aspirin only where marked G.k.2.5.
const PRODUCTS = ['Study drug A', 'Placebo', 'Aspirin', 'Metformin'];
const SOCS = ['10017947', '10029205', '10022891'];
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- random test documents

const docs: Doc[] = Array.from({ length: 300 }, (_, i) => ({
  _id: `case-${i}`,
  state: {
    validity: pick(['valid', 'valid', 'valid', 'invalid', 'deleted']),
    isSae: random() < 0.4,
    isSusar: random() < 0.3,
    version: pick([1, 1, 2]),
  },
  report: {
    reportCode: `T${i}`,
    studyProjectId: pick(['p1', 'p1', 'p2', 'p3', 'p4']),
    reportType: pick(['1', '2']),
    reportDateFirst: `2026${String(1 + Math.floor(random() * 6)).padStart(2, '0')}15`,
    happenCountry: pick(['CN', 'US']),
  },
  patient: {
    gender: pick(['1', '2']),
    ...(random() < 0.85
      ? { age: Math.floor(random() * 90), ageUnit: pick(['a', 'a', 'a', 'mo', 'd', 'h']) }
      : {}),
    ...(random() < 0.8 ? { ageGroup: pick(['3', '5', '6']) } : {}),
  },
  drugs: Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
    const name = pick(PRODUCTS);
    return {
      drugName: name,
      drugCharacterisation: pick(['1', '1', '2', '3']),
      ...(name === 'Study drug A' || name === 'Placebo' ? { isClinicalDrug: true } : {}),
      ...(name === 'Aspirin' && random() < 0.3 ? { isBlind: true } : {}),
    };
  }),
  reactions: Array.from({ length: Math.floor(random() * 3) }, () => {
    const soc = pick(SOCS);
    // Onsets: days (some with a time), partial dates, a null flavor, none.
    const onset = pick(['day', 'day', 'time', 'month', 'year', 'masked', 'none']);
    const month = String(1 + Math.floor(random() * 12)).padStart(2, '0');
    const d = String(1 + Math.floor(random() * 28)).padStart(2, '0');
    const startDate = {
      day: `2026${month}${d}`,
      time: `2026${month}${d}1230`,
      month: `2026${month}`,
      year: pick(['2025', '2026']),
      masked: { nullFlavor: 'MSK' },
      none: undefined,
    }[onset];
    return { meddraSocCode: soc, meddraPtCode: `${soc}1`, ...(startDate ? { startDate } : {}) };
  }),
}));
await handle.collection('cases').insertMany(docs);
await handle
  .collection('caseSummaries')
  .insertMany(docs.map((d) => buildSummary(d._id, d as never, null) as unknown as Record<string, unknown>));

/**
 * Deliveries: about 60% of the cases go to one or two receivers, some also a follow-up version, a
 * few rejected and resubmitted; plans (some with due dates) carry the due dates.
 */
interface Sent {
  caseId: string;
  receiverId: string;
  version: number;
  at: string;
  status: CaseTransmissionMove['status'];
}
const sent: Sent[] = [];
const plans: { caseId: string; receiverId: string; caseVersion: number; dueDate: string | null }[] = [];
for (const doc of docs) {
  if (random() < 0.4) continue;
  for (const receiverId of random() < 0.3 ? ['cde', 'fda'] : [pick(['cde', 'fda'])]) {
    for (const version of random() < 0.2 ? [1, 2] : [1]) {
      const month = 1 + Math.floor(random() * 12);
      const at = `${day(month, 1 + Math.floor(random() * 28))}T${pick(['01', '23'])}:30:00.000Z`;
      const due = random() < 0.7 ? day(month, 1 + Math.floor(random() * 28)) : null;
      if (random() < 0.8) plans.push({ caseId: doc._id, receiverId, caseVersion: version, dueDate: due });
      sent.push({ caseId: doc._id, receiverId, version, at, status: 'sent' });
      if (random() < 0.15) {
        sent.push({ caseId: doc._id, receiverId, version, at, status: 'rejected' });
        sent.push({
          caseId: doc._id,
          receiverId,
          version,
          at: `${day(12, 28)}T00:00:00.000Z`,
          status: 'resubmitted',
        });
      }
    }
  }
}
await handle.collection('submissionPlans').insertMany(
  plans.map((p, i) => ({
    _id: `plan-${i}`,
    ...p,
    isSubmit: true,
    batchId: 'b',
    projectId: 'p1',
    reportCode: '',
    receiverName: p.receiverId,
    receiverIdentifier: p.receiverId,
    state: 'approved',
  })),
);
// Recorded in time order, as sends happen (a later move never comes first).
for (const move of [...sent].sort((a, b) => a.at.localeCompare(b.at)))
  await recordCaseTransmissions(
    handle,
    { userId: 'submitter', name: null },
    [
      {
        caseId: move.caseId,
        status: move.status,
        receiverId: move.receiverId,
        receiverName: move.receiverId,
        receiverIdentifier: move.receiverId,
        batchId: 'b',
        exportId: `x-${move.caseId}-${move.receiverId}`,
        fileName: 'f.xml',
        version: move.version,
      },
    ],
    new Date(move.at),
  );

/** The brute force of the submission facts: first delivery per receiver and version, due dates from the plans. */
function submittedOf(caseId: string): { day: string; timeliness: string } | null {
  const first = new Map<string, Sent>();
  for (const s of [...sent].sort((a, b) => a.at.localeCompare(b.at)))
    if (s.caseId === caseId && s.status !== 'rejected' && !first.has(`${s.receiverId}/${s.version}`))
      first.set(`${s.receiverId}/${s.version}`, s);
  if (!first.size) return null;
  const reports = [...first.values()].map((s) => {
    const due = plans
      .filter(
        (p) =>
          p.caseId === caseId && p.receiverId === s.receiverId && p.caseVersion === s.version && p.dueDate,
      )
      .map((p) => p.dueDate!)
      .sort()[0];
    return { day: s.at.slice(0, 10), due };
  });
  const dated = reports.filter((r) => r.due);
  return {
    day: reports
      .map((r) => r.day)
      .sort()[0]!
      .replace(/-/g, ''),
    timeliness: !dated.length ? 'noDueDate' : dated.some((r) => r.day > r.due!) ? 'late' : 'onTime',
  };
}

// p1: the administrator's bands on the project form (set in 'age groups' below); p4: other bands,
// one range shared with p1; p2: no rule (D.2.3 as reported).
const P1 = [
  { nameZh: '未成年', nameEn: 'Minors', fromYears: 0, toYears: 18 },
  { nameZh: '成人', nameEn: 'Adults', fromYears: 18, toYears: 65 },
  { nameZh: '老年', nameEn: 'Elderly', fromYears: 65 },
];
const P4 = [
  { nameZh: '65岁以下', nameEn: 'Under 65', fromYears: 0, toYears: 65 },
  { nameZh: '65岁及以上', nameEn: '65 and over', fromYears: 65 },
];
const RULES: Record<string, typeof P1> = { p1: P1, p4: P4 };
const PER_YEAR: Record<string, number> = { a: 1, mo: 12, d: 365, h: 8760 };

/** The age group of a case as the project's rule places it (the `ageStratum` dimension's key). */
function stratumOf(doc: Doc): string | null {
  const rule = RULES[doc.report.studyProjectId];
  const { age, ageUnit, ageGroup } = doc.patient;
  if (!rule) return ageGroup ? `D.2.3:${ageGroup}` : null;
  const years = typeof age === 'number' && PER_YEAR[ageUnit] ? age / PER_YEAR[ageUnit] : null;
  const band =
    years === null
      ? undefined
      : rule.find((b) => years >= b.fromYears && (b.toYears === undefined || years < b.toYears));
  return band ? `${band.fromYears}-${band.toYears ?? ''}` : null;
}

/** A start date's whole period as days: YYYY its year, YYYYMM its month, longer its day. */
function periodOf(date: unknown): [string, string] | null {
  if (typeof date !== 'string') return null;
  if (date.length === 4) return [`${date}0101`, `${date}1231`];
  if (date.length === 6) {
    const last = new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(4)), 0)).getUTCDate();
    return [`${date}01`, `${date}${last}`];
  }
  return [date.slice(0, 8), date.slice(0, 8)];
}

const onsetIn = (doc: Doc, range: { from?: string; to?: string }) =>
  doc.reactions.some((r: Doc) => {
    const period = periodOf(r.startDate);
    return !!period && (!range.from || range.from <= period[0]) && (!range.to || period[1] <= range.to);
  });

const blindedDrug = (d: Doc) => d.isClinicalDrug === true || d.isBlind === true;

function selected(filters: Filters, blinded: boolean): Doc[] {
  const projects = filters.projectIds?.length ? filters.projectIds : ['p1', 'p2', 'p4'];
  return docs.filter(
    (doc) =>
      doc.state.validity === 'valid' &&
      projects.includes(doc.report.studyProjectId) &&
      (!filters.received?.from || doc.report.reportDateFirst >= filters.received.from) &&
      (!filters.received?.to || doc.report.reportDateFirst <= filters.received.to) &&
      (!filters.reportType?.length || filters.reportType.includes(doc.report.reportType)) &&
      (!filters.serious?.length || filters.serious.includes(doc.state.isSae)) &&
      (!filters.country?.length || filters.country.includes(doc.report.happenCountry)) &&
      (!filters.sex?.length || filters.sex.includes(doc.patient.gender)) &&
      (!filters.ageStratum?.length || filters.ageStratum.includes(stratumOf(doc)!)) &&
      (!(filters.onset?.from || filters.onset?.to) || onsetIn(doc, filters.onset)) &&
      (!filters.product?.length ||
        doc.drugs.some((d: Doc) => filters.product!.includes(d.drugName) && !(blinded && blindedDrug(d)))),
  );
}

const quarterOf = (month: string) => `${month.slice(0, 4)}Q${Math.ceil(Number(month.slice(4)) / 3)}`;

function bruteSubmitted(statisticId: string, filters: Filters, blinded: boolean) {
  const counts = new Map<string, number>();
  let total = 0;
  for (const doc of selected(filters, blinded)) {
    const facts = submittedOf(doc._id);
    if (!facts) continue;
    total++;
    const key =
      statisticId === 'trendSubmitted'
        ? facts.day.slice(0, 6)
        : statisticId === 'trendSubmittedQuarter'
          ? quarterOf(facts.day.slice(0, 6))
          : facts.timeliness;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return { total, rows: [...counts].map(([k, n]) => `${k}:${n}`).sort() };
}

function randomFilters(): Filters {
  const f: Filters = {};
  if (random() < 0.3) f.projectIds = [pick(['p1', 'p2', 'p4'])];
  if (random() < 0.3) f.received = { from: `2026${String(1 + Math.floor(random() * 6)).padStart(2, '0')}01` };
  if (random() < 0.3) f.reportType = [pick(['1', '2'])];
  if (random() < 0.3) f.serious = [random() < 0.5];
  if (random() < 0.3) f.country = [pick(['CN', 'US'])];
  if (random() < 0.2) f.sex = [pick(['1', '2'])];
  if (random() < 0.3) f.product = some(PRODUCTS, 2);
  return f;
}

type Link = { tab: string; filters: Record<string, unknown>; any?: Record<string, unknown>[] };
const listedOn = async (target: Rig, cases: Link) => {
  const answer = await target.as('entry').call('POST', '/cases/search', { ...cases, size: 1 });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.total as number;
};
const listed = (cases: Link) => listedOn(rig, cases);

/**
 * The submitted statistics (month, quarter, timeliness) against the brute force under 45 filter
 * combinations, a blinded reader every fourth; with `links`, the first rows open the list on
 * exactly their cases (about 60 list requests: a minute on FerretDB, so the MongoDB run leaves them).
 */
async function checkSubmitted(target: Rig, links: boolean): Promise<void> {
  expect(sent.length).toBeGreaterThan(100);
  const seen = new Set<string>();
  for (let i = 0; i < 45; i++) {
    const statisticId = ['trendSubmitted', 'trendSubmittedQuarter', 'bySubmissionTimeliness'][i % 3]!;
    const blinded = i % 4 === 3;
    const filters = i < 3 ? {} : randomFilters();
    const answer = await target
      .as(blinded ? 'blind' : 'entry')
      .call('POST', '/analytics/statistic', { statisticId, filters });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const expected = bruteSubmitted(statisticId, filters, blinded);
    const rows = answer.body.data.rows as {
      key: Record<string, string>;
      count: number;
      labels: Record<string, string>;
    }[];
    expect(answer.body.data.total, `${statisticId} ${JSON.stringify(filters)}`).toBe(expected.total);
    expect(rows.map((r) => `${Object.values(r.key)[0]}:${r.count}`).sort()).toEqual(expected.rows);
    for (const r of rows) seen.add(Object.values(r.labels)[0]!);
    // Each row opens the list on its cases: submitted day range (month, quarter) or timeliness.
    if (links && i < 9)
      for (const r of rows as ((typeof rows)[number] & { cases: Link })[])
        expect(await listedOn(target, r.cases), `${statisticId} ${JSON.stringify(r.key)}`).toBe(r.count);
  }
  // Timeliness reads as words, never codes; all three occur.
  for (const label of ['Submitted on time', 'Submitted late', 'No due date']) expect(seen).toContain(label);
  // Months and quarters read as a reader writes them (2026-03, 2026 Q1), not as their keys.
  expect([...seen].some((l) => /^\d{4}-\d{2}$/.test(l))).toBe(true);
  expect([...seen].some((l) => /^\d{4} Q[1-4]$/.test(l))).toBe(true);
  expect([...seen].filter((l) => /^\d{6}$|^\d{4}Q\d$/.test(l))).toEqual([]);
  const zh = await target
    .as('entry')
    .call('POST', '/analytics/statistic', { statisticId: 'bySubmissionTimeliness' }, 'cn');
  expect(
    zh.body.data.rows.map((r: { labels: Record<string, string> }) => r.labels.submissionTimeliness).sort(),
  ).toEqual(['按时递交', '无递交时限', '逾期递交'].sort());
}

describe.skipIf(!testBackendWanted('embedded'))('submitted statistics', () => {
  it('equal a brute-force count over the documents and recorded transmissions under random filters', () =>
    checkSubmitted(rig, true));

  it('are not offered to the cross-tabulation', async () => {
    const answer = await rig.as('entry').call('POST', '/analytics/pivot', { dimensions: ['submittedMonth'] });
    expect(answer.status).toBe(400);
  });
});

describe.skipIf(!testBackendWanted('embedded'))('drill-down by product', () => {
  it('product rows, product x SOC cells, concomitant drugs and signal pairs open the list on exactly their cases; blinded links name no blinded drug', async () => {
    let checked = 0;
    for (let i = 0; i < 6; i++) {
      const who = i % 2 ? 'blind' : 'entry';
      const filters = i < 2 ? {} : randomFilters();
      const answers = [
        await rig.as(who).call('POST', '/analytics/statistic', { statisticId: 'susarByProduct', filters }),
        await rig.as(who).call('POST', '/analytics/pivot', { dimensions: ['product', 'soc'], filters }),
        // Each concomitant drug (G.k.1 2) beside each suspect product of the same case.
        await rig
          .as(who)
          .call('POST', '/analytics/statistic', { statisticId: 'concomitantByProduct', filters }),
      ];
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        for (const row of answer.body.data.rows as {
          key: Record<string, unknown>;
          count: number;
          cases?: Link;
        }[]) {
          if (Object.values(row.key).some((value) => value === 'BLINDED' || value === null)) {
            expect(row.cases).toBeUndefined();
            continue;
          }
          expect(row.cases, JSON.stringify(row.key)).toBeDefined();
          expect(
            await listed(row.cases!),
            `${who} ${JSON.stringify(row.key)} ${JSON.stringify(filters)}`,
          ).toBe(row.count);
          if (who === 'blind') {
            expect(JSON.stringify(row.cases)).not.toMatch(/Study drug A|Placebo/);
            expect(row.cases!.filters.openSuspectDrug).toEqual([row.key.product]);
            if ('concomitant' in row.key)
              expect(row.cases!.filters.openConcomitantDrug).toEqual([row.key.concomitant]);
          }
          checked++;
        }
      }
      for (const by of ['pt', 'soc']) {
        const signals = await rig.as(who).call('POST', '/analytics/signals', { by, filters });
        expect(signals.status, JSON.stringify(signals.body)).toBe(200);
        for (const row of signals.body.data.rows as { drug: string; a: number; cases?: Link }[]) {
          if (row.drug === 'BLINDED') {
            expect(row.cases).toBeUndefined();
            continue;
          }
          expect(await listed(row.cases!), `${who} ${by} ${row.drug}`).toBe(row.a);
          if (who === 'blind') expect(JSON.stringify(row.cases)).not.toMatch(/Study drug A|Placebo/);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe.skipIf(!testBackendWanted('embedded'))('age groups by the project rule', () => {
  function bruteStrata(filters: Filters, blinded: boolean, bySex: boolean) {
    const counts = new Map<string, number>();
    for (const doc of selected(filters, blinded)) {
      const key = stratumOf(doc);
      const id = bySex ? `${key}|${doc.patient.gender}` : String(key);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return [...counts].map(([k, n]) => `${k}:${n}`).sort();
  }

  it('the tenant administrator sets bands on the project form; overlapping bands are refused', async () => {
    const entry = rig.as('entry');
    const project = (await entry.call('GET', '/projects/p1')).body.data;
    const p = demoProject('p1');
    const put = (ageGroups: unknown) =>
      entry.call(
        'PUT',
        '/projects/p1',
        { code: p.code, name: p.name, studyType: p.studyType, ageGroups, rev: project.rev },
        'cn',
      );
    const overlapping = await put([P1[0], { ...P1[1], fromYears: 17 }]);
    expect(overlapping.status).toBe(400);
    expect(overlapping.body.msg).toContain('重叠');
    const saved = await put(P1);
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.ageGroups).toEqual(P1);
    await handle.collection('projects').updateOne({ _id: 'p4' }, { $set: { ageGroups: P4 } });
  });

  it("count each project's cases by its bands, D.2.3 where it has none, as a brute force does", async () => {
    for (let i = 0; i < 12; i++) {
      const blinded = i % 4 === 3;
      const filters = i < 2 ? {} : randomFilters();
      const bySex = i % 2 === 1;
      const answer = bySex
        ? await rig
            .as(blinded ? 'blind' : 'entry')
            .call('POST', '/analytics/pivot', { dimensions: ['ageStratum', 'sex'], filters })
        : await rig
            .as(blinded ? 'blind' : 'entry')
            .call('POST', '/analytics/statistic', { statisticId: 'byAgeStratum', filters });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const rows = answer.body.data.rows as { key: Record<string, unknown>; count: number }[];
      expect(
        rows.map((r) => `${bySex ? `${r.key.ageStratum}|${r.key.sex}` : r.key.ageStratum}:${r.count}`).sort(),
        JSON.stringify(filters),
      ).toEqual(bruteStrata(filters, blinded, bySex));
      // A band lists its projects' cases in its age range; a D.2.3 group the unruled projects' by code.
      for (const r of rows as { key: Record<string, unknown>; count: number; cases: Link }[])
        if (r.key.ageStratum !== null)
          expect(await listed(r.cases), `${JSON.stringify(r.key)} ${JSON.stringify(filters)}`).toBe(r.count);
    }
    // Bands read by their project's names (a range two projects share: one row), D.2.3 groups say so.
    const zh = await rig
      .as('entry')
      .call('POST', '/analytics/statistic', { statisticId: 'byAgeStratum' }, 'cn');
    const labels = zh.body.data.rows.map((r: { labels: { ageStratum: string } }) => r.labels.ageStratum);
    expect(labels).toEqual(expect.arrayContaining(['成人', '老年', '65岁以下', '成人（D.2.3）']));
    expect(labels.filter((l: string) => l === '老年' || l === '65岁及以上')).toHaveLength(1);
  });

  // Bounds at and beside period edges (a year's, a month's first and last days).
  const DAYS = ['20250101', '20251231', '20260101', '20260131', '20260201', '20260228', '20260301'];
  const BOUNDS = [...DAYS, '20260315', '20260331', '20260601', '20260630', '20260715', '20261231'];
  const KEYS = ['0-18', '18-65', '65-', '0-65', 'D.2.3:3', 'D.2.3:5'];

  it('age-group and onset filters select as a brute force does; their links list exactly the counted cases', async () => {
    let narrowed = 0;
    let ageLinked = 0;
    for (let i = 0; i < 14; i++) {
      const who = i % 4 === 3 ? 'blind' : 'entry';
      const filters: Filters = i < 3 ? {} : randomFilters();
      if (i % 2 === 0)
        filters.ageStratum = [pick(KEYS), ...some(KEYS, 1)].filter((k, j, all) => all.indexOf(k) === j);
      if (i % 3 !== 1) {
        const [a, b] = [pick(BOUNDS), pick(BOUNDS)].sort() as [string, string];
        filters.onset = i % 3 === 2 ? { from: a, to: b } : random() < 0.5 ? { from: a } : { to: b };
        // Whole years and a whole month at the bounds (partial dates of those periods count).
        if (i === 0) filters.onset = { from: '20260101' };
        if (i === 2) filters.onset = { from: '20250101', to: '20260131' };
      }
      const answer = await rig.as(who).call('POST', '/analytics/pivot', { dimensions: ['sex'], filters });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const expected = selected(filters, who === 'blind');
      const bySex = new Map<string, number>();
      for (const doc of expected) bySex.set(doc.patient.gender, (bySex.get(doc.patient.gender) ?? 0) + 1);
      const rows = answer.body.data.rows as { key: { sex: string }; count: number; cases?: Link }[];
      expect(answer.body.data.total, `${who} ${JSON.stringify(filters)}`).toBe(expected.length);
      expect(rows.map((r) => `${r.key.sex}:${r.count}`).sort()).toEqual(
        [...bySex].map(([k, n]) => `${k}:${n}`).sort(),
      );
      // Under an onset range and under age groups (alternatives when the rules differ) alike.
      for (const r of rows) {
        expect(r.cases, `${who} ${JSON.stringify(filters)}`).toBeDefined();
        expect(await listed(r.cases!), `${who} ${JSON.stringify(filters)}`).toBe(r.count);
        if (r.cases!.any) ageLinked++;
      }
      if (expected.length < docs.length / 3) narrowed++;
    }
    expect(narrowed).toBeGreaterThan(5);
    expect(ageLinked).toBeGreaterThan(0);
    // A band two rules share: both projects and the range; a gap, other rules, D.2.3 groups: alternatives.
    const link = async (ageStratum: string[]) => {
      const answer = await rig
        .as('entry')
        .call('POST', '/analytics/pivot', { dimensions: ['sex'], filters: { ageStratum } });
      const rows = answer.body.data.rows as { count: number; cases: Link }[];
      for (const r of rows) expect(await listed(r.cases)).toBe(r.count);
      return rows[0]!.cases;
    };
    expect((await link(['65-'])).filters).toMatchObject({ project: ['p1', 'p4'], ageYears: { from: 65 } });
    expect((await link(['0-18', '18-65'])).filters).toMatchObject({
      project: ['p1'],
      ageYears: { from: 0, to: 65 },
    });
    expect((await link(['0-18', '65-'])).any).toEqual([
      { project: ['p1'], ageYears: { from: 0, to: 18 } },
      { project: ['p1', 'p4'], ageYears: { from: 65 } },
    ]);
    expect((await link(['18-65', '0-65', 'D.2.3:3'])).any).toHaveLength(3);
    // Partial dates by whole period: a YYYYMM start in Jan 2026 counts for Jan 1-31, not Jan 1-30.
    const january = docs.filter((d) => d.reactions.some((r: Doc) => r.startDate === '202601'));
    expect(january.length).toBeGreaterThan(0);
  });

  it("offers the bands of the caller's projects; refuses a key that is none and a date that is none, translated", async () => {
    const zh = await rig.as('entry').call('GET', '/analytics/declarations', undefined, 'cn');
    const options = zh.body.data.filters.find((f: { id: string }) => f.id === 'ageStratum').options;
    expect(options).toEqual(expect.arrayContaining([{ code: '18-65', zh: '成人', en: 'Adults' }]));
    expect(options.map((o: { code: string }) => o.code)).toEqual(expect.arrayContaining(['0-65', 'D.2.3:5']));
    const refused = async (filters: unknown, text?: string) => {
      const answer = await rig
        .as('entry')
        .call('POST', '/analytics/pivot', { dimensions: ['sex'], filters }, 'cn');
      expect(answer.status, JSON.stringify(filters)).toBe(400);
      if (text) expect(answer.body.msg).toContain(text);
    };
    await refused({ ageStratum: ['7-9'] }, '年龄分层');
    await refused({ ageStratum: ['adults'] });
    await refused({ onset: { from: '20261340' } }, '有效日期');
    await refused({ onset: { to: '2026-01-01' } });
    const submitted = (filters: Filters) =>
      rig.as('entry').call('POST', '/analytics/statistic', { statisticId: 'trendSubmitted', filters });
    expect((await submitted({ ageStratum: ['7-9'] })).status).toBe(400);
    // Counted through the case list's filters: a day that is none is refused there as well.
    expect((await submitted({ onset: { from: '20260230' } })).status).toBe(400);
    expect((await submitted({ received: { to: '20261341' } })).status).toBe(400);
    // Under an onset range and under age groups (alternatives of rules) the submitted statistics
    // count through the list's filters, as a brute force does, and their rows list their cases.
    for (const filters of [
      { onset: { from: '20260201', to: '20260630' } },
      { ageStratum: ['0-18', '65-', 'D.2.3:3'] },
    ] as Filters[]) {
      const answer = await submitted(filters);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const expected = bruteSubmitted('trendSubmitted', filters, false);
      const rows = answer.body.data.rows as { key: { submittedMonth: string }; count: number; cases: Link }[];
      expect(answer.body.data.total).toBe(expected.total);
      expect(rows.map((r) => `${r.key.submittedMonth}:${r.count}`).sort()).toEqual(expected.rows);
      for (const r of rows) expect(await listed(r.cases)).toBe(r.count);
    }
    // Nothing is left out of the page under these filters.
    const statistics = zh.body.data.statistics as { id: string; refuses?: string[] }[];
    expect(statistics.find((s) => s.id === 'trendSubmitted')?.refuses).toBeUndefined();
    expect(statistics.find((s) => s.id === 'byAgeStratum')?.refuses).toBeUndefined();
  });
});

describe.skipIf(!testBackendWanted('mongodb'))('submitted statistics on MongoDB', () => {
  let mongo: Rig;
  beforeAll(async () => {
    mongo = await trendsRig('mongodb');
    const t1 = mongo.store.tenant('t1', { userId: 'system:test' });
    for (const name of ['cases', 'caseSummaries', 'submissionPlans'])
      await t1.collection(name).insertMany(await handle.collection(name).find({}));
  });
  afterAll(() => mongo?.close());

  it('equal a brute-force count over the documents and recorded transmissions under random filters', () =>
    checkSubmitted(mongo, false));
});
