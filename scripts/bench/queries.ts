/**
 * `npm run bench -- queries` (issue 17): BENCH_QUERIES_CASES (default 100,000) cases with three
 * queries each (300,000) in 5 tenants, the queried one holding 60% of them. Figures, each the p95
 * of BENCH_QUERIES_RUNS requests (default 30) through the app in process with a bearer token
 * (membership and permissions read from the store per request, as in production):
 * - the first page (20 rows and the total) of /home/pendingqueries (GET /api/queries/pending);
 * - the first page of /casemanagement/queriesProcess (GET /api/queries/list) unfiltered and with
 *   each filter: state, project, case, report code, field, initiator, handler, overdue;
 *   target <= 50 ms each;
 * - the case page's query markers (GET /api/queries/cases/:caseId/markers) of a case with 200 queries;
 *   target <= 30 ms.
 * Floor of each: the same page read by hand-written SQL on the same SQLite file (page and the
 * total counted up to the lists' TOTAL_LIMIT; the store's generated columns where it indexed the
 * path, json_extract otherwise, its side table for the queried fields).
 *
 * The queries reference their cases by id, report code and project (all these reads use); only the
 * markers' case is a stored case document (the markers read it for its project). The generated
 * store is cached in bench-data/queries-<cases>-<key>/ (scripts/bench/data.ts).
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { workflowModule } from '../../server/src/workflow';
import { reportCodesModule } from '../../server/src/report-codes';
import { createCasesModule, workbenchModule } from '../../server/src/cases/index';
import { C } from '../../server/src/cases/collections';
import { demoCaseContent } from '../../server/src/cases/demo/factory';
import { recordingSigner } from '../../server/src/cases/testing';
import { queriesModule } from '../../server/src/queries';
import type { Query } from '../../server/src/queries';
import { collections as queryCollections, Q } from '../../server/src/queries/model';
import { TOTAL_LIMIT } from '../../server/src/queries/paged-list';
import { benchLine, percentile } from './measure';
import { openBenchData, storeColumns } from './data';
import type { Documents, TenantContext } from './data';

const CASES = Number(process.env.BENCH_QUERIES_CASES ?? 100_000);
const RUNS = Number(process.env.BENCH_QUERIES_RUNS ?? 30);
/** A comma-separated subset of the figures' kinds (pending, list, list-field, markers ...); all when unset. */
const ONLY = process.env.BENCH_QUERIES_KINDS?.split(',').filter(Boolean);
const PER_CASE = 3;
const SHARE = 0.6;
const TENANTS = ['bench', 'other-1', 'other-2', 'other-3', 'other-4'];
const QUERIED = TENANTS[0]!;
const PROJECT = `p-${QUERIED}`;
const MARKER_CASE = 'bench-marker-case';
const MARKER_QUERIES = 200;
const LIST_TARGET_MS = 50;
const MARKERS_TARGET_MS = 30;
const USERS = ['user-0', 'user-1', 'user-2', 'user-3', 'user-4'];
/** The reader: a member of the queried project, handler of a fifth of its queries. */
const READER = 'user-1';

const FIELDS = [
  {
    pointer: '/report/reportDateLast',
    e2b: 'C.1.5',
    label: { zh: '最新获知日期', en: 'Date of Most Recent Information' },
  },
  {
    pointer: '/report/reportDateFirst',
    e2b: 'C.1.4',
    label: { zh: '首次获知日期', en: 'Date Report Was First Received' },
  },
  { pointer: '/patient/birthday', e2b: 'D.2.1', label: { zh: '出生日期', en: 'Date of Birth' } },
  { pointer: '/reactions/0/reactionNative', e2b: 'E.i.1.1a', label: { zh: '不良反应', en: 'Reaction' } },
  { pointer: '/drugs/0/drugName', e2b: 'G.k.2.2', label: { zh: '药品名称', en: 'Medicinal Product' } },
];
/** States by share: sent 40%, handled 25%, closed 30%, deleted 5%. */
const stateOf = (r: number) => (r < 0.4 ? 'sent' : r < 0.65 ? 'handled' : r < 0.95 ? 'closed' : 'deleted');

