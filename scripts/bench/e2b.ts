/**
 * `npm run bench -- e2b`: E2B(R3) interchange throughput on the FDA FAERS samples.
 *
 * 1. Import: hardened parse + declared mapping + case-document binding, per message, against the
 *    floor fast-xml-parser parse of the same XML. Target: <= 2x the floor's time.
 * 2. Export: case document -> records -> XML (mapping, XSD sequence order, serialisation), against
 *    the floor fast-xml-parser build of the same document. Target: <= 2x. (The XSD validation each
 *    export then passes is reported on its own line: it is libxml2's time, not ours.)
 * 3. A zip of 1,000 messages through the server's import (file store, import record, the parse job
 *    of server/src/imports run by the job runner): the heap retained (after a full GC) at its peak
 *    during the job, against the same import of a 100-message zip (the floor). Target: flat - ten
 *    times the messages retain at most 16 MB more; peak RSS likewise within 1.5x of the floor's.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { zipSync } from 'fflate';
import { caseToRecord, exportR3, importR3, recordToCase } from '@pv/engine';
import type { E2bBatch } from '@pv/engine';
import { validateR3Xml } from '../../server/src/interchange/xsd';
import { openFileStore } from '../../server/src/files';
import { testPlatform } from '../../server/src/testing';
import { testStore } from '../../server/src/http/test-store';
import { importsModule } from '../../server/src/imports/index';
import { IMPORT_RECORDS } from '../../server/src/imports/collections';
import type { ImportRecord } from '../../server/src/imports/collections';
import { PARSE_JOB } from '../../server/src/imports/parse-job';
import type { ParseJobPayload } from '../../server/src/imports/parse-job';
import { JobRunner } from '../../server/src/jobs/runner';
import { benchLine, compareAlternating } from './measure';

const samples = fileURLToPath(new URL('../../schemas/e2b/samples/', import.meta.url));
const files = readdirSync(samples).filter((f) => /^fda-faers_FAERS.*\.xml$/.test(f));
const texts = files.map((f) => readFileSync(`${samples}${f}`, 'utf8'));
const totalBytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

const compare = (subject: () => void, floor: () => void) =>
  compareAlternating(subject, floor, { rounds: 5, minMs: 300, minRuns: 5, warmup: 2 });

const bench = (
  name: string,
  figure: number,
  unit: string,
  floor: number,
  target: string,
  met: boolean,
): void =>
  console.log(benchLine({ name, figure, unit, floor, ratio: floor / figure, target, met, digits: 2 }));

const floorParser = new XMLParser({ ignoreAttributes: false, preserveOrder: true, processEntities: false });
const floorBuilder = new XMLBuilder({
  ignoreAttributes: false,
  preserveOrder: true,
  format: true,
  processEntities: false,
});

// 1. Import
const importAll = (): void => {
  for (const xml of texts) for (const report of importR3(xml).batch.reports) recordToCase(report);
};
const parseAll = (): void => {
  for (const xml of texts) floorParser.parse(xml);
};
const imp = compare(importAll, parseAll);
const perSecond = (ms: number, n: number): number => (n * 1000) / ms;
const mbPerSecond = (ms: number): number => totalBytes / 1024 / 1024 / (ms / 1000);
bench(
  'e2b-import',
  perSecond(imp.subject, files.length),
  'cases/s',
  perSecond(imp.floor, files.length),
  '<=2x',
  imp.subject <= 2 * imp.floor,
);
bench(
  'e2b-import-mb',
  mbPerSecond(imp.subject),
  'MB/s',
  mbPerSecond(imp.floor),
  '<=2x',
  imp.subject <= 2 * imp.floor,
);

// 2. Export
const batches: { batch: E2bBatch; cases: Record<string, unknown>[] }[] = texts.map((xml) => {
  const { batch } = importR3(xml);
  return { batch, cases: batch.reports.map((r) => recordToCase(r).case) };
});
const parsed = texts.map((xml) => floorParser.parse(xml) as unknown[]);
const exportAll = (): void => {
  for (const { batch, cases } of batches) exportR3({ ...batch, reports: cases.map((c) => caseToRecord(c)) });
};
const buildAll = (): void => {
  for (const doc of parsed) floorBuilder.build(doc);
};
const exp = compare(exportAll, buildAll);
bench(
  'e2b-export',
  perSecond(exp.subject, files.length),
  'cases/s',
  perSecond(exp.floor, files.length),
  '<=2x',
  exp.subject <= 2 * exp.floor,
);
bench(
  'e2b-export-mb',
  mbPerSecond(exp.subject),
  'MB/s',
  mbPerSecond(exp.floor),
  '<=2x',
  exp.subject <= 2 * exp.floor,
);

const exported = batches.map(({ batch, cases }) =>
  exportR3({ ...batch, reports: cases.map((c) => caseToRecord(c)) }),
);
await validateR3Xml(exported[0] as string);
const xsdStarted = performance.now();
for (const xml of exported) await validateR3Xml(xml);
const xsdMs = (performance.now() - xsdStarted) / exported.length;
console.log(
  `e2b-export-xsd: ${xsdMs.toFixed(1)} ms per message for libxml2 XSD validation (not part of the ratio)`,
);

// 3. A zip of messages through the server's import: the file in the file store, an import record,
// and the parse job (server/src/imports) run by the job runner as an upload would have it. Memory
// is sampled while the job runs: the heap retained after a full collection, and RSS.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const base = readFileSync(`${samples}fda-faers_FAERS2022Scenario1.xml`, 'utf8');
const zipOf = (n: number): Uint8Array => {
  const entries: Record<string, Uint8Array> = {};
  for (let i = 0; i < n; i++)
    entries[`m${String(i).padStart(4, '0')}.xml`] = new TextEncoder().encode(
      base.replaceAll('US-APHARMA-8744554B', `US-APHARMA-${i}`),
    );
  return zipSync(entries, { level: 6 });
};

const store = await testStore();
const fileStore = await openFileStore(store, { dataDir: store.dataDir });
const platform = testPlatform({
  store,
  files: fileStore,
  modules: [importsModule],
  authenticator: { authenticate: async () => null, authorize: () => false },
});
await platform.ready();
const runner = new JobRunner(platform.deps, platform.jobDefinitions, { owner: 'bench' });
const tenant = store.tenant('bench', { userId: 'system:bench' });

interface ZipRun {
  messages: number;
  zipMb: number;
  seconds: number;
  reports: number;
  heapBeforeMb: number;
  heapPeakMb: number;
  rssPeakMb: number;
}

async function importZip(messages: number): Promise<ZipRun> {
  const zip = zipOf(messages);
  const stored = await fileStore.forTenant(tenant).putStream(Readable.from([Buffer.from(zip)]), {
    fileName: `bench-${messages}.zip`,
    contentType: 'application/zip',
    maxBytes: zip.length,
    owner: { kind: 'upload', id: 'bench' },
  });
  const record = await tenant.collection<ImportRecord>(IMPORT_RECORDS).insertOne({
    fileName: `bench-${messages}.zip`,
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
    importedAt: new Date().toISOString(),
    completedAt: null,
    exception: null,
    projectId: 'bench',
    meddraVersionId: 'bench',
    whodrugVersionId: 'bench',
    format: null,
    profile: null,
    reportCount: 0,
    rejected: false,
    jobId: null,
  });
  await platform.deps.jobs.enqueue<ParseJobPayload>(
    PARSE_JOB,
    { recordId: record._id },
    { tenantId: 'bench', requestedBy: 'bench', jobId: record._id, maxAttempts: 1 },
  );
  gc();
  const heapBeforeMb = process.memoryUsage().heapUsed / 1024 / 1024;
  let heapPeakMb = heapBeforeMb;
  let rssPeakMb = process.memoryUsage().rss / 1024 / 1024;
  // The job awaits the store and libxml2 between messages: the sampler runs there.
  const sampler = setInterval(() => {
    gc();
    const usage = process.memoryUsage();
    heapPeakMb = Math.max(heapPeakMb, usage.heapUsed / 1024 / 1024);
    rssPeakMb = Math.max(rssPeakMb, usage.rss / 1024 / 1024);
  }, 200);
  const started = performance.now();
  await runner.tick();
  await runner.idle();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const done = await tenant.collection<ImportRecord>(IMPORT_RECORDS).findOne({ _id: record._id });
  if (done?.parseStatus !== 'completed')
    throw new Error(
      `the import of ${messages} messages ended ${done?.parseStatus}: ${JSON.stringify(done?.exception)}`,
    );
  return {
    messages,
    zipMb: zip.length / 1024 / 1024,
    seconds,
    reports: done.reportCount,
    heapBeforeMb,
    heapPeakMb,
    rssPeakMb,
  };
}

// A first import warms the XSD validator and the store up, so that neither run pays for it.
await importZip(100);
const runs: ZipRun[] = [];
for (const n of [100, 1000]) runs.push(await importZip(n));
await fileStore.close();
await store.close();
for (const r of runs)
  console.log(
    `e2b-zip-import: ${r.messages} messages (${r.zipMb.toFixed(1)} MB zipped) -> ${r.reports} reports through the server import job in ${r.seconds.toFixed(1)} s (${(r.messages / r.seconds).toFixed(1)} messages/s); retained heap ${r.heapBeforeMb.toFixed(0)} MB before, at most ${r.heapPeakMb.toFixed(0)} MB during; peak RSS ${r.rssPeakMb.toFixed(0)} MB`,
  );
const [small, large] = runs as [ZipRun, ZipRun];
const growth = large.heapPeakMb - small.heapPeakMb;
console.log(`e2b-zip-import: process peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
// Flat: ten times the messages may not retain more than 16 MB more heap at its peak.
console.log(
  benchLine({
    name: 'e2b-zip-heap-growth',
    figure: growth,
    unit: 'MB',
    floor: small.heapPeakMb,
    ratio: large.heapPeakMb / small.heapPeakMb,
    target: '<=16MB',
    met: growth <= 16,
  }),
);
console.log(
  benchLine({
    name: 'e2b-zip-peak-rss',
    figure: large.rssPeakMb,
    unit: 'MB',
    floor: small.rssPeakMb,
    ratio: large.rssPeakMb / small.rssPeakMb,
    target: '<=1.5x',
    met: large.rssPeakMb <= 1.5 * small.rssPeakMb,
  }),
);
