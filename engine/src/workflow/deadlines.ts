/**
 * Reporting-clock arithmetic on E2B dates and the workbench's overdue and pre-due buckets. Which
 * clock applies is declared per authority (schemas/rules/reporting, engine/src/reporting-rules).
 */

/** The six seriousness criteria of a reaction (E.i.3.2a-f). */
export const SERIOUSNESS_CRITERIA = [
  'isResultInDeath',
  'isThreadToLife',
  'isCauseInHospital',
  'isDisability',
  'isBirthDefect',
  'isOtherMedicalEvents',
] as const;

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

/**
 * The smallest reminder window the due date falls in (7, 15 or 30 days ahead of today), 'overdue'
 * when it has passed, or null when it is further away than every window.
 */
export function reminderBucket(
  reminderDays: readonly number[],
  dueDate: string,
  today: string,
): number | 'overdue' | null {
  const left = daysBetween(today, dueDate);
  if (left < 0) return 'overdue';
  return [...reminderDays].sort((a, b) => a - b).find((days) => left <= days) ?? null;
}
