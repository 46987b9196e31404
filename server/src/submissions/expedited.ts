/**
 * The expedited-report list (SPEC 2 /submittransfer/viewExpeditedReports): every planned report
 * to submit with its receiver, authority, rule, clock start, due date, days left and state, and a
 * compliance summary per receiver and month. The state joins the plan's review with the case's
 * transmissions to that receiver (cases/transmission.ts): planned, approved, sent, acknowledged,
 * rejected; late when the due date passed before it was sent.
 */
import ExcelJS from 'exceljs';
import { daysBetween } from '@pv/engine';
import { caseCollectionNames, listScope, scopeIds, emptyScope } from '../cases';
import type { Caller, PageQuery } from '../http';
import { pageOptions } from '../http';
import type { Filter, StoredDoc } from '../store';
import { textMatch } from '../store';
import type { KeptTransmission } from './deadline';
import { EXPORTS } from '../exports';
import type { ExportRecord } from '../exports';
import { S } from './model';
import type { PlanReviewState, SubmissionPlan } from './model';

export const EXPEDITED_PERMISSION = 'submittransfer:viewExpeditedReports';

export type ReportState = PlanReviewState | 'exported' | 'sent' | 'acknowledged' | 'ackRejected';

export interface ExpeditedQuery extends PageQuery {
  projectId?: string;
  receiverId?: string;
  authority?: string;
  reviewState?: PlanReviewState | '';
  reportCode?: string;
  dueFrom?: string;
  dueTo?: string;
}

const DELIVERED: Record<string, ReportState> = {
  sent: 'sent',
  resubmitted: 'sent',
  handled: 'sent',
  acknowledged: 'acknowledged',
  rejected: 'ackRejected',
};

async function filterOf(caller: Caller, query: ExpeditedQuery): Promise<Filter | null> {
  const scope = await listScope(caller, EXPEDITED_PERMISSION);
  if (emptyScope(scope)) return null;
  const ids = scopeIds(scope);
  const filter: Filter = { isSubmit: true };
  if (query.projectId) {
    if (ids.length && !ids.includes(query.projectId)) return null;
    filter.projectId = query.projectId;
  } else if (ids.length) filter.projectId = { $in: ids };
  if (query.receiverId) filter.receiverId = query.receiverId;
  if (query.authority) filter.authority = query.authority;
  if (query.reviewState) filter.state = query.reviewState;
  if (query.reportCode) filter.reportCode = textMatch(query.reportCode, { mode: 'contains' });
  const due: Record<string, string> = {};
  if (query.dueFrom) due.$gte = query.dueFrom;
  if (query.dueTo) due.$lte = query.dueTo;
  if (Object.keys(due).length) filter.dueDate = due;
  return filter;
}

/** A plan with its report state, days left (null once sent) and whether it is late. */
async function rowsOf(caller: Caller, plans: StoredDoc<SubmissionPlan>[]) {
  const today = caller.clock.now().toISOString().slice(0, 10);
  const caseIds = [...new Set(plans.map((p) => p.caseId))];
  const summaries = caseIds.length
    ? await caller.tenant
        .collection<{ transmission?: { receivers: KeptTransmission[] } | null }>(
          caseCollectionNames.summaries,
        )
        .find({ _id: { $in: caseIds } }, { projection: { transmission: 1 } })
    : [];
  const kept = new Map(summaries.map((s) => [s._id, s.transmission?.receivers ?? []]));
  const exportIds = [...new Set(plans.flatMap((p) => (p.exportId ? [p.exportId] : [])))];
  const exported = new Map(
    (exportIds.length
      ? await caller.tenant
          .collection<ExportRecord>(EXPORTS)
          .find({ _id: { $in: exportIds } }, { projection: { status: 1, sentAt: 1, cases: 1 } })
      : []
    ).map((e) => [e._id, e]),
  );
  return plans.map((plan) => {
    // The export that carries the plan's report says what became of it (a nullification of an
    // acknowledged version is a transmission of its own); a resubmitted one, its replacement's line.
    const file = plan.exportId ? exported.get(plan.exportId) : undefined;
    const fromFile = file && file.status !== 'resubmitted' ? fileState(file, plan.caseId) : null;
    const move = (kept.get(plan.caseId) ?? []).find(
      (t) => t.receiverId === plan.receiverId && (t.version === null || t.version === plan.caseVersion),
    );
    const delivered =
      fromFile?.state ?? (plan.state === 'approved' && move ? DELIVERED[move.status] : undefined);
    const state: ReportState = delivered ?? plan.state;
    const sentAt = fromFile ? fromFile.sentAt : (move?.at ?? null);
    const sentDay =
      delivered && delivered !== 'ackRejected' && delivered !== 'exported' && sentAt
        ? sentAt.slice(0, 10)
        : null;
    const late = plan.dueDate ? (sentDay ?? today) > plan.dueDate : false;
    return {
      planId: plan._id,
      batchId: plan.batchId,
      projectId: plan.projectId,
      caseId: plan.caseId,
      reportCode: plan.reportCode,
      caseVersion: plan.caseVersion,
      receiverId: plan.receiverId,
      receiverName: plan.receiverName,
      authority: plan.authority,
      ruleId: plan.ruleId,
      ruleLabel: plan.explanation.label,
      clockStart: plan.clockStart?.value ?? null,
      clockStartElement: plan.clockStart?.e2b ?? null,
      dueDate: plan.dueDate,
      daysLeft: plan.dueDate && !sentDay ? daysBetween(today, plan.dueDate) : null,
      state,
      sentAt: sentDay,
      late,
      lateReason: plan.lateReason ?? null,
      correction: plan.correction?.code ?? null,
      exportId: plan.exportId ?? null,
    };
  });
}

