/**
 * Who reaches a case's attachment files through `/api/files` (owner kind `case-attachment`, owner
 * id: the case): the members of the case's own project who may open the case read them, those who
 * may save it attach to it, and a hold is removed only by the member who added it (a user cannot
 * delete an administrator's attachment). Tenant administrators pass in the file routes themselves.
 *
 * A save makes the files its attachments name the case's (an upload becomes readable by the
 * project) and lets go of those it no longer names; a file the saver may not read cannot be
 * attached by naming its id.
 */
import type { Caller } from '../http';
import { CASE_ATTACHMENT_OWNER, callerHolds, ownerAllows, registerFileOwner } from '../files';
import type { FileAction, FileCaller, FileOwner, FileOwnerEntry } from '../files';
import type { AuthorizationScope } from '../http';
import { errors, isPromiseLike } from '../http';
import { fileCaller } from '../uploads';
import type { CaseDocument } from './document';
import { keptCaseScope, projectIdOf, worksInProject } from './membership';

const PERMISSION = { read: 'activecase', attach: 'activecase:save', delete: 'activecase:save' } as const;

// The case's project, kept as a case route's is (a read of a hot attachment reads no case), then
// membership there and the permission in it; without an await while all three are kept, and
// written out rather than with andThen so that the busy path allocates no closures.
registerFileOwner(CASE_ATTACHMENT_OWNER, (asker, owner, action) => {
  const scope = keptCaseScope(asker.caller, owner.id);
  return isPromiseLike(scope)
    ? Promise.resolve(scope).then((read) => allowedInScope(asker, owner, action, read))
    : allowedInScope(asker, owner, action, scope);
});

function allowedInScope(
  asker: FileCaller,
  owner: FileOwnerEntry,
  action: FileAction,
  scope: AuthorizationScope | null,
): boolean | Promise<boolean> {
  if (!scope) return false;
  const member = worksInProject(asker.caller, scope.projectId);
  if (member === false) return false;
  if (member !== true) return member.then((works) => works && allowedToMember(asker, owner, action, scope));
  return allowedToMember(asker, owner, action, scope);
}

function allowedToMember(
  asker: FileCaller,
  owner: FileOwnerEntry,
  action: FileAction,
  scope: AuthorizationScope,
): boolean | Promise<boolean> {
  // Deleting also asks that the caller added the file.
  const mayAct = action !== 'delete' || owner.addedBy === asker.userId;
  const held = callerHolds(asker, PERMISSION[action], scope);
  if (isPromiseLike(held)) return Promise.resolve(held).then((answer) => answer && mayAct);
  return held && mayAct;
}

/** The file ids a document's attachments name. */
function attachedFiles(document: CaseDocument): Map<string, string> {
  const files = new Map<string, string>();
  const attachments = (document as { attachments?: unknown }).attachments;
  if (!Array.isArray(attachments)) return files;
  for (const item of attachments as { fileId?: unknown; fileName?: unknown }[]) {
    if (typeof item?.fileId === 'string' && item.fileId)
      files.set(item.fileId, typeof item.fileName === 'string' ? item.fileName : item.fileId);
  }
  return files;
}

/**
 * Before a save: refuses (400) an attachment naming a file the saver may not read. Answers what
 * to do once the save is written: the new files become the case's, the dropped ones are let go.
 */
export async function attachmentChanges(
  caller: Caller,
  caseId: string,
  before: CaseDocument,
  after: CaseDocument,
): Promise<() => Promise<void>> {
  const files = caller.deps.files;
  const previous = attachedFiles(before);
  const next = attachedFiles(after);
  const added = [...next].filter(([fileId]) => !previous.has(fileId));
  const dropped = [...previous.keys()].filter((fileId) => !next.has(fileId));
  if (!files || (!added.length && !dropped.length)) return async () => undefined;
  const tenantFiles = files.forTenant(caller.tenant);
  const owner: FileOwner = { kind: CASE_ATTACHMENT_OWNER, id: caseId };
  const projectId = projectIdOf(after as Record<string, unknown>);
  if (projectId) owner.projectId = projectId;
  const asker = await fileCaller(caller);
  for (const [fileId, name] of added) {
    const info = await tenantFiles.stat(fileId);
    let readable = false;
    for (const held of info?.owners ?? []) if (!readable) readable = await ownerAllows(asker, held, 'read');
    if (!readable) throw errors.badRequest('cases.attachmentNotReadable', { name });
  }
  return async () => {
    for (const [fileId] of added) await tenantFiles.addOwner(fileId, owner);
    for (const fileId of dropped) await tenantFiles.release(fileId, owner);
  };
}
