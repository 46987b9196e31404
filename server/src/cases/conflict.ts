/**
 * The answer to a stale save: nothing is written, and the caller gets what other users changed
 * since the revision they read (field by field, who and when), with the current document, so the
 * page can show the other user's changes and let the user redo theirs on top.
 */
import { auditService } from '../audit';
import type { AuditEntry } from '../audit';
import { AppError } from '../http';
import { Code } from '../http';
import type { Handle } from '../store';
import { C } from './collections';
import { caseContent } from './document';
import type { FieldChange } from './diff';
import { fieldChanges, setDotted } from './diff';
import type { StoredCase } from './persistence';

export interface ConflictChange extends FieldChange {
  by: string;
  at: string;
}

export interface ConflictAnswer {
  caseId: string;
  baseRev: number;
  currentRev: number;
  changes: ConflictChange[];
  current: ReturnType<typeof caseContent>;
  /** False when the trail no longer reaches back to the base revision (changes then cover what is known). */
  complete: boolean;
}

const AUDIT_WINDOW = 1000;

/** The document as it was at `baseRev`, rebuilt from the current one and the audit trail. */
async function rebuildBase(
  handle: Handle,
  stored: StoredCase,
  baseRev: number,
): Promise<{ base: Record<string, unknown>; entries: AuditEntry[]; complete: boolean }> {
  const trail = await auditService(handle).byDocument(C.cases, stored._id, {
    order: 'desc',
    limit: AUDIT_WINDOW,
  });
  const entries = trail.filter((entry) => entry.documentRev > baseRev);
  const base = structuredClone(caseContent(stored)) as Record<string, unknown>;
  for (const entry of entries)
    for (const change of entry.changes) setDotted(base, change.path, change.before);
  const complete = entries.length === stored.rev - baseRev;
  return { base, entries, complete };
}

export async function conflictAnswer(
  handle: Handle,
  stored: StoredCase,
  baseRev: number,
): Promise<ConflictAnswer> {
  const { base, entries, complete } = await rebuildBase(handle, stored, baseRev);
  const current = caseContent(stored);
  const changes = fieldChanges(base, current).map((change) => {
    const dotted = change.path.slice(1).replace(/\//g, '.');
    // The newest entry that touched this field or a container of it (entries are newest first).
    const entry =
      entries.find((e) => e.changes.some((c) => dotted === c.path || dotted.startsWith(`${c.path}.`))) ??
      entries[0];
    return { ...change, by: entry?.userId ?? stored.updatedBy, at: entry?.at ?? stored.updatedAt };
  });
  return { caseId: stored._id, baseRev, currentRev: stored.rev, changes, current, complete };
}

export function conflictError(answer: ConflictAnswer): AppError {
  return new AppError(
    Code.conflict,
    'cases.conflict',
    { count: answer.changes.length, by: answer.changes[0]?.by ?? '' },
    409,
    { data: answer },
  );
}