const now = new Date();
const dayOf = (today: Date, offset: number) =>
  new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
const reportCodeOf = (tenant: string, n: number) => `${tenant.toUpperCase()}-${String(n).padStart(7, '0')}`;

function queryOf(
  { tenant, today: now, random }: TenantContext,
  caseN: number,
  q: number,
  caseId = `${tenant}-case-${caseN}`,
): Query {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const field = pick(FIELDS);
  const raisedDaysAgo = Math.floor(random() * 700);
  const raisedAt = new Date(now.getTime() - raisedDaysAgo * 86_400_000 - q * 60_000).toISOString();
  const initiator = pick(USERS);
  const handler = pick(USERS);
  const state = stateOf(random());
  const answered = state === 'handled' || state === 'closed';
  return {
    number: `Q${tenant}${String(caseN).padStart(7, '0')}${q}`,
    caseId,
    projectId: `p-${tenant}`,
    reportCode: reportCodeOf(tenant, caseN),
    caseVersion: 1,
    caseRev: 2,
    state,
    receiverType: random() < 0.1 ? 'external' : 'internal',
    fields: [{ ...field, value: '20261120' }],
    pointers: [field.pointer],
    description: `请核实 ${field.e2b} 的数据`,
    initiatorId: initiator,
    initiatorName: initiator,
    handlerId: handler,
    handlerName: handler,
    startDate: raisedAt.slice(0, 10),
    // Open queries: due between 30 days ago and 30 days ahead (some overdue).
    timeLimit: dayOf(now, Math.floor(random() * 60) - 30),
    raisedAt,
    reply: answered ? '已核实' : null,
    rounds: [
      {
        round: 1,
        kind: 'first',
        question: `请核实 ${field.e2b} 的数据`,
        askedBy: initiator,
        askedByName: initiator,
        askedAt: raisedAt,
        caseRev: 2,
        reply: answered ? '已核实' : null,
        repliedBy: answered ? handler : null,
        repliedByName: answered ? handler : null,
        repliedAt: answered ? raisedAt : null,
        change: null,
        closedAt: state === 'closed' ? raisedAt : null,
      },
    ],
    closedBy: state === 'closed' ? initiator : null,
    closedByName: state === 'closed' ? initiator : null,
    closedAt: state === 'closed' ? raisedAt : null,
    deleted: state === 'deleted' ? { by: initiator, byName: initiator, at: raisedAt, reason: '误发' } : null,
    overdueNotified: false,
  };
}

const { dataDir, store, platform } = await openBenchData({
  name: 'queries',
  total: CASES,
  tenants: TENANTS,
  share: SHARE,
  projectOf: (tenant) => `p-${tenant}`,
  members: USERS,
  seed: 17,
  today: now,
  batch: 1000,
  caseDocuments: (context) => ({
    [Q.queries]: Array.from({ length: PER_CASE }, (_, q) => queryOf(context, context.n, q)),
  }),
  // The markers' case: a stored case document with MARKER_QUERIES queries.
  tenantDocuments: (context): Documents => {
    if (context.tenantIndex !== 0) return {};
    const { project, count } = context;
    const content = demoCaseContent({ n: 1, project, today: context.today });
    const markerCase = {
      _id: MARKER_CASE,
      ...content,
      report: {
        ...(content.report as object),
        reportCode: reportCodeOf(context.tenant, count),
        studyProjectId: project._id,
      },
    };
    return {
      [C.cases]: [markerCase],
      [Q.queries]: Array.from({ length: MARKER_QUERIES }, (_, q) => queryOf(context, count, q, MARKER_CASE)),
    };
  },
  modules: [
    createCasesModule({ signer: recordingSigner() }),
    workbenchModule,
    workflowModule,
    reportCodesModule,
    queriesModule,
  ],
  collections: queryCollections,
});

