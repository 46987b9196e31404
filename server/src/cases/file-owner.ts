/**
 * Who reaches a case's attachment files through `/api/files` (owner kind `case-attachment`, owner
 * id: the case): the members of the case's own project read them and attach to the case; a hold
 * is removed only by the member who added it (a user cannot delete an administrator's attachment).
 * Tenant administrators pass in the file routes themselves.
 */
import { CASE_ATTACHMENT_OWNER, registerFileOwner } from '../files';
import { requireCaseAccess } from './membership';

registerFileOwner(CASE_ATTACHMENT_OWNER, async (caller, owner, action) => {
  // Throws (refusing) when the case is gone or belongs to a project the caller does not work in.
  await requireCaseAccess(caller.c, owner.id);
  return action !== 'delete' || owner.addedBy === caller.userId;
});
