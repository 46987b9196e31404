/**
 * History versions (immutable snapshots taken on submit and on completion), their field-by-field
 * comparison, the data change log from the audit trail, and the workflow history of a case.
 */
import { auditService } from '../audit';
import type { AuditEntry } from '../audit';
import { errors } from '../http';
import type { Handle, StoredDoc } from '../store';
import type { WorkflowHistoryEntry } from '../workflow';
import type { CaseSnapshot } from './actions';
import { C } from './collections';
import { caseContent } from './document';
import type { FieldChange } from './diff';
import { describeField, fieldChanges, isInternalField } from './diff';
import { handlerNames } from './directory';
import { loadCase } from './persistence';

/** A stored document as an answer: `id` in place of `_id`, the store's bookkeeping left out. */
function asRecord<T extends object>(doc: StoredDoc<T>): T & { id: string } {
  const {
    _id,
    tenantId: _t,
    rev: _r,
    createdAt: _ca,
    createdBy: _cb,
    updatedAt: _ua,
    updatedBy: _ub,
    ...rest
  } = doc;
  return { id: _id, ...(rest as unknown as T) };
}

export type SnapshotSummary = Omit<CaseSnapshot, 'document'> & { id: string };

export async function listVersions(handle: Handle, caseId: string): Promise<SnapshotSummary[]> {
  await loadCase(handle, caseId);
  const docs = await handle
    .collection<CaseSnapshot>(C.versions)
    .find({ caseId }, { sort: { at: 1, _id: 1 }, projection: { document: 0 } });
  return docs.map((doc) => asRecord<Omit<CaseSnapshot, 'document'>>(doc));
}

export async function getVersion(
  handle: Handle,
  caseId: string,
  versionId: string,
): Promise<CaseSnapshot & { id: string }> {
  const doc = await handle.collection<CaseSnapshot>(C.versions).findOne({ _id: versionId, caseId });
  if (!doc) throw errors.notFound('cases.versionNotFound', { id: versionId });
  return asRecord(doc);
}

/** `current` or a snapshot id -> the document and what it is. */
async function side(handle: Handle, caseId: string, ref: string) {
  if (ref === 'current') {
    const stored = await loadCase(handle, caseId);
    const document = caseContent(stored);
    return {
      ref,
      version: document.state.version,
      rev: stored.rev,
      at: stored.updatedAt,
      kind: 'current',
      document,
    };
  }
  const snapshot = await getVersion(handle, caseId, ref);
  return {
    ref,
    version: snapshot.version,
    rev: snapshot.caseRev,
    at: snapshot.at,
    kind: snapshot.kind,
    document: snapshot.document,
  };
}

/** State bookkeeping: it differs by nature between versions and is no data anyone entered. */
const BOOKKEEPING: ReadonlySet<string> = new Set([
  '/state/updatedAt',
  '/state/configurationVersion',
  '/state/handlerId',
  '/state/handlerName',
]);

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

/** Field-by-field comparison of two versions (state bookkeeping left out: it differs by nature). */
export async function compareVersions(handle: Handle, caseId: string, from: string, to: string) {
  const [a, b] = await Promise.all([side(handle, caseId, from), side(handle, caseId, to)]);
  const { document: _a, ...fromMeta } = a;
  const { document: _b, ...toMeta } = b;
  return { from: fromMeta, to: toMeta, changes: fieldChanges(a.document, b.document, BOOKKEEPING) };
}

export interface ChangeLogEntry {
  at: string;
  userId: string;
  userName: string;
  rev: number;
  operation: string;
  /** The save's own reason. */
  reason: string | null;
  /** Each changed field with why it changed (reasonOf). */
  changes: (FieldChange & { reason: string | null })[];
}

/** Why a field changed in an audit entry: its own reason (a QC correction), else the entry's. */
export function reasonOf(entry: Pick<AuditEntry, 'reason' | 'fieldReasons'>, pointer: string): string | null {
  return entry.fieldReasons?.find((r) => r.pointer === pointer)?.reason ?? entry.reason ?? null;
}

/** The field-level changes of an audit entry of a case, each with its E2B id and label. */
export function fieldLines(entry: Pick<AuditEntry, 'changes'>): FieldChange[] {
  return entry.changes.flatMap((change) => {
    const pointer = `/${change.path.replace(/\./g, '/')}`;
    // The trail records arrays and new objects whole: break them into fields.
    const fine = fieldChanges(change.before, change.after).map((c) => ({
      ...c,
      path: pointer + c.path,
      ...describeField(pointer + c.path),
    }));
    const lines = fine.length
      ? fine
      : [{ path: pointer, ...describeField(pointer), before: change.before, after: change.after }];
    // What a reader of the log can act on: no bookkeeping, no row identifiers, no empty-for-empty.
    return lines.filter(
      (line) =>
        !BOOKKEEPING.has(line.path) &&
        !isInternalField(line.path) &&
        !(isEmpty(line.before) && isEmpty(line.after)),
    );
  });
}

/** The data change log (SPEC 2 /checklog/logHistory for one case): who changed which field, when and why. */
export async function changeLog(
  handle: Handle,
  caseId: string,
  page: { page: number; size: number },
): Promise<{ items: ChangeLogEntry[]; page: number; size: number }> {
  await loadCase(handle, caseId);
  const entries = await auditService(handle).byDocument(C.cases, caseId, {
    order: 'desc',
    skip: (page.page - 1) * page.size,
    limit: page.size,
  });
  const names = await handlerNames(handle, [...new Set(entries.map((e) => e.userId))]);
  const items = entries.map((entry) => ({
    at: entry.at,
    userId: entry.userId,
    userName: names.get(entry.userId) ?? entry.userId,
    rev: entry.documentRev,
    operation: entry.operation,
    reason: entry.reason ?? null,
    changes: fieldLines(entry).map((line) => ({ ...line, reason: reasonOf(entry, line.path) })),
  }));
  return { items, ...page };
}

export async function workflowHistory(handle: Handle, caseId: string) {
  await loadCase(handle, caseId);
  const docs = await handle
    .collection<WorkflowHistoryEntry>(C.history)
    .find({ caseId }, { sort: { at: 1, _id: 1 } });
  return docs.map((doc) => asRecord(doc));
}
