/**
 * QC corrections (SPEC 1 QC; SPEC 5: a QC modification needs a reason and a new value): a save of a
 * case at data QC - or at another node the project lists in `qcCorrectionNodes` - must give a
 * reason for every field it changes, and may not empty a field. Each change becomes a QC record
 * (field, before, after, reason, who, when, version) written in the save's own transaction, beside
 * the case's audit entry: a refused change leaves the case, its trail and the records as they were.
 */
import type { Caller } from '../http';
import { AppError, Code, errors } from '../http';
import { fieldChanges } from '../cases';
import type { CaseSaveEvent, FieldChange } from '../cases';
import type { Handle } from '../store';
import type { QcRecord } from './model';
import { Q } from './model';
import { callerName, withoutState } from './service';

type Doc = Record<string, unknown>;

/** The node where QC corrections need reasons when a project declares none. */
export const DEFAULT_QC_NODES: readonly string[] = ['dataQc'];

export function qcNodesOf(project: CaseSaveEvent['project']): readonly string[] {
  const declared = (project as { qcCorrectionNodes?: unknown } | null)?.qcCorrectionNodes;
  return Array.isArray(declared) && declared.every((n) => typeof n === 'string')
    ? (declared as string[])
    : DEFAULT_QC_NODES;
}

const isEmpty = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const fieldName = (caller: Caller, change: Pick<FieldChange, 'path' | 'e2b' | 'label'>) => {
  const label = change.label ? (caller.lang === 'en' ? change.label.en : change.label.zh) : null;
  return [change.e2b, label].filter(Boolean).join(' ') || change.path;
};

/** The save participant: checks every change at a QC node and records it. */
export async function recordQcCorrections(tx: Handle, caller: Caller, save: CaseSaveEvent): Promise<void> {
  const state = (save.before as unknown as { state?: { workflowNode?: string; version?: number } }).state;
  const node = state?.workflowNode ?? '';
  if (!qcNodesOf(save.project).includes(node)) return;
  const changes = fieldChanges(
    withoutState(save.before as unknown as Doc),
    withoutState(save.after as unknown as Doc),
  );
  if (!changes.length) return;
  const reasons = new Map(save.corrections.map((c) => [c.pointer, c.reason.trim()]));
  // The refusal lists every change, so the page asks for each reason at once and saves again.
  const asked = {
    data: {
      qcCorrections: changes.map((c) => ({
        pointer: c.path,
        e2b: c.e2b ?? null,
        label: c.label ?? null,
        before: c.before ?? null,
        after: c.after ?? null,
      })),
    },
  };
  for (const change of changes) {
    if (!reasons.get(change.path))
      throw new AppError(
        Code.badRequest,
        'queries.qcReasonRequired',
        { field: fieldName(caller, change) },
        400,
        asked,
      );
    if (isEmpty(change.after))
      throw errors.badRequest('queries.qcNewValueRequired', { field: fieldName(caller, change) });
  }
  const at = caller.clock.now().toISOString();
  const report = (save.after.report ?? {}) as { reportCode?: string; studyProjectId?: string };
  const records = tx.collection<QcRecord>(Q.qcRecords);
  for (const change of changes)
    await records.insertOne({
      caseId: save.caseId,
      projectId: report.studyProjectId ?? null,
      reportCode: report.reportCode ?? '',
      caseVersion: state?.version ?? 1,
      caseRev: save.rev,
      node,
      pointer: change.path,
      e2b: change.e2b ?? null,
      label: change.label ?? null,
      before: change.before ?? null,
      after: change.after ?? null,
      reason: reasons.get(change.path)!,
      userId: caller.userId,
      userName: callerName(caller),
      at,
    });
}
