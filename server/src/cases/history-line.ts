/**
 * A workflow-history line on a case for a workflow that runs beside the case's own (unblinding):
 * the case neither moves nor changes handler, and its document and revision are untouched. The
 * line says who did what, with the case version it was done on. Other modules write history only
 * through here (one direction: they depend on cases).
 */
import { orderedId } from '../store';
import type { Handle } from '../store';
import type { WorkflowHistoryEntry } from '../workflow';
import { C } from './collections';
import type { CaseDocument } from './document';
import { caseContent } from './document';

export interface CaseHistoryLine {
  caseId: string;
  action: string;
  /** Result key in the workflow namespace of schemas/i18n (the history shows its label). */
  result: string;
  option?: string | null;
  opinion?: string | null;
  signatureId?: string | null;
  nextProcesserId?: string | null;
  nextProcesserName?: string | null;
  /** What the line is about; read by everyone who reads the case's history. */
  details?: Record<string, unknown>;
}

/** Writes the line (in the caller's transaction when `handle` is one); null when the case is gone. */
export async function recordCaseHistoryLine(
  handle: Handle,
  actor: { userId: string; name: string },
  line: CaseHistoryLine,
  now: Date,
  /** The case as the caller just read it in the same transaction (saves reading it again). */
  read?: Record<string, unknown> & { rev: number },
): Promise<{ _id: string; version: number; rev: number } | null> {
  const stored = read ?? (await handle.collection<CaseDocument>(C.cases).findOne({ _id: line.caseId }));
  if (!stored) return null;
  const doc = caseContent(stored);
  const node = doc.state.workflowNode;
  const entry: WorkflowHistoryEntry = {
    caseId: line.caseId,
    reportCode: String((doc.report as { reportCode?: string } | undefined)?.reportCode ?? ''),
    action: line.action,
    result: line.result,
    option: line.option ?? null,
    node,
    opinion: line.opinion?.trim() || null,
    processerId: actor.userId,
    processerName: actor.name,
    nextNode: node,
    nextProcesserId: line.nextProcesserId ?? null,
    nextProcesserName: line.nextProcesserName ?? null,
    at: now.toISOString(),
    dataVersion: { version: doc.state.version, rev: stored.rev },
    signatureId: line.signatureId ?? null,
  };
  if (line.details) entry.details = line.details;
  const inserted = await handle
    .collection<WorkflowHistoryEntry>(C.history)
    .insertOne({ _id: orderedId(), ...entry });
  return { _id: inserted._id, version: doc.state.version, rev: stored.rev };
}
