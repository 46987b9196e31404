/**
 * What pooled analysis counts of a case's submissions (issue 22: submitted trends and on-time
 * submission), kept in its summary as `submitted` so the store counts them without reading any
 * case: the day the case was first delivered to a receiver, and whether its reports went on time.
 *
 * - Day: the UTC day of the first delivery (a transmission sent or resubmitted: the day the file left
 *   for the receiver, not the day it was written nor the day an ACK came back), YYYYMMDD as C.1.4.
 * - Reports: the first delivery of each receiver and case version (a follow-up is a report of its
 *   own with its own clock). Its due date comes from the submission plans (the submissions module
 *   provides it); a report without one (sent outside a plan, a nullification) is neither on time
 *   nor late.
 * - Timeliness: late when any report went after its due date, on time when every report with a due
 *   date went on or before it, noDueDate when none had one.
 *
 * Computed from the case's transmission lines in its workflow history, so a summary rebuilt from
 * scratch (summary-layout.ts) gets the same facts as one kept up to date move by move.
 */
import { mountedRegistry } from '../http';
import type { Handle } from '../store';
import type { WorkflowHistoryEntry } from '../workflow';
import { C } from './collections';

export const SUBMISSION_TIMELINESS = ['onTime', 'late', 'noDueDate'] as const;
export type SubmissionTimeliness = (typeof SUBMISSION_TIMELINESS)[number];

export interface SubmittedFacts {
  /** YYYYMMDD (UTC) of the first delivery to any receiver. */
  day: string;
  timeliness: SubmissionTimeliness;
}

/** The first delivery of the case's report to one receiver, for one version. */
export interface DeliveredReport {
  receiverId: string;
  version: number | null;
  exportId: string;
  /** ISO day (UTC) it left. */
  day: string;
}

/** The due date (ISO day) of each delivered report, or null when its plan has none. */
export type ReportDueDates = (
  handle: Handle,
  caseId: string,
  reports: DeliveredReport[],
) => Promise<(string | null)[]>;

const providers = mountedRegistry<ReportDueDates>();

/** The module that keeps the submission plans says the reports' due dates (as provideCaseDeadline). */
export function provideReportDueDates(provider: ReportDueDates): void {
  providers.set('dueDates', provider);
}

/** Moves that deliver the report to the receiver (a rejection, an ACK or a handling do not). */
const DELIVERIES = new Set(['sent', 'resubmitted']);

interface TransmissionDetails {
  status?: string;
  receiverId?: string;
  exportId?: string;
  exportedVersion?: number | null;
}

export async function submittedFacts(handle: Handle, caseId: string): Promise<SubmittedFacts | null> {
  const lines = await handle
    .collection<WorkflowHistoryEntry>(C.history)
    .find({ caseId, action: 'transmission' }, { sort: { at: 1 }, projection: { at: 1, details: 1 } });
  const first = new Map<string, DeliveredReport>();
  for (const line of lines) {
    const details = (line.details ?? {}) as TransmissionDetails;
    if (!DELIVERIES.has(details.status ?? '') || !details.receiverId) continue;
    const version = details.exportedVersion ?? null;
    const key = JSON.stringify([details.receiverId, version]);
    if (!first.has(key))
      first.set(key, {
        receiverId: details.receiverId,
        version,
        exportId: details.exportId ?? '',
        day: line.at.slice(0, 10),
      });
  }
  const reports = [...first.values()];
  if (!reports.length) return null;
  const dueDates = providers.get('dueDates');
  const due = dueDates ? await dueDates(handle, caseId, reports) : reports.map(() => null);
  const dated = reports.flatMap((r, i) => (due[i] ? [{ day: r.day, due: due[i]! }] : []));
  const timeliness: SubmissionTimeliness = !dated.length
    ? 'noDueDate'
    : dated.some((r) => r.day > r.due)
      ? 'late'
      : 'onTime';
  const day = reports.map((r) => r.day).sort()[0]!;
  return { day: day.replace(/-/g, ''), timeliness };
}
