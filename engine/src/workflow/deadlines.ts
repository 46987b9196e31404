/**
 * Expedited-reporting deadlines (schemas/workflows/reporting-deadlines.json): which clock a case
 * runs on, when it falls due, and the workbench's overdue and pre-due buckets.
 */
import { holds } from './conditions';
import type { Condition, Facts } from './conditions';
import type { Bilingual } from './types';

export interface DeadlineRule {
  id: string;
  days: number;
  label: Bilingual;
  when: Condition;
}

export interface DeadlineRules {
  clockStart: { initial: string; followUp: string };
  reminderDays: number[];
  stopWhen: Condition;
  rules: DeadlineRule[];
}

export interface CaseDeadline {
  ruleId: string;
  days: number;
  /** The E2B date the clock started from, as entered. */
  clockStart: string;
  /** ISO date (YYYY-MM-DD) of the day the report is due. */
  dueDate: string;
}

type Doc = Record<string, unknown>;

function at(doc: unknown, pointer: string): unknown {
  let value: unknown = doc;
  for (const token of pointer.split('/').slice(1)) {
    value = value !== null && typeof value === 'object' ? (value as Doc)[token] : undefined;
  }
  return value;
}

/** The six seriousness criteria of a reaction (E.i.3.2a-f). */
export const SERIOUSNESS_CRITERIA = [
  'isResultInDeath',
  'isThreadToLife',
  'isCauseInHospital',
  'isDisability',
  'isBirthDefect',
  'isOtherMedicalEvents',
] as const;

/** The facts deadline rules read, from a case document. */
export function deadlineFacts(caseDoc: unknown): Facts {
  const state = (at(caseDoc, '/state') ?? {}) as Doc;
  const reactions = (Array.isArray(at(caseDoc, '/reactions')) ? at(caseDoc, '/reactions') : []) as Doc[];
  const any = (keys: readonly string[]) => reactions.some((r) => keys.some((k) => r?.[k] === true));
  return {
    isSusar: state.isSusar === true,
    isSerious:
      state.isSae === true || state.isSar === true || state.isSusar === true || any(SERIOUSNESS_CRITERIA),
    fatalOrLifeThreatening: any(['isResultInDeath', 'isThreadToLife']),
    versionType: typeof state.versionType === 'string' ? state.versionType : 'initial',
    isCompleted: state.isCompleted === true,
    validity: typeof state.validity === 'string' ? state.validity : 'valid',
    node: typeof state.workflowNode === 'string' ? state.workflowNode : null,
  };
}

/**
 * The earliest calendar day an E2B date can stand for (`2026` -> 2026-01-01): a partial date
 * starts the clock as early as it could have, so the deadline is never later than the true one.
 */
export function earliestDay(e2bDate: unknown): string | null {
  if (typeof e2bDate !== 'string') return null;
  const match = /^(\d{4})(\d{2})?(\d{2})?/.exec(e2bDate);
  if (!match) return null;
  return `${match[1]}-${match[2] ?? '01'}-${match[3] ?? '01'}`;
}

export function addDays(isoDay: string, days: number): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whole days from `fromDay` to `toDay` (negative when toDay is earlier). */
export function daysBetween(fromDay: string, toDay: string): number {
  return Math.round((Date.parse(`${toDay}T00:00:00Z`) - Date.parse(`${fromDay}T00:00:00Z`)) / 86_400_000);
}

/** The case's reporting deadline, or null when no rule applies or the clock start is unknown. */
export function reportingDeadline(rules: DeadlineRules, caseDoc: unknown): CaseDeadline | null {
  const facts = deadlineFacts(caseDoc);
  const rule = rules.rules.find((r) => holds(r.when, facts));
  if (!rule) return null;
  const pointer = facts.versionType === 'followUp' ? rules.clockStart.followUp : rules.clockStart.initial;
  const clockStart = at(caseDoc, pointer);
  const day = earliestDay(clockStart);
  if (!day) return null;
  return {
    ruleId: rule.id,
    days: rule.days,
    clockStart: String(clockStart),
    dueDate: addDays(day, rule.days),
  };
}

/** True while the deadline still runs (not completed, not yet in transmission, still valid). */
export function deadlineRuns(rules: DeadlineRules, caseDoc: unknown): boolean {
  return !holds(rules.stopWhen, deadlineFacts(caseDoc));
}

/**
 * The smallest reminder window the due date falls in (7, 15 or 30 days ahead of today), 'overdue'
 * when it has passed, or null when it is further away than every window.
 */
export function reminderBucket(
  rules: DeadlineRules,
  dueDate: string,
  today: string,
): number | 'overdue' | null {
  const left = daysBetween(today, dueDate);
  if (left < 0) return 'overdue';
  return [...rules.reminderDays].sort((a, b) => a - b).find((days) => left <= days) ?? null;
}
