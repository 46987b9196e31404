/**
 * Case list over case summaries: N cases of one tenant (BENCH_CASE_LIST_CASES, default 20 000),
 * first pages of varied list queries (tab, drug-name "contains", first-receipt date range, sort by
 * C.1.4) through the store port as the /cases/search route runs them. Floor: reading one page of
 * 20 summaries by primary key with hand-written SQL on the same file (no filter, no sort).
 * Target: p95 <= 50 ms per page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../server/src/store/index';
import { caseCollections, C } from '../../server/src/cases/collections';
import { buildSummary } from '../../server/src/cases/summary';
import type { CaseSummary } from '../../server/src/cases/summary';
import { listCases, TAB_IDS } from '../../server/src/cases/list';
import { demoCaseContent, REACTION_TERMS } from '../../server/src/cases/demo/factory';
import { demoProject } from '../../server/src/cases/testing';
import type { CaseDocument } from '../../server/src/cases/document';

const TOTAL = Number(process.env.BENCH_CASE_LIST_CASES ?? 20_000);
const QUERIES = 200;
const NODES = [
  'dataEntry',
  'dataQc',
  'medicalReview',
  'sponsorAudit',
  'createSubmissionPlan',
  'approveSubmissionPlan',
  'submissionTransmission',
];
const DRUGS = ['XY-101注射液', '氨氯地平片', '多西他赛注射液', '阿司匹林肠溶片', '二甲双胍片'];
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

// The machine is shared: the load average says how far the figures are from an idle machine's.
const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const loadAtStart = loadAverage();
const dir = mkdtempSync(join(tmpdir(), 'bench-case-list-'));
const store = await openStore({ dataDir: dir });
for (const definition of caseCollections) await store.define(definition);
const handle = store.tenant('bench', { userId: 'system:bench' });
const today = new Date('2026-11-21T00:00:00Z');
const project = demoProject('p1');

const started = performance.now();
for (let batch = 0; batch < TOTAL; batch += 1000) {
  const docs = [];
  for (let n = batch; n < Math.min(TOTAL, batch + 1000); n++) {
    const content = demoCaseContent({
      n,
      project: { ...project, drugs: [{ ...project.drugs[0]!, drugName: pick(DRUGS) }, project.drugs[1]!] },
      today,
      receivedDaysAgo: Math.floor(random() * 700),
      reactionIndex: Math.floor(random() * REACTION_TERMS.length),
      susar: random() < 0.2,
    });
    const doc = {
      ...content,
      state: {
        ...(content.state as object),
        workflowNode: pick(NODES),
        handlerId: `user-${Math.floor(random() * 30)}`,
        isCompleted: random() < 0.3,
        validity: random() < 0.05 ? 'deleted' : 'valid',
        isLocked: false,
        version: 1,
        versionType: random() < 0.2 ? 'followUp' : 'initial',
        updatedAt: new Date(today.getTime() - Math.floor(random() * 1e10)).toISOString(),
      },
      report: {
        ...(content.report as object),
        reportCode: `CN-BENCH-${String(n).padStart(8, '0')}`,
        studyProjectId: 'p1',
      },
    } as unknown as CaseDocument;
    docs.push(buildSummary(`case-${String(n).padStart(8, '0')}`, doc));
  }
  await handle.collection<Omit<CaseSummary, '_id'>>(C.summaries).insertMany(docs);
}
console.log(`inserted ${TOTAL} case summaries in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const db = new Database(join(dir, 'store.sqlite'), { readonly: true });
const table = (
  db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%caseSummaries'`).get() as {
    name: string;
  }
).name;
const floorSql = db.prepare(
  `SELECT _id, doc FROM "${table}" WHERE tenantId = ? AND _id >= ? ORDER BY _id LIMIT 20`,
);

const storeTimes: number[] = [];
const floorTimes: number[] = [];
let rows = 0;
for (let q = 0; q < QUERIES; q++) {
  const filters: Record<string, unknown> = {};
  if (process.env.BENCH_NO_TEXT !== '1' && random() < 0.5)
    filters.drugName = pick(DRUGS).slice(0, 2 + Math.floor(random() * 3));
  if (random() < 0.5) {
    const from = new Date(today.getTime() - Math.floor(random() * 600) * 86_400_000);
    filters.reportDateFirst = { from: from.toISOString().slice(0, 10), to: today.toISOString().slice(0, 10) };
  }
  const query = {
    tab: pick(TAB_IDS),
    filters,
    sort: { column: 'reportDateFirst', direction: 'desc' as const },
    page: 1,
    size: 20,
  };
  let t = performance.now();
  const page = await listCases(handle, query, []);
  storeTimes.push(performance.now() - t);
  rows += page.items.length;
  t = performance.now();
  const floor = floorSql.all('bench', `case-${String(Math.floor(random() * TOTAL)).padStart(8, '0')}`) as {
    doc: string;
  }[];
  for (const row of floor) JSON.parse(row.doc);
  floorTimes.push(performance.now() - t);
}
const sortedStore = [...storeTimes].sort((a, b) => a - b);
const sortedFloor = [...floorTimes].sort((a, b) => a - b);
const p50 = percentile(sortedStore, 50);
const p95 = percentile(sortedStore, 95);
const f95 = percentile(sortedFloor, 95);
console.log(
  `${QUERIES} list pages, ${(rows / QUERIES).toFixed(1)} rows each on average (total counted for every page)`,
);
console.log(
  `  store p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms; floor p50 ${percentile(sortedFloor, 50).toFixed(2)} ms, p95 ${f95.toFixed(2)} ms`,
);
console.log(
  `load average (1, 5, 15 min) at start ${loadAtStart}, at end ${loadAverage()} on ${cpus().length} cores`,
);
console.log(
  `BENCH case-list-p95 ${p95.toFixed(2)} ms floor ${f95.toFixed(2)} ms ratio ${(p95 / f95).toFixed(2)} target <=50ms ${p95 <= 50 ? 'met' : 'missed'}`,
);
db.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
