/**
 * Builders shared by the rules-table tests (one per authority): a case from a few knobs, and the
 * row check (plan, due date, explanation with the facts read and their E2B sources).
 */
import { expect } from 'vitest';
import { proposePlan, reportingRules } from './index';
import type { Authority, PlanProposal } from './types';

export interface CaseKnobs {
  study?: boolean;
  susar?: boolean;
  fatal?: boolean;
  lifeThreatening?: boolean;
  hospital?: boolean;
  unexpected?: boolean;
  /** Occurrence country as E.i.9 of the reaction. */
  country?: string;
  /** Occurrence country only from the primary source's C.2.r.3. */
  reporterCountry?: string;
  /** G.k.3.2 of the suspect drug; null: no authorisation. */
  approvedIn?: string | null;
  followUp?: boolean;
  first?: string;
  last?: string;
}

export function buildCase(k: CaseKnobs) {
  return {
    state: { versionType: k.followUp ? 'followUp' : 'initial', isSusar: k.susar === true, isSae: false },
    report: {
      reportType: k.study ? '2' : '1',
      reportDateFirst: k.first ?? '20261101',
      reportDateLast: k.last ?? '20261120',
    },
    reporters: [{ isPrimarySource: '1', reporterCountry: k.reporterCountry ?? k.country ?? null }],
    reactions: [
      {
        reactionCountry: k.reporterCountry ? null : (k.country ?? null),
        isResultInDeath: k.fatal === true,
        isThreadToLife: k.lifeThreatening === true,
        isCauseInHospital: k.hospital === true,
      },
    ],
    drugs: [
      {
        drugCharacterisation: '1',
        isClinicalDrug: k.study === true,
        authorisationCountry: k.approvedIn ?? null,
        reactionAssessments: [{ isUnintended: k.unexpected ? '1' : '0' }],
      },
    ],
  };
}

export interface Row {
  name: string;
  knobs: CaseKnobs;
  reportedBefore?: boolean;
  ruleId: string;
  isSubmit: boolean;
  /** ISO due day, or null for no submission. */
  dueDate: string | null;
  clockStart?: 'C.1.4' | 'C.1.5';
  /** Facts the explanation must show with these values. */
  facts: Record<string, string | boolean | null>;
}

/** The E2B id (or case-state field) each fact must name as its source. */
const SOURCES: Record<string, string> = {
  isStudy: 'C.1.3',
  isSusar: 'state.isSusar',
  fatalOrLifeThreatening: 'E.i.3.2a',
  isFatal: 'E.i.3.2a',
  isUnexpected: 'G.k.9.i.CN.1',
  isApprovedHere: 'G.k.3.2',
  isFollowUp: 'state.versionType',
  reportedBefore: 'submissionPlans',
};

export function checkRow(authority: Authority, row: Row): PlanProposal {
  const plan = proposePlan(
    reportingRules[authority],
    buildCase(row.knobs),
    { receiverId: 'R1', authority },
    {
      reportedBefore: row.reportedBefore,
    },
  );
  expect(plan.explanation.ruleId).toBe(row.ruleId);
  expect(plan.isSubmit).toBe(row.isSubmit);
  expect(plan.dueDate).toBe(row.dueDate);
  expect(plan.receiverId).toBe('R1');
  expect(plan.authority).toBe(authority);
  if (row.isSubmit) {
    expect(plan.noneSubmitWhy).toBeNull();
    if (row.clockStart) expect(plan.clockStart?.e2b).toBe(row.clockStart);
  } else {
    expect(plan.noneSubmitWhy?.zh).toBeTruthy();
    expect(plan.noneSubmitWhy?.en).toBeTruthy();
    expect(plan.clockStart).toBeNull();
  }
  for (const [fact, value] of Object.entries(row.facts)) {
    const read = plan.explanation.facts.find((f) => f.fact === fact);
    expect(read, `${row.name}: fact ${fact} in the explanation`).toBeDefined();
    expect(read?.value, `${row.name}: ${fact}`).toBe(value);
    if (SOURCES[fact]) expect(read?.from, `${row.name}: ${fact} source`).toContain(SOURCES[fact]);
    else expect(read?.from.length).toBeGreaterThan(0);
  }
  expect(plan.explanation.source.length).toBeGreaterThan(0);
  expect(plan.explanation.label.zh && plan.explanation.label.en).toBeTruthy();
  return plan;
}
