/**
 * Who reaches a case's attachment files through `/api/files` (owner kind `case-attachment`, owner
 * id: the case): the members of the case's own project who may open the case read them, those who
 * may save it attach to it, and a hold is removed only by the member who added it (a user cannot
 * delete an administrator's attachment). Tenant administrators pass in the file routes themselves.
 */
import { CASE_ATTACHMENT_OWNER, callerHolds, registerFileOwner } from '../files';
import { tenantHandle } from '../http/context';
import { caseObject, requireCaseAccess } from './membership';

const PERMISSION = { read: 'activecase', attach: 'activecase:save', delete: 'activecase:save' } as const;

registerFileOwner(CASE_ATTACHMENT_OWNER, async (caller, owner, action) => {
  const scope = await caseObject.scopeOf(tenantHandle(caller.c), owner.id);
  if (!scope) return false;
  // Throws (refusing) when the case belongs to a project the caller does not work in.
  await requireCaseAccess(caller.c, owner.id);
  if (!(await callerHolds(caller, PERMISSION[action], scope))) return false;
  return action !== 'delete' || owner.addedBy === caller.userId;
});
