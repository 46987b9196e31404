/**
 * The case's current handler acts on it (SPEC 4, 6): the workflow actions declared `byHandler`
 * (submit, back, challenge, create and approve the submission plan) are taken by the user the case
 * was handed to; another user may take them only where the project's switch "edit others' entered
 * data" is on and they hold `activecase:editOthers` in the case's project. This is checked before the
 * node's permission and the electronic signature.
 */
import type { Context } from 'hono';
import type { FeatureSwitches } from '../../../engine/src/configurator/index';
import type { AppEnv } from '../http/context';
import { requirePrincipal, tenantHandle } from '../http/context';
import { callerMay } from '../http/route';
import type { CaseDocument } from './document';
import { projectIdOf } from './membership';
import { featuresOf } from './service';

export const EDIT_OTHERS_PERMISSION = 'activecase:editOthers';

export interface HandlerRefusal {
  messageKey: string;
  params: Record<string, string>;
}

/** Why the caller may not take a handler's action on the case now, or null. */
export async function handlerRefusal(
  c: Context<AppEnv>,
  doc: CaseDocument,
  /** The project's switches when the caller has read them already. */
  features?: FeatureSwitches,
): Promise<HandlerRefusal | null> {
  const userId = requirePrincipal(c).userId;
  const handlerId = doc.state.handlerId;
  if (!handlerId || handlerId === userId) return null;
  const projectId = projectIdOf(doc);
  if (projectId) {
    const switches = features ?? (await featuresOf(tenantHandle(c), projectId));
    if (switches.editOthersData && (await callerMay(c, EDIT_OTHERS_PERMISSION, { projectId }))) return null;
  }
  return { messageKey: 'workflow.notHandler', params: { name: doc.state.handlerName || handlerId } };
}
