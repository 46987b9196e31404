/**
 * Reporting rules per authority (schemas/rules/reporting/<authority>.json): which cases a receiver
 * of that authority must get, by when, and why.
 */
import emaJson from '../../../schemas/rules/reporting/ema.json';
import fdaJson from '../../../schemas/rules/reporting/fda.json';
import ichJson from '../../../schemas/rules/reporting/ich.json';
import nmpaJson from '../../../schemas/rules/reporting/nmpa.json';
import { receiverAuthority } from './evaluate';
import type { RuleReceiver } from './evaluate';
import type { Authority, ReportingRules } from './types';

export type * from './types';
export { AUTHORITIES } from './types';
export type { RuleReceiver, EvaluateOptions } from './evaluate';
export { proposePlan, evaluateFacts, checkReportingRules, receiverAuthority } from './evaluate';
export type { CaseFacts, ComputedFact, ReportingFact } from './facts';
export { caseFacts, REPORTING_FACTS } from './facts';
export type { CaseDeadline, ReceiverPlan } from './deadline';
export { caseDeadline, reportingReminderDays } from './deadline';

/** The declared rule sets, by authority. */
export const reportingRules: Record<Authority, ReportingRules> = {
  nmpa: nmpaJson as unknown as ReportingRules,
  fda: fdaJson as unknown as ReportingRules,
  ema: emaJson as unknown as ReportingRules,
  ich: ichJson as unknown as ReportingRules,
};

/** The rule set for a receiver (by its authority). */
export function rulesForReceiver(receiver: RuleReceiver): ReportingRules {
  return reportingRules[receiverAuthority(receiver)];
}
