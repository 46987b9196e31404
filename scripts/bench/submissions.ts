/**
 * `npm run bench -- submissions` (issue 19), three figures (BENCH_SUBMISSIONS_KINDS=rules,list,fda
 * picks some; all when unset):
 * - rules: reporting-rules evaluation for 100,000 cases across 3 receivers (NMPA, FDA, EMA): each
 *   case's facts once, then a plan proposal with its due date and explanation per receiver. Target:
 *   <= 10 s. Floor: the old global deadline list (the retired schemas/workflows/reporting-deadlines.json,
 *   kept below as it was, for the floor only) evaluated on the same cases, once per receiver.
 * - list: the expedited-report list's first page (GET /api/submissions/expedited, 20 rows and the
 *   total) at 100,000 cases with a plan for each of 2 receivers (200,000 plans; 60% in the read
 *   tenant's project, the rest in 4 other tenants), p95 of BENCH_SUBMISSIONS_RUNS requests (default
 *   30) through the app in process. Target <= 50 ms. Floor: the same page and count by hand-written
 *   SQL on the same SQLite file. The store is cached in bench-data/submissions-<cases>-<key>/
 *   (scripts/bench/data.ts).
 * - fda: the FDA pre-send pack on FDA's FAERS Scenario 6 (2 MB, every element, base64 attachments):
 *   read back and checked (engine checkMessage), median of 7 runs. Target <= 500 ms. Floor: the
 *   hardened XML parse of the same file alone.
 */
import { addDays, caseFacts, earliestDay, evaluateFacts, holds, reportingRules } from '@pv/engine';
import type { Facts, RuleReceiver } from '@pv/engine';

type Condition = Parameters<typeof holds>[0];
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { checkMessage, parseXml } from '@pv/engine';
import { workflowModule } from '../../server/src/workflow';
import { reportCodesModule } from '../../server/src/report-codes';
import { createCasesModule, workbenchModule } from '../../server/src/cases/index';
import { recordingSigner } from '../../server/src/cases/testing';
import { exportsModule } from '../../server/src/exports';
import { createSubmissionsModule, submissionCollectionNames as S } from '../../server/src/submissions';
import type { SubmissionPlan } from '../../server/src/submissions';
import { benchLine, percentile } from './measure';
import { openBenchData, storeColumns } from './data';
import type { TenantContext } from './data';

const CASES = 100_000;
const receivers: RuleReceiver[] = [
  { receiverId: 'cde', authority: 'nmpa' },
  { receiverId: 'faers', authority: 'fda' },
  { receiverId: 'ev', authority: 'ema' },
];
const countries = ['CN', 'US', 'DE', 'JP', 'FR'];

// A deterministic spread of cases: study and post-marketing, seriousness, SUSAR, countries.
let seed = 42;
const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
const docs = Array.from({ length: CASES }, (_, i) => ({
  state: { versionType: next() < 0.3 ? 'followUp' : 'initial', isSusar: next() < 0.2, isSae: next() < 0.3 },
  report: {
    reportType: next() < 0.5 ? '2' : '1',
    reportDateFirst: `2026${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}`,
    reportDateLast: '20261201',
  },
  reporters: [{ isPrimarySource: '1', reporterCountry: countries[i % 5] }],
  reactions: [
    {
      reactionCountry: countries[(i * 7) % 5],
      isResultInDeath: next() < 0.05,
      isThreadToLife: next() < 0.05,
    },
    { isCauseInHospital: next() < 0.2 },
  ],
  drugs: [
    {
      drugCharacterisation: '1',
      authorisationCountry: countries[(i * 3) % 5],
      reactionAssessments: [{ isUnintended: next() < 0.4 ? '1' : '0' }],
    },
  ],
}));

function subject(): number {
  let due = 0;
  for (const doc of docs) {
    const facts = caseFacts(doc);
    for (const receiver of receivers) {
      const rules = reportingRules[receiver.authority ?? 'ich'];
      if (evaluateFacts(rules, facts, receiver).dueDate) due++;
    }
  }
  return due;
}

// The retired global list: first rule that holds gives the days from C.1.4 (C.1.5 for a follow-up).
const OLD_LIST: { days: number; when: Condition }[] = [
  {
    days: 7,
    when: {
      all: [
        { fact: 'isSusar', is: true },
        { fact: 'fatalOrLifeThreatening', is: true },
      ],
    },
  },
  { days: 15, when: { fact: 'isSusar', is: true } },
  { days: 15, when: { fact: 'isSerious', is: true } },
];
const CRITERIA = ['isResultInDeath', 'isThreadToLife', 'isCauseInHospital'] as const;

