/**
 * `npm run bench -- e2b`: E2B(R3) interchange throughput on the FDA FAERS samples.
 *
 * 1. Import: hardened parse + declared mapping + case-document binding, per message, against the
 *    floor fast-xml-parser parse of the same XML. Target: <= 2x the floor's time.
 * 2. Export: case document -> records -> XML (mapping, XSD sequence order, serialisation), against
 *    the floor fast-xml-parser build of the same document. Target: <= 2x. (The XSD validation each
 *    export then passes is reported on its own line: it is libxml2's time, not ours.)
 * 3. A zip of 1,000 messages imported entry by entry: growth of the heap retained after a full GC
 *    between message 100 and message 1,000 (the floor is the heap after 100). Target: flat (<= 16 MB);
 *    peak RSS is reported beside it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { zipSync } from 'fflate';
import {
  caseToRecord,
  exportR3,
  importR3,
  importR3Tree,
  parseXml,
  recordToCase,
  zipXmlEntries,
} from '../../engine/src/interchange/index';
import type { E2bBatch } from '../../engine/src/interchange/index';
import { validateR3Xml } from '../../server/src/interchange/xsd';
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

// 3. A zip of 1,000 messages, imported entry by entry.
const base = readFileSync(`${samples}fda-faers_FAERS2022Scenario1.xml`, 'utf8');
const entries: Record<string, Uint8Array> = {};
for (let i = 0; i < 1000; i++)
  entries[`m${String(i).padStart(4, '0')}.xml`] = new TextEncoder().encode(
    base.replaceAll('US-APHARMA-8744554B', `US-APHARMA-${i}`),
  );
const zip = zipSync(entries, { level: 6 });
// Retained memory is measured after a full collection; RSS alone also counts garbage not yet collected.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = (): number => {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};
const rssMb = (): number => process.memoryUsage().rss / 1024 / 1024;
let heapAfterHundred = 0;
let heapPeak = 0;
let rssPeak = 0;
let count = 0;
const zipStarted = performance.now();
for (const entry of zipXmlEntries(zip)) {
  for (const report of importR3Tree(parseXml(entry.bytes)).batch.reports) recordToCase(report);
  count++;
  if (count % 100 === 0) {
    const heap = heapMb();
    if (count === 100) heapAfterHundred = heap;
    heapPeak = Math.max(heapPeak, heap);
    rssPeak = Math.max(rssPeak, rssMb());
  }
}
const zipMs = performance.now() - zipStarted;
const growth = heapPeak - heapAfterHundred;
console.log(
  `e2b-zip: ${count} messages (${(zip.length / 1024 / 1024).toFixed(1)} MB zipped) in ${(zipMs / 1000).toFixed(1)} s (${(count / (zipMs / 1000)).toFixed(1)} messages/s); heap after GC: ${heapAfterHundred.toFixed(0)} MB after 100, at most ${heapPeak.toFixed(0)} MB; peak RSS ${rssPeak.toFixed(0)} MB (process maximum ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB)`,
);
console.log(
  `BENCH e2b-zip-heap-growth ${growth.toFixed(1)} MB floor ${heapAfterHundred.toFixed(1)} MB ratio ${(heapPeak / heapAfterHundred).toFixed(2)} target <=16MB ${growth <= 16 ? 'met' : 'missed'}`,
);
