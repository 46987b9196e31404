/** Reading and writing case documents with their summary, always together. */
import { errors } from '../http';
import type { FieldReason, Handle, StoredDoc, Update } from '../store';
import { C } from './collections';
import type { CaseDocument } from './document';
import { CASE_SECTIONS, caseContent } from './document';
import { deadlineOf } from './deadline';
import { buildSummary } from './summary';
import type { CaseSummary } from './summary';

export type StoredCase = StoredDoc<CaseDocument>;

export interface CaseView {
  id: string;
  rev: number;
  updatedAt: string;
  updatedBy: string;
  document: CaseDocument;
}

export function caseView(stored: StoredCase): CaseView {
  return {
    id: stored._id,
    rev: stored.rev,
    updatedAt: stored.updatedAt,
    updatedBy: stored.updatedBy,
    document: caseContent(stored),
  };
}

export async function loadCase(handle: Handle, caseId: string): Promise<StoredCase> {
  const stored = await handle.collection<CaseDocument>(C.cases).findOne({ _id: caseId });
  if (!stored) throw errors.notFound('cases.notFound', { id: caseId });
  return stored;
}

/** Inserts a new case and its summary (inside the caller's transaction when given one). */
export async function insertCase(handle: Handle, caseId: string, doc: CaseDocument): Promise<StoredCase> {
  const stored = await handle.collection<CaseDocument>(C.cases).insertOne({ _id: caseId, ...doc });
  await handle
    .collection<Omit<CaseSummary, '_id'>>(C.summaries)
    .insertOne(buildSummary(caseId, doc, await deadlineOf(handle, caseId, doc)));
  return stored;
}

/**
 * Replaces the case's sections with `doc` if the stored revision is still `expectedRev`
 * (RevisionConflictError otherwise), and rewrites its summary. The audit entry keeps why: the
 * save's reason and, for a QC correction, each corrected field's own reason.
 */
export async function replaceCase(
  handle: Handle,
  caseId: string,
  doc: CaseDocument,
  expectedRev: number,
  why: { reason?: string; fieldReasons?: FieldReason[] } = {},
): Promise<StoredCase> {
  const set: Record<string, unknown> = {};
  const unset: Record<string, ''> = {};
  for (const key of CASE_SECTIONS) {
    if (doc[key] === undefined) unset[key] = '';
    else set[key] = doc[key];
  }
  const update: Update = { $set: set };
  if (Object.keys(unset).length) update.$unset = unset;
  const options = {
    expectedRev,
    ...(why.reason ? { reason: why.reason } : {}),
    ...(why.fieldReasons?.length ? { fieldReasons: why.fieldReasons } : {}),
  };
  const stored = await handle.collection<CaseDocument>(C.cases).updateOne({ _id: caseId }, update, options);
  if (!stored) throw errors.notFound('cases.notFound', { id: caseId });
  const summary = buildSummary(caseId, doc, await deadlineOf(handle, caseId, doc));
  const { _id: _ignored, ...fields } = summary;
  await handle.collection<Omit<CaseSummary, '_id'>>(C.summaries).updateOne({ _id: caseId }, { $set: fields });
  return stored;
}