function oldDeadline(doc: (typeof docs)[number]): string | null {
  const any = (keys: readonly string[]) =>
    doc.reactions.some((r) => keys.some((k) => (r as Record<string, unknown>)[k] === true));
  const facts: Facts = {
    isSusar: doc.state.isSusar,
    isSerious: doc.state.isSae || doc.state.isSusar || any(CRITERIA),
    fatalOrLifeThreatening: any(['isResultInDeath', 'isThreadToLife']),
  };
  const rule = OLD_LIST.find((r) => holds(r.when, facts));
  if (!rule) return null;
  const start = doc.state.versionType === 'followUp' ? doc.report.reportDateLast : doc.report.reportDateFirst;
  const day = earliestDay(start);
  return day ? addDays(day, rule.days) : null;
}

function floor(): number {
  let due = 0;
  for (const doc of docs) for (let r = 0; r < receivers.length; r++) if (oldDeadline(doc)) due++;
  return due;
}

const time = (fn: () => number): { ms: number; due: number } => {
  const start = performance.now();
  const due = fn();
  return { ms: performance.now() - start, due };
};

// ---- the expedited-report list's first page at 100,000 cases ----

/** The plans' random numbers go on from where the rules' cases left them. */
const PLAN_SEED = seed;
const RUNS = Number(process.env.BENCH_SUBMISSIONS_RUNS ?? 30);
const LIST_TARGET_MS = 50;
const TENANTS = ['bench', 'other-1', 'other-2', 'other-3'];
const READ_TENANT = TENANTS[0]!;
const SHARE = 0.6;
const PLAN_RECEIVERS = [
  { receiverId: 'cde', receiverName: 'CDE', receiverIdentifier: 'CDE', authority: 'nmpa' as const },
  { receiverId: 'faers', receiverName: 'FDA FAERS', receiverIdentifier: 'ZZFDA', authority: 'fda' as const },
];

function planOf({ tenant, today, random }: TenantContext, n: number, r: number): SubmissionPlan {
  const receiver = PLAN_RECEIVERS[r]!;
  const received = addDays(today.toISOString().slice(0, 10), -Math.floor(random() * 60));
  const days = random() < 0.2 ? 7 : 15;
  const submit = random() < 0.9;
  const states = ['planned', 'inReview', 'approved', 'approved', 'rejected'] as const;
  return {
    batchId: `batch-${tenant}-${Math.floor(n / 50)}`,
    projectId: `p-${tenant}`,
    caseId: `${tenant}-case-${n}`,
    reportCode: `${tenant.toUpperCase()}-${String(n).padStart(7, '0')}`,
    caseVersion: 1,
    ...receiver,
    isSubmit: submit,
    noneSubmitWhy: submit ? null : 'not reportable',
    proposedSubmit: submit,
    ruleId: `${receiver.authority}.susar.${days}`,
    explanation: {
      ruleId: `${receiver.authority}.susar.${days}`,
      label: { zh: '规则', en: 'rule' },
      source: 'bench',
      facts: [],
    },
    clockStart: { e2b: 'C.1.4', value: received.replace(/-/g, '') },
    days,
    dueDate: submit ? addDays(received, days) : null,
    state: states[Math.floor(random() * states.length)]!,
  };
}

