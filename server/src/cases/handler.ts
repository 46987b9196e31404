/**
 * The case's current handler acts on it (SPEC 4, 6): the workflow actions declared `byHandler`
 * (submit, back, challenge, create and approve the submission plan) are taken by the user the case
 * was handed to; another user may take them only where the project's switch "edit others' entered
 * data" is on and they hold `activecase:editOthers` in the case's project. This is checked before the
 * node's permission and the electronic signature.
 */
import type { FeatureSwitches } from '@pv/engine';
import type { AuthorizationScope } from '../http';
import type { TenantHandle } from '../store';
import type { CaseDocument } from './document';
import { projectIdOf } from './membership';
import { featuresOf } from './service';

export const EDIT_OTHERS_PERMISSION = 'activecase:editOthers';

export interface HandlerRefusal {
  messageKey: string;
  params: Record<string, string>;
}

/** Who asks, transport-free: their tenant handle, id, and whether they hold a permission in a project. */
export interface HandlerCaller {
  handle: TenantHandle;
  userId: string;
  holds(permission: string, scope: AuthorizationScope): Promise<boolean>;
}

/** Why the caller may not take a handler's action on the case now, or null. */
export async function handlerRefusal(
  caller: HandlerCaller,
  doc: CaseDocument,
  /** The project's switches when the caller has read them already. */
  features?: FeatureSwitches,
): Promise<HandlerRefusal | null> {
  const handlerId = doc.state.handlerId;
  if (!handlerId || handlerId === caller.userId) return null;
  const projectId = projectIdOf(doc);
  if (projectId) {
    const switches = features ?? (await featuresOf(caller.handle, projectId));
    if (switches.editOthersData && (await caller.holds(EDIT_OTHERS_PERMISSION, { projectId }))) return null;
  }
  return { messageKey: 'workflow.notHandler', params: { name: doc.state.handlerName || handlerId } };
}
