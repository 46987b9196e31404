/**
 * `npm run bench -- validate`: the case check on a large case.
 *
 * 1. Full validation (case schema + every rule profile) of a case with 30 drugs x 3 dosages,
 *    40 reactions with the full 30 x 40 drug-reaction matrix and 30 tests, against the floor
 *    JSON.parse + JSON.stringify of the same document. Target: <= 1x the floor.
 * 2. Compiling one project's validators (layered configuration with project edits, AJV compile,
 *    rule compile) that is not in the cache. Sections the project leaves unchanged reuse their
 *    compiled validators (content-addressed in one AJV instance), as in the server where the base
 *    configuration is compiled first. Target: <= 500 ms. Floor: JSON parse+stringify of the
 *    configuration's schema set. The cold first compile of the base is printed for information.
 * 3. Checking one changed field (its schema and the rules that read it, for its items only), the
 *    median over fields spread over the document. Target: <= 1 ms. Floor: JSON parse+stringify of
 *    the changed field's item.
 * 4. The browser's copy of the check (issue 14 item 6): the standalone module the server serves for
 *    the demo project's configuration (the base: the demo seed publishes no configuration), its
 *    size before gzip (target <= 400 KB) and the time Chromium takes to import it - parse, compile
 *    and evaluate, the bytes already in its HTTP cache - in a fresh page (target <= 50 ms; the
 *    median of four more imports under other URLs is printed for information).
 */
import {
  baseConfiguration,
  compiledConfiguration,
  resolveConfiguration,
  validateCase,
  validateField,
  compileConfigurationUncached,
  largeCase,
} from '@pv/engine';
import type { ConfigEdit } from '@pv/engine';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { bundleValidatorsModule } from '../../server/src/cases/validators-module';
import { benchLine, compareAlternating, timePerCall as measureTimePerCall } from './measure';

const timePerCall = (fn: () => void, minMs = 400): number => measureTimePerCall(fn, minMs, 20, 5);

const compare = (subject: () => void, floor: () => void) =>
  compareAlternating(subject, floor, { rounds: 7, minMs: 150, minRuns: 20, warmup: 5 });

const bench = (
  name: string,
  figure: number,
  unit: string,
  floor: number,
  target: string,
  met: boolean,
): void =>
  console.log(benchLine({ name, figure, unit, floor, ratio: figure / floor, target, met, digits: 3 }));

const projectEdits: ConfigEdit[] = [
  {
    op: 'addField',
    path: 'report.siteCode',
    schema: { type: 'string', maxLength: 20, 'x-label': { zh: '中心编号', en: 'Site code' } },
    required: true,
  },
  { op: 'relabel', path: 'report.reportAmendedWhy', label: { zh: '项目备注', en: 'Project remark' } },
  { op: 'changeOptions', path: 'report.reportType', subset: ['1', '2'] },
  {
    op: 'addRule',
    rule: {
      id: 'project.bench.siteCode',
      severity: 'warning',
      path: 'report.siteCode',
      when: { e2b: 'C.1.3', is: '2' },
      then: { pattern: '^[A-Z0-9-]+$' },
      message: { zh: '中心编号格式', en: 'Site code format' },
    },
  },
];

const base = baseConfiguration();
const configuration = resolveConfiguration(base);
const doc = largeCase();
const text = JSON.stringify(doc);
const now = Date.UTC(2026, 10, 21, 12);

// 1. Full validation.
const coldStart = performance.now();
compiledConfiguration(configuration);
console.log(
  `base configuration, first compile in this process (cold): ${(performance.now() - coldStart).toFixed(0)} ms`,
);
const first = validateCase(configuration, doc, { now });
if (first.findings.length > 0)
  throw new Error(
    `benchmark case should be valid, got ${first.findings.length} findings: ${first.findings[0]!.ruleId}`,
  );
const full = compare(
  () => validateCase(configuration, doc, { now }),
  () => JSON.stringify(JSON.parse(text)),
);
console.log(
  `case: ${(text.length / 1024).toFixed(0)} KiB JSON, 30 drugs x 3 dosages, 40 reactions, 1200 drug-reaction pairs, 30 tests`,
);
bench('validate.full-case', full.subject, 'ms', full.floor, '<=1x', full.subject <= full.floor);