async function expeditedListBench(cases: number): Promise<string> {
  const { dataDir, store, platform } = await openBenchData({
    name: 'submissions',
    total: cases,
    tenants: TENANTS,
    share: SHARE,
    projectOf: (tenant) => `p-${tenant}`,
    members: ['reader'],
    seed: PLAN_SEED,
    today: new Date(),
    batch: 1000,
    caseDocuments: (context) => ({
      [S.plans]: PLAN_RECEIVERS.map((_, r) => planOf(context, context.n, r)),
    }),
    modules: [
      createCasesModule({ signer: recordingSigner() }),
      workbenchModule,
      workflowModule,
      reportCodesModule,
      exportsModule,
      createSubmissionsModule({ signer: recordingSigner() }),
    ],
  });

  // The floor: the same page and count by hand-written SQL on the same file.
  const db = new Database(join(dataDir, 'store.sqlite'), { readonly: true });
  const table = `c_${S.plans}`;
  const col = storeColumns(db, table).read;
  // The store keeps a boolean in its index column as x'01' / x'00'.
  const where = `tenantId = ? AND ${col('projectId')} IN (?) AND ${col('isSubmit')} = x'01'`;
  const page = db.prepare(
    `SELECT _id, doc FROM "${table}" WHERE ${where} ORDER BY ${col('dueDate')}, ${col('reportCode')}, ${col('receiverName')} LIMIT 20`,
  );
  const count = db.prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE ${where}`);
  const floorRun = () => {
    for (const row of page.all(READ_TENANT, `p-${READ_TENANT}`) as { doc: string }[]) JSON.parse(row.doc);
    count.get(READ_TENANT, `p-${READ_TENANT}`);
  };
  const headers = { authorization: `Bearer ${READ_TENANT}:reader`, 'lang-type': 'en' };
  const request = async () => {
    const response = await platform.app.request('/api/submissions/expedited', { headers });
    const body = (await response.json()) as { code: number; msg: string; data: { total: number } };
    if (body.code !== 200) throw new Error(`expedited: ${body.code} ${body.msg}`);
    return body.data.total;
  };
  for (let i = 0; i < 3; i++) {
    await request();
    floorRun();
  }

  const times: number[] = [];
  const floors: number[] = [];
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    let started = performance.now();
    floorRun();
    floors.push(performance.now() - started);
    started = performance.now();
    total = await request();
    times.push(performance.now() - started);
  }
  db.close();
  await store.close();
  const figure = percentile(times, 0.95);
  const floorMs = percentile(floors, 0.95);
  console.log(`expedited list: ${total} rows in the read project`);
  return benchLine({
    name: 'submissions.expeditedList-p95',
    figure,
    unit: 'ms',
    floor: floorMs,
    ratio: figure / Math.max(floorMs, 0.01),
    target: `<=${LIST_TARGET_MS}ms`,
    met: figure <= LIST_TARGET_MS,
    digits: 2,
  });
}

// ---- the FDA pre-send pack on FAERS Scenario 6 ----

function fdaPackBench(): string {
  const file = fileURLToPath(
    new URL('../../schemas/e2b/samples/fda-faers_FAERS2022Scenario6.xml', import.meta.url),
  );
  const bytes = readFileSync(file);
  const limits = { maxBytes: 4 * 1024 * 1024 };
  const median = (fn: () => void): number => {
    const runs: number[] = [];
    for (let i = 0; i < 7; i++) {
      const started = performance.now();
      fn();
      runs.push(performance.now() - started);
    }
    return runs.sort((a, b) => a - b)[3]!;
  };
  const result = checkMessage(bytes, 'fda', limits); // warm-up: the pack compiles once
  parseXml(bytes, limits);
  const figure = median(() => checkMessage(bytes, 'fda', limits));
  const floorMs = median(() => parseXml(bytes, limits));
  console.log(
    `FDA pack on Scenario 6 (${(bytes.length / 1024 / 1024).toFixed(1)} MB): ${result.errorCount} rejections, ${result.warningCount} warnings`,
  );
  return benchLine({
    name: 'submissions.fdaPack-scenario6',
    figure,
    unit: 'ms',
    floor: floorMs,
    ratio: figure / floorMs,
    target: '<=500ms',
    met: figure <= 500,
  });
}

const KINDS = process.env.BENCH_SUBMISSIONS_KINDS?.split(',').filter(Boolean);
const wanted = (kind: string): boolean => !KINDS || KINDS.includes(kind);
console.log(
  `load average: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

if (wanted('rules')) {
  time(subject); // warm-up
  time(floor);
  const subjectRun = time(subject);
  const floorRun = time(floor);
  console.log(
    `plans with a due date: ${subjectRun.due} of ${CASES * receivers.length}; old list: ${floorRun.due}`,
  );
  console.log(
    benchLine({
      name: 'submissions.rulesEvaluation',
      figure: subjectRun.ms / 1000,
      unit: 's',
      floor: floorRun.ms / 1000,
      ratio: subjectRun.ms / floorRun.ms,
      target: '<=10s',
      met: subjectRun.ms <= 10_000,
      digits: 2,
    }),
  );
}
if (wanted('list'))
  console.log(await expeditedListBench(Number(process.env.BENCH_SUBMISSIONS_CASES ?? CASES)));
if (wanted('fda')) console.log(fdaPackBench());
