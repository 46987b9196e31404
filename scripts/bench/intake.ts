/**
 * `npm run bench -- intake` (issue 21): a 5,000-row line listing (two rows per case: 2,500 cases)
 * through the server's import - file store, import record with its template, the parse job of
 * server/src/imports run by the job runner, MedDRA/WHODrug coding against synthetic releases - in
 * <= 60 s with flat memory: the heap retained after a full collection grows <= 32 MB during the job.
 * Floor in the same run: exceljs's streaming reader alone over the same workbook (rows read, nothing
 * converted or written).
 *
 * Then the duplicate candidates of one incoming case against 100,000 cases (their list summaries
 * with the duplicate keys, as case saves write them) through the cases module's findDuplicates
 * (blocking on indexed keys, then the probabilistic match): p95 over 200 incoming cases <= 100 ms.
 * Floor in the same run: the exact sender-identifier lookup (one indexed query) for the same cases.
 */
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import ExcelJS from 'exceljs';
import { generateMeddra, generateWhodrug, meddraFiles, SMALL_MEDDRA, whodrugFiles } from '@pv/engine';
import type { ImportTemplateDefinition } from '@pv/engine';
import { openFileStore } from '../../server/src/files';
import { testPlatform } from '../../server/src/testing';
import { testStore } from '../../server/src/http/test-store';
import { dictionariesModule, dictionaryService } from '../../server/src/dictionaries';
import { importsModule } from '../../server/src/imports/index';
import { IMPORT_RECORDS } from '../../server/src/imports/collections';
import type { ImportRecord } from '../../server/src/imports/collections';
import { PARSE_JOB } from '../../server/src/imports/parse-job';
import type { ParseJobPayload } from '../../server/src/imports/parse-job';
import { JobRunner } from '../../server/src/jobs/runner';
import { caseCollections, caseCollectionNames, findDuplicates } from '../../server/src/cases';
import { duplicateKeys } from '../../server/src/cases/summary';
import { benchLine } from './measure';

const ROWS = 5_000;
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const meddra = generateMeddra(SMALL_MEDDRA).en;
const whodrug = generateWhodrug({ records: 60 });
const template: ImportTemplateDefinition = {
  name: 'bench',
  kind: 'lineListing',
  headerRow: 1,
  grouping: 'grouped',
  caseColumn: '病例编号',
  dateFormats: ['YYYY-MM-DD'],
  columns: [
    { header: '病例编号', field: 'C.1.1', required: true },
    { header: '患者', field: 'D.1' },
    {
      header: '性别',
      field: 'D.5',
      valueMap: [
        { from: '男', to: '1' },
        { from: '女', to: '2' },
      ],
    },
    { header: '年龄（岁）', field: 'D.2.2a', unit: 'a' },
    { header: '不良反应', field: 'E.i.1.1a', required: true },
    { header: '发生日期', field: 'E.i.4' },
    { header: '药品名称', field: 'G.k.2.2' },
  ],
  defaults: [
    { field: 'G.k.1', value: '1' },
    { field: 'E.i.9', value: 'CN' },
  ],
};

async function workbook(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('病例');
  sheet.addRow(['病例编号', '患者', '性别', '年龄（岁）', '不良反应', '发生日期', '药品名称']);
  for (let row = 0; row < ROWS; row++) {
    const n = Math.floor(row / 2);
    sheet.addRow([
      `CN-PARTNER-${String(n).padStart(6, '0')}`,
      `P${n % 997}`,
      n % 2 ? '女' : '男',
      20 + (n % 60),
      meddra.llts[(n + (row % 2)) % meddra.llts.length]!.name,
      `2024-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`,
      whodrug.drugs[n % whodrug.drugs.length]!.name,
    ]);
  }
  return new Uint8Array(await book.xlsx.writeBuffer());
}

const bytes = await workbook();

// Floor: the streaming reader alone.
const floorStarted = performance.now();
let floorRows = 0;
const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
  worksheets: 'emit',
  sharedStrings: 'cache',
  styles: 'cache',
  hyperlinks: 'ignore',
  entries: 'ignore',
});
for await (const sheet of reader)
  for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) floorRows += row.number > 0 ? 1 : 0;
const floorSeconds = (performance.now() - floorStarted) / 1000;

const store = await testStore();
const files = await openFileStore(store, { dataDir: store.dataDir });
const platform = testPlatform({
  store,
  files,
  modules: [dictionariesModule, importsModule],
  authenticator: { authenticate: async () => null, authorize: () => false },
});
await platform.ready();
const runner = new JobRunner(platform.deps, platform.jobDefinitions, { owner: 'bench' });
const tenant = store.tenant('bench', { userId: 'system:bench' });
const dictionaries = dictionaryService(store);
const m = await dictionaries.importMeddra(tenant, meddraFiles(meddra));
const w = await dictionaries.importWhodrug(tenant, whodrugFiles(whodrug), { version: whodrug.version });

