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
