/**
 * The personal workbench's case feeds (SPEC 2 /home): cases waiting for the caller, cases past
 * their expedited-reporting deadline, and cases due within 7, 15 or 30 days - all from summaries.
 */
import { addDays, reminderBucket, reportingReminderDays } from '@pv/engine';
import { errors } from '../http';
import type { Filter, Handle } from '../store';
import { C } from './collections';
import type { CaseListRow } from './list';
import { toRow } from './list';
import type { CaseSummary } from './summary';

export interface FeedPage {
  page: number;
  size: number;
}

export interface WorkbenchRow extends CaseListRow {
  /** Days left to the due date (negative when overdue), or null without a deadline. */
  daysLeft: number | null;
  reminder: number | 'overdue' | null;
}

const scope = (projectIds: string[]): Filter =>
  projectIds.length ? { 'v.report_studyProjectId': { $in: projectIds } } : {};

function withDeadline(summary: CaseSummary, today: string): WorkbenchRow {
  const due = summary.deadline?.dueDate;
  return {
    ...toRow(summary),
    daysLeft: due ? Math.round((Date.parse(due) - Date.parse(today)) / 86_400_000) : null,
    reminder: due && summary.deadline?.runs ? reminderBucket(reportingReminderDays, due, today) : null,
  };
}

export const todoFilter = (userId: string, projectIds: string[]): Filter => ({
  'state.handlerId': userId,
  'state.validity': 'valid',
  'state.isCompleted': false,
  ...scope(projectIds),
});

export const overdueFilter = (today: string, projectIds: string[]): Filter => ({
  'deadline.runs': true,
  'deadline.dueDate': { $lt: today },
  ...scope(projectIds),
});

export function predueFilter(today: string, days: number, projectIds: string[]): Filter {
  if (!reportingReminderDays.includes(days)) {
    throw errors.badRequest('cases.badReminder', {
      days,
      allowed: reportingReminderDays.join('/'),
    });
  }
  return {
    'deadline.runs': true,
    'deadline.dueDate': { $gte: today, $lte: addDays(today, days) },
    ...scope(projectIds),
  };
}

export async function feed(
  handle: Handle,
  filter: Filter,
  sort: Record<string, 1 | -1>,
  page: FeedPage,
  today: string,
): Promise<{ total: number; page: number; size: number; items: WorkbenchRow[] }> {
  const summaries = handle.collection<Omit<CaseSummary, '_id'>>(C.summaries);
  const [total, docs] = await Promise.all([
    summaries.count(filter),
    summaries.find(filter, {
      sort,
      skip: (page.page - 1) * page.size,
      limit: page.size,
      projection: { v: 1, state: 1, deadline: 1 },
    }),
  ]);
  return { ...page, total, items: docs.map((doc) => withDeadline(doc as CaseSummary, today)) };
}

/** Counts for the workbench tiles. */
export async function counts(handle: Handle, userId: string, today: string, projectIds: string[]) {
  const summaries = handle.collection(C.summaries);
  const predue: Record<string, number> = {};
  for (const days of reportingReminderDays)
    predue[days] = await summaries.count(predueFilter(today, days, projectIds));
  return {
    todo: await summaries.count(todoFilter(userId, projectIds)),
    overdue: await summaries.count(overdueFilter(today, projectIds)),
    predue,
  };
}