const stored = await files.forTenant(tenant).putStream(Readable.from([Buffer.from(bytes)]), {
  fileName: 'bench.xlsx',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  maxBytes: bytes.length,
  owner: { kind: 'upload', id: 'bench' },
});
const record = await tenant.collection<ImportRecord>(IMPORT_RECORDS).insertOne({
  fileName: 'bench.xlsx',
  fileId: stored.fileId,
  size: stored.size,
  processingStatus: 'unprocessed',
  parseStatus: 'toBeParsed',
  finished: false,
  importerId: 'bench',
  importerName: 'bench',
  receiptDate: '20260101',
  pvInformedDate: null,
  caseProcessorId: null,
  caseProcessorName: null,
  importedAt: platform.deps.clock.now().toISOString(),
  completedAt: null,
  exception: null,
  projectId: 'bench',
  meddraVersionId: m.version.versionId,
  whodrugVersionId: w.version.versionId,
  format: null,
  profile: null,
  reportCount: 0,
  rejected: false,
  jobId: null,
  kind: 'lineListing',
  template,
});
await platform.deps.jobs.enqueue<ParseJobPayload>(
  PARSE_JOB,
  { recordId: record._id },
  { tenantId: 'bench', requestedBy: 'bench', jobId: record._id, maxAttempts: 1 },
);
gc();
const heapBeforeMb = process.memoryUsage().heapUsed / 1024 / 1024;
let heapPeakMb = heapBeforeMb;
const sampler = setInterval(() => {
  gc();
  heapPeakMb = Math.max(heapPeakMb, process.memoryUsage().heapUsed / 1024 / 1024);
}, 200);
const started = performance.now();
await runner.tick();
await runner.idle();
const seconds = (performance.now() - started) / 1000;
clearInterval(sampler);
const done = await tenant.collection<ImportRecord>(IMPORT_RECORDS).findOne({ _id: record._id });
if (done?.parseStatus !== 'completed')
  throw new Error(
    `the line listing ended ${done?.parseStatus}: ${JSON.stringify(done?.exception)?.slice(0, 500)}`,
  );
const growth = heapPeakMb - heapBeforeMb;
console.log(
  `intake: ${ROWS} rows (${floorRows - 1} read by the floor) -> ${done.reportCount} cases in ${seconds.toFixed(1)} s; ` +
    `heap after GC ${heapBeforeMb.toFixed(1)} -> peak ${heapPeakMb.toFixed(1)} MB; workbook ${(bytes.length / 1024).toFixed(0)} KB`,
);
console.log(
  benchLine({
    name: 'intake-line-listing-5000',
    figure: seconds,
    unit: 's',
    floor: floorSeconds,
    ratio: seconds / floorSeconds,
    target: '<=60 s',
    met: seconds <= 60,
    digits: 2,
  }),
);
console.log(
  benchLine({
    name: 'intake-line-listing-heap-growth',
    figure: growth,
    unit: 'MB',
    floor: 0,
    ratio: 0,
    target: '<=32 MB',
    met: growth <= 32,
    digits: 1,
  }),
);

// 2. Duplicate candidates against 100,000 cases.
const CASES = 100_000;
const INCOMING = 200;
for (const definition of caseCollections) await store.define(definition);
const surnames = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡'];
const given = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '丽',
  '强',
  '磊',
  '军',
  '洋',
  '勇',
  '艳',
  '杰',
  '娟',
  '涛',
  '明',
];
const ptCodes = Array.from({ length: 600 }, (_, i) => String(10_000_000 + i * 37));
const drugNames = Array.from({ length: 400 }, (_, i) => `drug-${i}`);
const caseDocument = (n: number) => ({
  report: { reportCode: `CN-BENCH-${String(n).padStart(7, '0')}`, happenCountry: 'CN' },
  patient: {
    patientsName: `${surnames[n % surnames.length]}${given[(n * 7) % given.length]}${given[(n * 13) % given.length]}`,
    gender: n % 2 ? '2' : '1',
    age: 18 + (n % 70),
    ageUnit: 'a',
  },
  reactions: [
    {
      meddraCode: ptCodes[n % ptCodes.length],
      meddraPtCode: ptCodes[n % ptCodes.length],
      startDate: `2025${String(1 + (n % 12)).padStart(2, '0')}${String(1 + (n % 28)).padStart(2, '0')}`,
    },
  ],
  drugs: [{ drugCharacterisation: '1', drugName: drugNames[(n * 3) % drugNames.length] }],
});
const summaries = tenant.collection(caseCollectionNames.summaries);
const seedStarted = performance.now();
for (let first = 0; first < CASES; first += 2_000) {
  const chunk = [];
  for (let n = first; n < Math.min(CASES, first + 2_000); n++)
    chunk.push({
      _id: `case-${n}`,
      state: { workflowNode: 'dataEntry', validity: 'valid', updatedAt: '2026-01-01T00:00:00.000Z' },
      v: { report_reportCode: `CN-BENCH-${String(n).padStart(7, '0')}` },
      deadline: null,
      dup: duplicateKeys(caseDocument(n)),
    });
  await summaries.insertMany(chunk);
}
console.log(
  `intake: ${CASES} case summaries stored in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
);

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.95)]!;
// An incoming case: a stored one re-sent under a new number, its onset a day off.
const incoming = (k: number) => {
  const doc = caseDocument((k * 499) % CASES);
  doc.report.reportCode = `CN-PARTNER-${k}`;
  return doc;
};
const matchTimes: number[] = [];
const floorTimes: number[] = [];
let found = 0;
for (let k = 0; k < INCOMING; k++) {
  const doc = incoming(k);
  let t = performance.now();
  const candidates = await findDuplicates(tenant, doc);
  matchTimes.push(performance.now() - t);
  if (candidates.some((c) => c.caseId === `case-${(k * 499) % CASES}`)) found++;
  t = performance.now();
  await summaries.find(
    { 'dup.senderIds': `CN-BENCH-${String((k * 499) % CASES).padStart(7, '0')}` },
    { limit: 20 },
  );
  floorTimes.push(performance.now() - t);
}
const matchP95 = p95(matchTimes);
const floorP95 = p95(floorTimes);
console.log(`intake: the re-sent case was among the candidates for ${found}/${INCOMING} incoming cases`);
console.log(
  benchLine({
    name: 'intake-duplicates-100k-p95',
    figure: matchP95,
    unit: 'ms',
    floor: floorP95,
    ratio: matchP95 / floorP95,
    target: '<=100 ms',
    met: matchP95 <= 100,
    digits: 1,
  }),
);
await runner.stop(1000);
await files.close();
await store.close();
