/**
 * Embedded store benchmark: bulk insert of 100,000 synthetic cases (~5 KB JSON, 5 tenants; floor:
 * the same batches into a bare SQLite table with the same durability, taking turns) and
 * the case-list query (one tenant; workflow node, report type, first-receipt date range, drug-name
 * prefix; newest first; page of 20 with a summary projection) against a hand-written SQL query on
 * the same file returning the same page (the floor).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../server/src/store';
import { textMatch } from '../../server/src/store/guard';
import type { OpenedStore } from '../../server/src/store';
import {
  buildFerretDB,
  ferretArgs,
  findGo,
  freePort,
  startFromControl,
  stopFromControl,
} from '../mongo-peer.mjs';

const TOTAL = Number(process.env.BENCH_STORE_CASES ?? 100_000);
const TENANTS = ['t1', 't2', 't3', 't4', 't5'];
const BATCH = 1000;
const QUERIES = 300;
/**
 * Every MONGO_EVERY-th case-list query also runs on MongoDB, while the MongoDB queries have taken
 * less than MONGO_BUDGET_MS (at least 3): FerretDB reads every document of a tenant per query.
 */
const MONGO_EVERY = 10;
const MONGO_BUDGET_MS = 60_000;
const NODES = ['intake', 'entry', 'qc', 'medicalReview', 'submission', 'closed'];
const REPORT_TYPES = ['1', '2', '3', '4'];
const DRUGS = [
  'Aspirin',
  'Atorvastatin',
  'Amoxicillin',
  'Amlodipine',
  'Azithromycin',
  'Bevacizumab',
  'Bisoprolol',
  'Budesonide',
  'Capecitabine',
  'Carboplatin',
  'Cetirizine',
  'Ciprofloxacin',
  'Clopidogrel',
  'Dexamethasone',
  'Diclofenac',
  'Docetaxel',
  'Enalapril',
  'Erlotinib',
  'Esomeprazole',
  'Fluorouracil',
  'Gefitinib',
  'Heparin',
  'Ibuprofen',
  'Insulin glargine',
  'Levofloxacin',
  'Lisinopril',
  'Losartan',
  'Metformin',
  'Methotrexate',
  'Metoprolol',
  'Nivolumab',
  'Omeprazole',
  'Oxaliplatin',
  'Paclitaxel',
  'Paracetamol',
  'Pembrolizumab',
  'Prednisone',
  'Rituximab',
  'Rosuvastatin',
  'Sertraline',
  'Simvastatin',
  'Tamoxifen',
  'Trastuzumab',
  'Valsartan',
  'Warfarin',
  'Zoledronic acid',
];
const REACTIONS = [
  'Nausea',
  'Headache',
  'Rash',
  'Hepatotoxicity',
  'Neutropenia',
  'Anaphylaxis',
  'Dizziness',
  'Pyrexia',
  'Diarrhoea',
  'Fatigue',
];
const WORDS =
  'patient was admitted to hospital with worsening symptoms after the second dose the investigator considered the event related to study drug which was withdrawn and the event resolved with sequelae laboratory values showed elevated transaminases'.split(
    ' ',
  );

let seed = 20240601;
const random = (): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const randomDate = (): string =>
  `${2019 + Math.floor(random() * 7)}${pad(1 + Math.floor(random() * 12))}${pad(1 + Math.floor(random() * 28))}`;
const sentence = (words: number): string => Array.from({ length: words }, () => pick(WORDS)).join(' ');

function syntheticCase(tenant: string, n: number): Record<string, unknown> {
  const first = randomDate();
  return {
    _id: `${tenant}-${pad(n, 6)}`,
    reportCode: `${tenant.toUpperCase()}-${first.slice(0, 4)}-${pad(n, 6)}`,
    report: {
      reportType: pick(REPORT_TYPES), // C.1.3
      reportDateFirst: first, // C.1.4
      reportDateRecent: first, // C.1.5
      senderCaseId: `SND-${n}`,
      seriousness: {
        death: random() < 0.05,
        hospitalisation: random() < 0.3,
        lifeThreatening: random() < 0.05,
      },
      country: pick(['CN', 'US', 'DE', 'FR', 'JP']),
    },
    workflow: { node: pick(NODES), assignee: `user-${Math.floor(random() * 40)}`, dueDate: randomDate() },
    patient: {
      initials: `${String.fromCharCode(65 + Math.floor(random() * 26))}${String.fromCharCode(65 + Math.floor(random() * 26))}`,
      age: { value: 18 + Math.floor(random() * 70), unit: 'a' },
      sex: pick(['1', '2']),
      weightKg: 45 + Math.floor(random() * 60),
      medicalHistory: Array.from({ length: 2 }, () => ({
        term: pick(REACTIONS),
        continuing: random() < 0.5,
        comment: sentence(12),
      })),
    },
    drugs: Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => ({
      role: i === 0 ? '1' : pick(['2', '3']), // G.k.1
      name: pick(DRUGS), // G.k.2.2
      batch: `B${Math.floor(random() * 99999)}`,
      dosage: {
        dose: 1 + Math.floor(random() * 500),
        unit: 'mg',
        route: pick(['048', '042', '058']),
        frequency: '1/d',
        start: randomDate(),
      },
      indication: sentence(4),
      actionTaken: pick(['1', '2', '3', '4']),
    })),
    reactions: Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
      term: pick(REACTIONS), // E.i.1
      meddraPt: String(10000000 + Math.floor(random() * 90000)),
      start: randomDate(),
      outcome: pick(['1', '2', '3', '4', '5', '0']),
      seriousness: random() < 0.4,
      description: sentence(20),
    })),
    narrative: sentence(430), // H.1
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