// 2. Compile one project's validators (cold: new configuration, no cache).
const schemaText = JSON.stringify(base.schemas);
const compileTimes: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  const project = resolveConfiguration(base, {
    project: [
      ...projectEdits,
      { op: 'relabel', path: 'report.reportAmendedWhy', label: { en: `Remark ${i}` } },
    ],
  });
  compileConfigurationUncached(project);
  compileTimes.push(performance.now() - started);
}
const compileMedian = compileTimes.sort((a, b) => a - b)[2]!;
const compileFloor = timePerCall(() => JSON.stringify(JSON.parse(schemaText)));
bench('validate.compile-project', compileMedian, 'ms', compileFloor, '<=500ms', compileMedian <= 500);

// 3. One changed field.
const pointers = [
  '/drugs/15/dosages/1/startDate',
  '/drugs/29/reactionAssessments/39/intervalFromStart',
  '/reactions/20/endDate',
  '/patient/age',
  '/report/reportType',
  '/report/cnReportClassify',
  '/reporters/0/isPrimarySource',
  '/tests/12/testResultValue',
];
const fieldTimes: { pointer: string; ms: number }[] = pointers.map((pointer) => ({
  pointer,
  ms: timePerCall(() => validateField(configuration, doc, pointer, { now }), 100),
}));
const parent = (doc as { drugs: unknown[] }).drugs[15];
const parentText = JSON.stringify(parent);
const fieldFloor = timePerCall(() => JSON.stringify(JSON.parse(parentText)), 100);
for (const { pointer, ms } of fieldTimes) console.log(`field ${pointer}: ${ms.toFixed(4)} ms`);
const sorted = fieldTimes.map((item) => item.ms).sort((a, b) => a - b);
const fieldMedian = sorted[Math.floor(sorted.length / 2)]!;
const fieldWorst = sorted.at(-1)!;
bench('validate.one-field', fieldMedian, 'ms', fieldFloor, '<=1ms', fieldMedian <= 1);
bench('validate.one-field-worst', fieldWorst, 'ms', fieldFloor, '<=1ms', fieldWorst <= 1);

// 4. The standalone module in the browser.
const moduleCode = await bundleValidatorsModule(configuration);
const moduleBytes = Buffer.byteLength(moduleCode);
console.log(
  `standalone module: ${(moduleBytes / 1024).toFixed(0)} KB, ${(gzipSync(moduleCode).length / 1024).toFixed(0)} KB gzipped`,
);
bench(
  'validate.standalone-module-size',
  moduleBytes / 1024,
  'KB',
  Buffer.byteLength(schemaText) / 1024,
  '<=400KB',
  moduleBytes <= 400 * 1024,
);
const moduleServer = createServer((request, response) => {
  if ((request.url ?? '').startsWith('/validators.js')) {
    response.writeHead(200, {
      'Content-Type': 'text/javascript',
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
    response.end(moduleCode);
  } else {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><title>import</title>');
  }
});
await new Promise<void>((listening) => moduleServer.listen(0, '127.0.0.1', listening));
const origin = `http://127.0.0.1:${(moduleServer.address() as AddressInfo).port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  const importTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    importTimes.push(
      await page.evaluate(async (url) => {
        await (await fetch(url)).text();
        const started = performance.now();
        const loaded = (await import(url)) as { validateCase?: unknown };
        if (typeof loaded.validateCase !== 'function') throw new Error('no validateCase');
        return performance.now() - started;
      }, `${origin}/validators.js?i=${i}`),
    );
  }
  const [cold, ...again] = importTimes;
  const againMedian = again.sort((a, b) => a - b)[Math.floor(again.length / 2)]!;
  console.log(
    `module import in Chromium: first ${cold!.toFixed(1)} ms, again (median) ${againMedian.toFixed(1)} ms`,
  );
  const parseFloor = await page.evaluate((text) => {
    const started = performance.now();
    JSON.parse(text);
    return performance.now() - started;
  }, JSON.stringify(moduleCode));
  bench('validate.standalone-compile-browser', cold!, 'ms', parseFloor, '<=50ms', cold! <= 50);
} finally {
  await browser.close();
  moduleServer.close();
}
