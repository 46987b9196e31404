/** The reporting-rule format of schemas/rules/reporting/<authority>.json (reporting-rules.schema.json). */
import type { Condition, FactValue } from '../workflow/conditions';
import type { Bilingual } from '../workflow/types';

export type Authority = 'nmpa' | 'fda' | 'ema' | 'ich';
export const AUTHORITIES: readonly Authority[] = ['nmpa', 'fda', 'ema', 'ich'];

/** The E2B date that starts a clock: C.1.4 first received, C.1.5 most recent information. */
export type ClockStartElement = 'C.1.4' | 'C.1.5';

export interface ReportingClock {
  days: number;
  clockStart: ClockStartElement;
}

export interface ReportingRule {
  id: string;
  label: Bilingual;
  /** Absent: the rule always holds (the last, catch-all rule). */
  when?: Condition;
  outcome: 'submit' | 'noSubmission';
  initial?: ReportingClock;
  followUp?: ReportingClock;
  noSubmissionReason?: Bilingual;
  source: string;
}

export interface ReportingRules {
  authority: Authority;
  label: Bilingual;
  /** Where an occurrence is local and an authorisation (G.k.3.2) counts as approved here. */
  countries: string[];
  rules: ReportingRule[];
}

/** One fact the decision read: its value and the E2B elements (or case-state fields) it came from. */
export interface FactRead {
  fact: string;
  value: FactValue;
  /** E2B ids the value was read from; `state.*` names a case-state flag without an E2B id. */
  from: string[];
}

export interface PlanExplanation {
  ruleId: string;
  label: Bilingual;
  source: string;
  /** Every fact the rules up to and including the deciding one read, in reading order. */
  facts: FactRead[];
}

/** A proposed submission plan for one receiver. */
export interface PlanProposal {
  receiverId: string | null;
  authority: Authority;
  isSubmit: boolean;
  /** Why no submission is required (SPEC: noneSubmitWhy); null when submitting. */
  noneSubmitWhy: Bilingual | null;
  /** Which clock applies: the initial report's or a follow-up's. */
  clockKind: 'initial' | 'followUp' | null;
  days: number | null;
  clockStart: { e2b: ClockStartElement; value: string } | null;
  /** ISO day the report is due; null when not submitting or the clock start date is missing. */
  dueDate: string | null;
  explanation: PlanExplanation;
}