// The machine is shared: the load average says how far the figures are from an idle machine's.
const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const loadAtStart = loadAverage();
const dir = mkdtempSync(join(tmpdir(), 'pv-bench-store-'));

/**
 * MongoDB beside the embedded store (report only; the peer is not the production engine):
 * MONGODB_URI when set (a fresh database in it), else the FerretDB peer when Go is installed
 * (scripts/mongo-peer.mjs), else none. BENCH_STORE_MONGODB=off leaves it out.
 */
async function mongoTarget(): Promise<{ uri: string; stop: () => Promise<void> } | null> {
  if (process.env.BENCH_STORE_MONGODB === 'off') return null;
  const database = `/pv_bench_${process.pid}_${Math.floor(performance.timeOrigin)}`;
  if (process.env.MONGODB_URI) {
    const url = new URL(process.env.MONGODB_URI);
    url.pathname = database;
    return { uri: url.toString(), stop: async () => undefined };
  }
  const found = findGo();
  if (found.go === null) {
    console.log(`MongoDB figures skipped: ${found.reason}`);
    return null;
  }
  const { bin } = buildFerretDB(found.go);
  const port = await freePort();
  const control = join(dir, 'ferretdb-control.json');
  writeFileSync(
    control,
    JSON.stringify({
      bin,
      args: ferretArgs(join(dir, 'ferretdb'), port),
      dir: join(dir, 'ferretdb'),
      port,
      pidFile: join(dir, 'ferretdb.pid'),
      logFile: join(dir, 'ferretdb.log'),
    }),
  );
  await startFromControl(control);
  return { uri: `mongodb://127.0.0.1:${port}${database}`, stop: () => stopFromControl(control) };
}