// ---- the floor: hand-written SQL on the same file ----
const db = new Database(join(dataDir, 'store.sqlite'), { readonly: true });
db.pragma('cache_size = -131072');
db.pragma('mmap_size = 1073741824');
const table = `c_${Q.queries}`;
/** The store's generated column of an indexed path, else the JSON value. */
const col = storeColumns(db, table).read;

interface Floor {
  where: string;
  params: (string | number)[];
  order: string;
}
const statements = new Map<string, { page: Database.Statement; count: Database.Statement }>();
function runFloor(floor: Floor): void {
  const key = `${floor.where}|${floor.order}`;
  let s = statements.get(key);
  if (!s) {
    s = {
      // The page's ids first, sorted on index entries, then their documents: selecting the
      // document in the sorted query reads every match's row before the sort (1.7 s for a field).
      page: db.prepare(
        `SELECT _id, doc FROM "${table}" t WHERE _id IN (SELECT t._id FROM "${table}" t WHERE tenantId = ? AND ${floor.where} ORDER BY ${floor.order} LIMIT 20) ORDER BY ${floor.order}`,
      ),
      // The lists' total is capped (queries/paged-list.ts TOTAL_LIMIT): count as far, plus one.
      count: db.prepare(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM "${table}" t WHERE tenantId = ? AND ${floor.where} LIMIT ${TOTAL_LIMIT + 1})`,
      ),
    };
    statements.set(key, s);
  }
  for (const row of s.page.all(QUERIED, ...floor.params) as { doc: string }[]) JSON.parse(row.doc);
  s.count.get(QUERIED, ...floor.params);
}

// The live states by name, as the list asks (a `<>` walks every state and sorts every match); each
// order ends with _id, the store's tiebreak, which its indexes hold right after the sort columns.
const live: Floor = {
  where: `${col('projectId')} IN (?) AND ${col('state')} IN ('sent', 'handled', 'closed')`,
  params: [PROJECT],
  order: `${col('raisedAt')} DESC, t._id ASC`,
};
const and = (extra: string, ...params: (string | number)[]): Floor => ({
  ...live,
  where: `${live.where} AND ${extra}`,
  params: [...live.params, ...params],
});
// The queried fields' pointers and E2B ids: one row each in the store's side table (m_queries) once
// declared as index paths (json_each over every document otherwise). A scalar probe per row: as an
// EXISTS, SQLite 3.53 makes it a semi-join and sorts every match (0.4-1.4 s against 0.2 ms).
const fieldAny = `(SELECT 1 FROM "m_${Q.queries}" m WHERE m._id = t._id AND m.path IN ('pointers', 'fields.e2b') AND m.value = ? LIMIT 1) = 1`;

const sampleCase = `${QUERIED}-case-${Math.floor(CASES * SHARE * 0.37)}`;
const sampleCode = reportCodeOf(QUERIED, Math.floor(CASES * SHARE * 0.61));
const today = dayOf(now, 0);
const kinds: { name: string; url: string; floor: Floor; target: number }[] = [
  {
    name: 'pending',
    url: '/api/queries/pending',
    floor: {
      where: `${col('projectId')} IN (?) AND ${col('handlerId')} = ? AND ${col('state')} = 'sent'`,
      params: [PROJECT, READER],
      order: `${col('timeLimit')} ASC, ${col('raisedAt')} ASC, t._id ASC`,
    },
    target: LIST_TARGET_MS,
  },
  { name: 'list', url: '/api/queries/list', floor: live, target: LIST_TARGET_MS },
  {
    name: 'list-state',
    url: '/api/queries/list?state=handled',
    floor: { ...live, where: `${col('projectId')} IN (?) AND ${col('state')} = 'handled'` },
    target: LIST_TARGET_MS,
  },
  {
    name: 'list-project',
    url: `/api/queries/list?projectId=${PROJECT}`,
    floor: { ...live, where: `${col('projectId')} = ? AND ${col('state')} IN ('sent', 'handled', 'closed')` },
    target: LIST_TARGET_MS,
  },
  {
    name: 'list-case',
    url: `/api/queries/list?caseId=${sampleCase}`,
    floor: and(`${col('caseId')} = ?`, sampleCase),
    target: LIST_TARGET_MS,
  },
  {
    name: 'list-report-code',
    url: `/api/queries/list?reportCode=${sampleCode}`,
    floor: and(`${col('reportCode')} = ?`, sampleCode),
    target: LIST_TARGET_MS,
  },
  {
    name: 'list-field',
    url: '/api/queries/list?field=C.1.5',
    floor: and(`(${fieldAny})`, 'C.1.5'),
    target: LIST_TARGET_MS,
  },
  {
    name: 'list-initiator',
    url: '/api/queries/list?initiator=user-3',
    floor: and(`(${col('initiatorId')} = ? OR ${col('initiatorName')} = ?)`, 'user-3', 'user-3'),
    target: LIST_TARGET_MS,
  },
  {
    name: 'list-handler',
    url: '/api/queries/list?handler=user-2',
    floor: and(`(${col('handlerId')} = ? OR ${col('handlerName')} = ?)`, 'user-2', 'user-2'),
    target: LIST_TARGET_MS,
  },
  {
    name: 'list-overdue',
    url: '/api/queries/list?overdue=true',
    floor: {
      ...live,
      where: `${col('projectId')} IN (?) AND ${col('state')} = 'sent' AND ${col('timeLimit')} < ?`,
      params: [PROJECT, today],
      order: `${col('timeLimit')} ASC, ${col('raisedAt')} DESC, t._id ASC`,
    },
    target: LIST_TARGET_MS,
  },
  {
    name: 'markers',
    url: `/api/queries/cases/${MARKER_CASE}/markers`,
    floor: { where: `${col('caseId')} = ?`, params: [MARKER_CASE], order: `${col('raisedAt')} DESC` },
    target: MARKERS_TARGET_MS,
  },
];

const headers = { authorization: `Bearer ${QUERIED}:${READER}`, 'lang-type': 'en' };
async function request(url: string): Promise<void> {
  const response = await platform.app.request(url, { headers });
  const body = (await response.json()) as { code: number; msg: string };
  if (body.code !== 200) throw new Error(`${url}: ${body.code} ${body.msg}`);
}

const lines: string[] = [];
for (const kind of kinds) {
  if (ONLY && !ONLY.includes(kind.name)) continue;
  // The markers' floor reads what the markers need of every query of the case (state, number,
  // pointers), not a page of 20.
  const floorRun = () =>
    kind.name === 'markers'
      ? db
          .prepare(
            `SELECT _id, ${col('state')} AS state, ${col('number')} AS number, doc -> '$.pointers' AS pointers FROM "${table}" WHERE tenantId = ? AND ${kind.floor.where} ORDER BY ${kind.floor.order}`,
          )
          .all(QUERIED, ...kind.floor.params)
          .forEach((row) => JSON.parse((row as { pointers: string }).pointers))
      : runFloor(kind.floor);
  for (let i = 0; i < 3; i++) {
    await request(kind.url);
    floorRun();
  }
  const times: number[] = [];
  const floors: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let started = performance.now();
    floorRun();
    floors.push(performance.now() - started);
    started = performance.now();
    await request(kind.url);
    times.push(performance.now() - started);
  }
  const figure = percentile(times, 0.95);
  const floor = percentile(floors, 0.95);
  lines.push(
    benchLine({
      name: `queries-${kind.name}-p95`,
      figure,
      unit: 'ms',
      floor,
      ratio: figure / Math.max(floor, 0.01),
      target: `<=${kind.target}ms`,
      met: figure <= kind.target,
      digits: 2,
    }),
  );
  console.log(lines[lines.length - 1]);
}
db.close();
await store.close();