/** A plan's state from its export: written, sent, or what the ACK said of its case. */
function fileState(
  file: Pick<ExportRecord, 'status' | 'sentAt' | 'cases'>,
  caseId: string,
): { state: ReportState; sentAt: string | null } {
  const ackCode = file.cases.find((c) => c.caseId === caseId)?.ackCode;
  const sentAt = file.sentAt ?? null;
  if (file.status === 'exported') return { state: 'exported', sentAt: null };
  if (ackCode === 'CR' || file.status === 'failed' || file.status === 'handled')
    return { state: 'ackRejected', sentAt };
  if (ackCode === 'CA' || file.status === 'acknowledged') return { state: 'acknowledged', sentAt };
  return { state: 'sent', sentAt };
}
export type ExpeditedRow = Awaited<ReturnType<typeof rowsOf>>[number];

export async function listExpedited(caller: Caller, query: ExpeditedQuery) {
  const filter = await filterOf(caller, query);
  if (!filter) return { total: 0, page: query.page, size: query.size, items: [] };
  const plans = caller.tenant.collection<SubmissionPlan>(S.plans);
  const [total, found] = await Promise.all([
    plans.count(filter),
    plans.find(filter, { sort: { dueDate: 1, reportCode: 1, receiverName: 1 }, ...pageOptions(query) }),
  ]);
  return { total, page: query.page, size: query.size, items: await rowsOf(caller, found) };
}

/** The list as an XLSX workbook (every row the filters select, at most 10,000). */
export async function exportExpedited(caller: Caller, query: ExpeditedQuery): Promise<Buffer> {
  const filter = await filterOf(caller, query);
  const found = filter
    ? await caller.tenant
        .collection<SubmissionPlan>(S.plans)
        .find(filter, { sort: { dueDate: 1, reportCode: 1, receiverName: 1 }, limit: 10_000 })
    : [];
  const rows = await rowsOf(caller, found);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(caller.t('submissions.sheetExpedited'));
  const columns = [
    'reportCode',
    'receiverName',
    'authority',
    'ruleId',
    'clockStart',
    'dueDate',
    'daysLeft',
    'state',
    'sentAt',
    'late',
    'lateReason',
    'correction',
  ] as const;
  sheet.columns = columns.map((key) => ({ header: caller.t(`submissions.column.${key}`), key, width: 18 }));
  for (const row of rows)
    sheet.addRow({
      ...row,
      state: caller.t(`submissions.state.${row.state}`),
      late: row.late ? caller.t('submissions.yes') : caller.t('submissions.no'),
      correction: row.correction ? caller.t(`submissions.correction.${row.correction}`) : '',
    });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Per receiver and month of the due date: reports on time, late, still open, and the late reasons given. */
export async function compliance(caller: Caller, query: Omit<ExpeditedQuery, 'page' | 'size'>) {
  const filter = await filterOf(caller, { ...query, page: 1, size: 1 });
  const found = filter
    ? await caller.tenant
        .collection<SubmissionPlan>(S.plans)
        .find({ ...filter, state: 'approved' }, { limit: 50_000 })
    : [];
  const groups = new Map<
    string,
    {
      /** receiverId/month: the row's id in the web list. */
      key: string;
      receiverId: string;
      receiverName: string;
      month: string;
      onTime: number;
      late: number;
      open: number;
      lateReasons: string[];
    }
  >();
  for (const row of await rowsOf(caller, found)) {
    if (!row.dueDate) continue;
    const month = row.dueDate.slice(0, 7);
    const key = `${row.receiverId}/${month}`;
    const group = groups.get(key) ?? {
      key,
      receiverId: row.receiverId,
      receiverName: row.receiverName,
      month,
      onTime: 0,
      late: 0,
      open: 0,
      lateReasons: [],
    };
    if (row.late) {
      group.late++;
      if (row.lateReason) group.lateReasons.push(row.lateReason);
    } else if (row.sentAt) group.onTime++;
    else group.open++;
    groups.set(key, group);
  }
  return [...groups.values()].sort(
    (a, b) => a.month.localeCompare(b.month) || a.receiverName.localeCompare(b.receiverName),
  );
}
