/**
 * `npm run bench -- submissions` (issue 19): reporting-rules evaluation for 100,000 cases across 3
 * receivers (NMPA, FDA, EMA): each case's facts once, then a plan proposal with its due date and
 * explanation per receiver. Target: <= 10 s. Floor: the old global deadline list (the retired
 * schemas/workflows/reporting-deadlines.json, kept below as it was, for the floor only) evaluated
 * on the same cases, once per receiver.
 * Not measured yet: the expedited-report list and the FDA business-rule pack (not built).
 */
import { addDays, caseFacts, earliestDay, evaluateFacts, holds, reportingRules } from '@pv/engine';
import type { Facts, RuleReceiver } from '@pv/engine';

type Condition = Parameters<typeof holds>[0];
import { benchLine } from './measure';

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
