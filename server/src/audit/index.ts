/**
 * Read-only view of the audit trail. Entries are written by the store layer itself (same
 * transaction as the change) and nothing in the port updates or deletes them.
 */
import { AUDIT_COLLECTION } from '../store';
import type { AuditEntry, Filter, Handle } from '../store';

export type { AuditEntry };

export interface AuditPage {
  /** Newest first unless `order: 'asc'`. */
  order?: 'asc' | 'desc';
  skip?: number;
  /** Default 100, at most 1000. */
  limit?: number;
}

export interface AuditService {
  /** Changes of one collection, or of one document when documentId is given. */
  byDocument(collection: string, documentId?: string, page?: AuditPage): Promise<AuditEntry[]>;
  byUser(userId: string, page?: AuditPage): Promise<AuditEntry[]>;
  /** Entries with from <= at < to (ISO 8601 instants; either bound optional). */
  byTimeRange(range: { from?: string; to?: string }, page?: AuditPage): Promise<AuditEntry[]>;
}

/** The audit trail as seen by a handle: a tenant handle sees its tenant, the platform handle platform entries. */
export function auditService(handle: Handle): AuditService {
  const entries = handle.collection<AuditEntry>(AUDIT_COLLECTION);
  const list = async (filter: Filter, page: AuditPage = {}): Promise<AuditEntry[]> => {
    const dir = page.order === 'asc' ? 1 : -1;
    const limit = Math.min(Math.max(page.limit ?? 100, 0), 1000);
    const docs = await entries.find(filter, { sort: { at: dir, _id: dir }, skip: page.skip ?? 0, limit });
    return docs.map(toEntry);
  };
  return {
    byDocument: (collection, documentId, page) =>
      list(documentId === undefined ? { collection } : { collection, documentId }, page),
    byUser: (userId, page) => list({ userId }, page),
    byTimeRange: ({ from, to }, page) => {
      const at: Record<string, string> = {};
      if (from !== undefined) at.$gte = from;
      if (to !== undefined) at.$lt = to;
      return list(Object.keys(at).length ? { at } : {}, page);
    },
  };
}

/** Drops the store bookkeeping fields an entry carries as a stored document. */
function toEntry(doc: AuditEntry): AuditEntry {
  const entry: AuditEntry = {
    _id: doc._id,
    tenantId: doc.tenantId,
    at: doc.at,
    userId: doc.userId,
    collection: doc.collection,
    documentId: doc.documentId,
    documentRev: doc.documentRev,
    operation: doc.operation,
    changes: doc.changes,
  };
  if (doc.reason !== undefined) entry.reason = doc.reason;
  if (doc.fieldReasons !== undefined) entry.fieldReasons = doc.fieldReasons;
  return entry;
}
