/**
 * The data change log (SPEC 2 /checklog/logHistory; issue 17 item 4): the audit trail of case data
 * of the caller's projects - field (E2B id), before, after, reason, who, when, case version - with
 * filters (project, report code, field, user, date range) and XLSX export. The trail is the store's
 * own (written with each change); this reads it, one line per changed field.
 */
import { AUDIT_COLLECTION } from '../store';
import type { AuditEntry, Filter, Handle } from '../store';
import type { Caller } from '../http';
import { caseCollectionNames, fieldLines, handlerNames, reasonOf } from '../cases';
import type { SliceAnswer } from './paged-list';
import { sliceTotal } from './paged-list';

export interface DataChangeQuery {
  reportCode?: string;
  field?: string;
  user?: string;
  from?: string;
  to?: string;
}

export interface DataChangeLine {
  key: string;
  caseId: string;
  reportCode: string;
  rev: number;
  at: string;
  userId: string;
  userName: string;
  operation: string;
  reason: string | null;
  pointer: string;
  e2b: string | null;
  label: { zh: string; en: string } | null;
  before: unknown;
  after: unknown;
}

/** The cases of the projects (their report codes), optionally one report code's. */
async function casesOf(handle: Handle, projects: Filter, reportCode?: string) {
  const filter: Filter = {};
  if (projects.projectId !== undefined) filter['v.report_studyProjectId'] = projects.projectId;
  if (reportCode) filter['v.report_reportCode'] = reportCode;
  const summaries = await handle
    .collection<{ v: Record<string, unknown> }>(caseCollectionNames.summaries)
    .find(filter, { projection: { 'v.report_reportCode': 1 }, limit: 20_000 });
  return new Map(summaries.map((s) => [s._id, String(s.v?.report_reportCode ?? '')]));
}

/**
 * One page of the log: audit entries of the cases in scope, newest first, each broken into its
 * field lines (a field filter keeps the lines of that field, E2B id or pointer).
 */
export async function dataChanges(
  caller: Caller,
  projects: Filter,
  query: DataChangeQuery,
  page: { skip: number; limit: number },
): Promise<SliceAnswer<DataChangeLine>> {
  const handle = caller.tenant;
  const cases = await casesOf(handle, projects, query.reportCode);
  if (!cases.size) return { items: [], total: 0 };
  const filter: Filter = { collection: caseCollectionNames.cases, documentId: { $in: [...cases.keys()] } };
  const at: Record<string, string> = {};
  if (query.from) at.$gte = query.from;
  if (query.to) at.$lt = /^\d{4}-\d{2}-\d{2}$/.test(query.to) ? `${query.to}T23:59:59.999Z` : query.to;
  if (Object.keys(at).length) filter.at = at;
  if (query.user) filter.userId = query.user;
  const trail = handle.collection<AuditEntry>(AUDIT_COLLECTION);
  const [entries, total] = await Promise.all([
    trail.find(filter, { sort: { at: -1, _id: -1 }, skip: page.skip, limit: page.limit }),
    sliceTotal(trail, filter, { ...page, count: true }),
  ]);
  const names = await handlerNames(handle, [...new Set(entries.map((e) => e.userId))]);
  const items = entries.flatMap((entry) =>
    fieldLines(entry)
      .filter((line) => !query.field || line.e2b === query.field || line.path === query.field)
      .map((line, i) => ({
        key: `${entry._id}-${i}`,
        caseId: entry.documentId,
        reportCode: cases.get(entry.documentId) ?? '',
        rev: entry.documentRev,
        at: entry.at,
        userId: entry.userId,
        userName: names.get(entry.userId) ?? entry.userId,
        operation: entry.operation,
        reason: reasonOf(entry, line.path),
        pointer: line.path,
        e2b: line.e2b ?? null,
        label: line.label ?? null,
        before: line.before ?? null,
        after: line.after ?? null,
      })),
  );
  return { items, ...total };
}
