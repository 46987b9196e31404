/**
 * Who may reach a stored file through `/api/files`: every file record lists its owners (a case
 * attachment, an import, an export, a download task, a signature ...). The module that owns a kind
 * registers the check for it here, so the file store never imports the owning modules (no import
 * cycles). A kind nobody registered grants nothing (fail closed).
 */
import type { Caller } from '../http';
import { isPromiseLike } from '../http';
import type { AuthorizationScope } from '../http';
import type { FileOwner, FileOwnerEntry } from '../store';

/**
 * read: download or look at the file; delete: remove this owner's hold on the file (the bytes go
 * with the last owner); attach: make the file this owner's (an upload naming its case).
 */
export type FileAction = 'read' | 'delete' | 'attach';

export interface FileCaller {
  /** Who asks, for checks that reuse a module's caller-level helpers (membership ...). */
  caller: Caller;
  userId: string;
  tenantId: string;
  /** Tenant administrator (enterprise or system administrator): passes every registered kind. */
  admin: boolean;
}

/** A boolean at once when everything the check reads is kept in memory, else a promise. */
export type FileOwnerCheck = (
  caller: FileCaller,
  owner: FileOwnerEntry,
  action: FileAction,
) => Promise<boolean> | boolean;

/** Uploads not (yet) attached to anything: the uploader's own. */
export const UPLOAD_OWNER = 'upload';

/** A case's attachments (owner id: the case); the cases module registers the check. */
export const CASE_ATTACHMENT_OWNER = 'case-attachment';

const checks = new Map<string, FileOwnerCheck>();

/**
 * Declares who may reach the files of one owner kind. A module calls it once when it is loaded;
 * calling it again for the same kind replaces the check (a module loaded twice in tests).
 */
export function registerFileOwner(kind: string, check: FileOwnerCheck): void {
  checks.set(kind, check);
}

registerFileOwner(UPLOAD_OWNER, (caller, owner) => owner.id === caller.userId);

/**
 * Whether the caller may act on this owner's hold. Administrators pass every registered kind;
 * an unregistered kind refuses everyone. A check that throws (its record is gone, the caller is
 * not a member ...) refuses. A boolean at once when the check answers at once.
 */
export function ownerAllows(
  caller: FileCaller,
  owner: FileOwnerEntry,
  action: FileAction,
): Promise<boolean> | boolean {
  const check = checks.get(owner.kind);
  if (!check) return false;
  if (caller.admin) return true;
  let answer: Promise<boolean> | boolean;
  try {
    answer = check(caller, owner, action);
  } catch {
    return false;
  }
  return isPromiseLike(answer) ? Promise.resolve(answer).then(isTrue, refuse) : answer === true;
}

const isTrue = (answer: boolean): boolean => answer === true;
const refuse = (): boolean => false;

/**
 * The owners of a record. A record written before files had owners has none: it is read as the
 * uploader's own upload (readable and deletable by the uploader and administrators only). This is
 * a read-time rule, no migration: the owning modules still reach those files through their own
 * routes, which check their own permissions.
 */
export function ownersOf(record: { owners?: FileOwnerEntry[]; uploadedBy: string }): FileOwnerEntry[] {
  if (record.owners) return record.owners;
  return [{ kind: UPLOAD_OWNER, id: record.uploadedBy, addedBy: record.uploadedBy }];
}

/**
 * For checks: the caller holds the permission by the authenticator, in `scope`'s project when given
 * (an owner's own project), else in the request's context. Fails closed without an authorizer.
 */
export function callerHolds(
  caller: FileCaller,
  permission: string,
  scope?: AuthorizationScope,
): Promise<boolean> | boolean {
  return caller.caller.authorizeNow(permission, scope);
}

export const sameOwner = (a: FileOwner, b: FileOwner): boolean => a.kind === b.kind && a.id === b.id;
