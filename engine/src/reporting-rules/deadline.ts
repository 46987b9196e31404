/**
 * A case's reporting deadline: the earliest due date over its receivers' plans that are still open
 * (the rules say submit, nobody decided not to, the case's current version has not gone to that
 * receiver yet). One declaration of the clocks: the authorities' rule files.
 */
import remindersJson from '../../../schemas/rules/reporting/reminders.json';
import type { Bilingual } from '../workflow/types';
import type { Authority, ClockStartElement, PlanProposal } from './types';

/** The workbench's pre-due windows in days (schemas/rules/reporting/reminders.json). */
export const reportingReminderDays: readonly number[] = remindersJson.reminderDays;

/** One receiver's plan as the deadline reads it. */
export interface ReceiverPlan {
  receiverId: string;
  receiverName: string;
  proposal: PlanProposal;
  /** A user decided this receiver gets no submission (the case's plan says isSubmit false). */
  declined: boolean;
  /** The case's current version was sent to (or acknowledged by) this receiver. */
  sent: boolean;
}

export interface CaseDeadline {
  receiverId: string;
  receiverName: string;
  authority: Authority;
  ruleId: string;
  label: Bilingual;
  days: number;
  clockStart: { e2b: ClockStartElement; value: string };
  /** ISO day the report is due. */
  dueDate: string;
  /** True while the plan is open and the case is valid: the workbench's overdue and pre-due feeds. */
  runs: boolean;
}

const toDeadline = (plan: ReceiverPlan, runs: boolean): CaseDeadline => ({
  receiverId: plan.receiverId,
  receiverName: plan.receiverName,
  authority: plan.proposal.authority,
  ruleId: plan.proposal.explanation.ruleId,
  label: plan.proposal.explanation.label,
  days: plan.proposal.days ?? 0,
  clockStart: plan.proposal.clockStart!,
  dueDate: plan.proposal.dueDate!,
  runs,
});

/**
 * The earliest open due date over the plans (runs while the case is valid); when none is open,
 * the earliest due date of the submitting plans, not running; null when no plan has a due date.
 */
export function caseDeadline(plans: readonly ReceiverPlan[], caseValid: boolean): CaseDeadline | null {
  const dated = plans
    .filter((p) => p.proposal.isSubmit && p.proposal.dueDate && p.proposal.clockStart && !p.declined)
    .sort((a, b) => a.proposal.dueDate!.localeCompare(b.proposal.dueDate!));
  const open = dated.find((p) => !p.sent);
  if (open) return toDeadline(open, caseValid);
  return dated.length ? toDeadline(dated[0], false) : null;
}