const target = await mongoTarget();
let mongo: OpenedStore | null = null;
try {
  const store = await openStore({ dataDir: dir });
  await store.define({
    name: 'cases',
    scope: 'tenant',
    indexes: [
      {
        name: 'caseList',
        fields: { 'workflow.node': 1, 'report.reportType': 1, 'report.reportDateFirst': -1 },
      },
      { name: 'drugName', fields: { 'drugs.name': 1 } },
    ],
  });
  const handles = TENANTS.map((t) => store.tenant(t, { userId: 'system:bench' }));
  if (target) {
    mongo = await openStore({ dataDir: dir, mongodbUri: target.uri });
    await mongo.define({
      name: 'cases',
      scope: 'tenant',
      indexes: [
        {
          name: 'caseList',
          fields: { 'workflow.node': 1, 'report.reportType': 1, 'report.reportDateFirst': -1 },
        },
        { name: 'drugName', fields: { 'drugs.name': 1 } },
      ],
    });
  }
  const mongoHandles = mongo ? TENANTS.map((t) => mongo!.tenant(t, { userId: 'system:bench' })) : [];
  let mongoInsertMs = 0;
  const mongoTimes: number[] = [];
  let mongoDisagreements = 0;

  // The insert floor: the same documents as JSON into a bare table (primary key and tenant index
  // only) of another file with the store's durability and cache settings, one transaction per
  // batch (same page size too). Store and floor take turns batch by batch, so both see the same
  // machine load.
  const floorDb = new Database(join(dir, 'floor.sqlite'));
  floorDb.pragma('page_size = 16384');
  floorDb.pragma('journal_mode = WAL');
  floorDb.pragma('synchronous = FULL');
  floorDb.pragma('cache_size = -131072');
  floorDb.pragma('mmap_size = 1073741824');
  floorDb.pragma('wal_autocheckpoint = 16384');
  floorDb.exec('CREATE TABLE cases (_id TEXT PRIMARY KEY, tenantId TEXT NOT NULL, doc TEXT NOT NULL)');
  floorDb.exec('CREATE INDEX cases_tenant ON cases (tenantId, _id)');
  const floorInsert = floorDb.prepare('INSERT INTO cases (_id, tenantId, doc) VALUES (?, ?, ?)');
  const floorBatch = floorDb.transaction((tenant: string, docs: Record<string, unknown>[]) => {
    for (const doc of docs) floorInsert.run(doc._id, tenant, JSON.stringify(doc));
  });

  // Bulk insert: generation is excluded from the timing.
  let insertMs = 0;
  let floorInsertMs = 0;
  let bytes = 0;
  for (let offset = 0; offset < TOTAL; offset += BATCH) {
    const tenantIndex = (offset / BATCH) % TENANTS.length;
    const docs = Array.from({ length: Math.min(BATCH, TOTAL - offset) }, (_, i) =>
      syntheticCase(TENANTS[tenantIndex]!, offset + i),
    );
    if (offset === 0) bytes = JSON.stringify(docs).length / docs.length;
    const runStore = async () => {
      const started = performance.now();
      await handles[tenantIndex]!.collection('cases').insertMany(docs);
      insertMs += performance.now() - started;
    };
    const runFloor = () => {
      const started = performance.now();
      floorBatch.immediate(TENANTS[tenantIndex]!, docs);
      floorInsertMs += performance.now() - started;
    };
    if ((offset / BATCH) % 2 === 0) {
      await runStore();
      runFloor();
    } else {
      runFloor();
      await runStore();
    }
    if (mongo) {
      const started = performance.now();
      await mongoHandles[tenantIndex]!.collection('cases').insertMany(docs);
      mongoInsertMs += performance.now() - started;
    }
  }
  floorDb.close();
  const insertRate = TOTAL / (insertMs / 1000);
  const floorInsertRate = TOTAL / (floorInsertMs / 1000);
  console.log(
    `inserted ${TOTAL} cases (~${Math.round(bytes)} bytes of JSON each) in ${(insertMs / 1000).toFixed(1)} s: ${Math.round(insertRate)} docs/s; bare table ${Math.round(floorInsertRate)} docs/s`,
  );

  // The floor: a hand-written query on the same file, reading the summary fields in SQL.
  const db = new Database(join(dir, 'store.sqlite'), { readonly: true });
  const columns = Object.fromEntries(
    (
      db.prepare(`SELECT name FROM pragma_table_xinfo('c_cases') WHERE name LIKE 'g_%'`).all() as {
        name: string;
      }[]
    ).map((c) => [c.name.replace(/_[0-9a-f]{6}$/, ''), c.name]),
  );
  const node = columns['g_workflow_node'];
  const type = columns['g_report_reportType'];
  const date = columns['g_report_reportDateFirst'];
  const floorSql = db.prepare(
    `SELECT c._id, json_object('reportCode', json_extract(c.doc, '$.reportCode'), 'reportType', c."${type}", 'reportDateFirst', c."${date}",
            'node', c."${node}", 'initials', json_extract(c.doc, '$.patient.initials'), 'drugs', json_extract(c.doc, '$.drugs')) AS summary
       FROM c_cases c
      WHERE c.tenantId = ? AND c."${node}" = ? AND c."${type}" = ? AND c."${date}" >= ? AND c."${date}" <= ?
        AND EXISTS (SELECT 1 FROM m_cases m WHERE m._id = c._id AND m.path = 'drugs.name' AND m.value >= ? AND m.value < ?)
      ORDER BY c."${date}" DESC, c._id ASC LIMIT 20`,
  );

  const storeTimes: number[] = [];
  const floorTimes: number[] = [];
  let rows = 0;
  for (let q = 0; q < QUERIES; q++) {
    const tenant = Math.floor(random() * TENANTS.length);
    const from = randomDate();
    const months = 6 + Math.floor(random() * 60);
    const fromDate = new Date(Date.UTC(+from.slice(0, 4), +from.slice(4, 6) - 1, +from.slice(6, 8)));
    fromDate.setUTCMonth(fromDate.getUTCMonth() + months);
    const to = `${fromDate.getUTCFullYear()}${pad(fromDate.getUTCMonth() + 1)}${pad(fromDate.getUTCDate())}`;
    const prefix = pick(DRUGS).slice(0, 1 + Math.floor(random() * 2));
    const nodeValue = pick(NODES);
    const typeValue = pick(REPORT_TYPES);
    const filter = {
      'workflow.node': nodeValue,
      'report.reportType': typeValue,
      'report.reportDateFirst': { $gte: from, $lte: to },
      'drugs.name': textMatch(prefix, { mode: 'prefix', caseInsensitive: false }),
    };
    const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const order = q % 2 === 0;
    const runStore = async () => {
      const started = performance.now();
      const page = await handles[tenant]!.collection('cases').find(filter, {
        sort: { 'report.reportDateFirst': -1 },
        limit: 20,
        projection: {
          reportCode: 1,
          'report.reportType': 1,
          'report.reportDateFirst': 1,
          'workflow.node': 1,
          'patient.initials': 1,
          'drugs.name': 1,
        },
      });
      storeTimes.push(performance.now() - started);
      return page.map((d) => d._id);
    };
    const runFloor = () => {
      const started = performance.now();
      const page = floorSql.all(TENANTS[tenant], nodeValue, typeValue, from, to, prefix, upper) as {
        _id: string;
        summary: string;
      }[];
      const parsed = page.map((r) => ({ _id: r._id, ...JSON.parse(r.summary) }));
      floorTimes.push(performance.now() - started);
      return parsed.map((d) => d._id);
    };
    let storeIds: string[];
    let floorIds: string[];
    if (order) {
      storeIds = await runStore();
      floorIds = runFloor();
    } else {
      floorIds = runFloor();
      storeIds = await runStore();
    }
    const mongoSpent = mongoTimes.reduce((sum, ms) => sum + ms, 0);
    if (mongo && q % MONGO_EVERY === 0 && (mongoTimes.length < 3 || mongoSpent < MONGO_BUDGET_MS)) {
      const started = performance.now();
      const page = await mongoHandles[tenant]!.collection('cases').find(filter, {
        sort: { 'report.reportDateFirst': -1 },
        limit: 20,
        projection: { reportCode: 1, 'report.reportDateFirst': 1, 'drugs.name': 1 },
      });
      mongoTimes.push(performance.now() - started);
      if (page.map((d) => d._id).join() !== storeIds.join()) mongoDisagreements++;
    }
    if (storeIds.join() !== floorIds.join()) {
      throw new Error(
        `store and floor disagree for ${JSON.stringify(filter)}: ${storeIds.join()} vs ${floorIds.join()}`,
      );
    }
    rows += storeIds.length;
  }
  db.close();
  await store.close();

  const sortedStore = [...storeTimes].sort((x, y) => x - y);
  const sortedFloor = [...floorTimes].sort((x, y) => x - y);
  const p50 = percentile(sortedStore, 50);
  const p95 = percentile(sortedStore, 95);
  const floor50 = percentile(sortedFloor, 50);
  const floor95 = percentile(sortedFloor, 95);
  console.log(
    `case-list query over ${QUERIES} varied runs (${(rows / QUERIES).toFixed(1)} rows per page on average, same ids as the floor every time)`,
  );
  console.log(
    `  store p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms; hand-written SQL p50 ${floor50.toFixed(2)} ms, p95 ${floor95.toFixed(2)} ms`,
  );

  const line = (
    name: string,
    figure: number,
    unit: string,
    floorFigure: number,
    target: string,
    met: boolean,
  ) =>
    console.log(
      `BENCH ${name} ${figure.toFixed(2)} ${unit} floor ${floorFigure.toFixed(2)} ${unit} ratio ${(figure / floorFigure).toFixed(2)} target ${target} ${met ? 'met' : 'missed'}`,
    );
  console.log(
    `load average (1, 5, 15 min) at start ${loadAtStart}, at end ${loadAverage()} on ${cpus().length} cores`,
  );
  line('store-insert', insertRate, 'docs/s', floorInsertRate, '>=5000docs/s', insertRate >= 5000);
  line('store-case-list-p95', p95, 'ms', floor95, '<=50ms', p95 <= 50);
  line('store-case-list-p95-vs-floor', p95, 'ms', floor95, '<=2x', p95 <= 2 * floor95);
  if (mongo) {
    const { serverKind, serverVersion, transactions } = mongo.capabilities;
    const sortedMongo = [...mongoTimes].sort((x, y) => x - y);
    console.log(
      `MongoDB beside it (${serverKind} ${serverVersion}, transactions ${transactions ? 'on' : 'off'}; report only): ` +
        `insert ${Math.round(TOTAL / (mongoInsertMs / 1000))} docs/s (embedded ${Math.round(insertRate)}); ` +
        `case-list over ${mongoTimes.length} of the queries p50 ${percentile(sortedMongo, 50).toFixed(2)} ms, ` +
        `p95 ${percentile(sortedMongo, 95).toFixed(2)} ms (embedded p95 ${p95.toFixed(2)} ms); ` +
        `${mongoDisagreements === 0 ? 'same pages as the embedded store' : `${mongoDisagreements} pages differ from the embedded store`}`,
    );
  }
} finally {
  await mongo?.close();
  await target?.stop();
  if (!process.env.BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
  else console.log(dir);
}
