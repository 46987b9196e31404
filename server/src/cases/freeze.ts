/**
 * Freezing a case (SPEC 6, per-project switch "freeze"): as in a clinical-trial database, a frozen
 * case's data and workflow place are fixed - nobody edits, submits, sends back, deletes, restores,
 * completes, invalidates or follows it up - while it can still be read, previewed, exported, copied
 * and challenged (a question to a user changes nothing). Freezing needs the project's switch on;
 * unfreezing needs a reason and stays possible after the switch is turned off, so no case is left
 * frozen for good. Both are workflow-history lines and audited case writes.
 */
import type { AvailableAction, PlannedAction, RefusedAction } from '@pv/engine';
import type { TenantHandle } from '../store';
import type { ActionEffectFn, ActionPlanner } from './actions';
import { C } from './collections';
import type { CaseDocument, CaseState } from './document';
import { featuresOf } from './service';

/** The button permission of schemas/menus for freezing and unfreezing. */
export const FREEZE_PERMISSION = 'activecase:freeze';

export type FreezeAction = 'freeze' | 'unfreeze';

/**
 * Actions a frozen case still allows: they change neither its data nor its place in the workflow
 * (freeze and unfreeze judge a frozen case themselves). `transmit` is the E2B transmission of an
 * exported file and its acknowledgements (./transmission): a frozen case's data are final, which is
 * what a regulator should receive.
 */
const ALLOWED_WHEN_FROZEN = new Set(['challenge', 'copy', 'freeze', 'unfreeze', 'transmit']);

/** The refusal message of each action on a frozen case; anything unlisted gets the general one. */
const FROZEN_MESSAGES: Record<string, string> = {
  save: 'cases.frozenCannotEdit',
  submit: 'cases.frozenCannotSubmit',
  createPlan: 'cases.frozenCannotSubmit',
  approvePlan: 'cases.frozenCannotSubmit',
  back: 'cases.frozenCannotBack',
  delete: 'cases.frozenCannotDelete',
  restore: 'cases.frozenCannotRestore',
  markCompleted: 'cases.frozenCannotComplete',
  markInvalid: 'cases.frozenCannotInvalidate',
  followUp: 'cases.frozenCannotFollowUp',
};

export const isFrozen = (doc: CaseDocument): boolean => doc.state.isFrozen === true;

/** Why a frozen case refuses `actionId` (an i18n key), or null when the case is not frozen or allows it. */
export function frozenRefusal(doc: CaseDocument, actionId: string): string | null {
  if (!isFrozen(doc) || ALLOWED_WHEN_FROZEN.has(actionId)) return null;
  return FROZEN_MESSAGES[actionId] ?? 'cases.frozenCannotAct';
}

const refuse = (messageKey: string): RefusedAction => ({ ok: false, messageKey, params: {} });

/** Plans freezing or unfreezing: the case stays at its node; the history records the action. */
export function freezePlanner(action: FreezeAction): ActionPlanner {
  return async ({ handle, doc, request }) => {
    if (action === 'freeze') {
      const projectId = (doc.report as { studyProjectId?: string } | undefined)?.studyProjectId;
      if (!projectId || !(await featuresOf(handle, projectId)).freeze) return refuse('cases.freezeSwitchOff');
      if (isFrozen(doc)) return refuse('cases.alreadyFrozen');
    } else {
      if (!isFrozen(doc)) return refuse('cases.notFrozen');
      if (!request.opinion?.trim()) return refuse('cases.unfreezeReasonRequired');
    }
    const node = doc.state.workflowNode;
    const plan: PlannedAction = {
      ok: true,
      action,
      fromNode: node,
      toNode: node,
      permissions: [FREEZE_PERMISSION],
      signature: false,
      snapshot: null,
      result: action === 'freeze' ? 'frozen' : 'unfrozen',
      history: true,
      validate: false,
    };
    return plan;
  };
}

/** Freezing sets `state.isFrozen`; unfreezing removes it (a case that is not frozen has no flag). */
export function freezeEffect(action: FreezeAction): ActionEffectFn {
  return ({ doc, request }) => {
    const next = structuredClone(doc);
    const state: CaseState = { ...next.state };
    if (action === 'freeze') state.isFrozen = true;
    else delete state.isFrozen;
    next.state = state;
    // The case stays with its handler: nobody is handed the case, so no next processer (and no
    // "case handed to you" message).
    return {
      doc: next,
      details: request.opinion?.trim() ? { reason: request.opinion.trim() } : {},
      next: null,
    };
  };
}

/**
 * The header's actions for a case: the workflow's, those a frozen case refuses marked refused with
 * the reason, then freeze (only while the project's switch is on) and unfreeze (only when frozen).
 */
export function withFreezeActions(
  actions: AvailableAction[],
  doc: CaseDocument,
  freezeSwitch: boolean,
): AvailableAction[] {
  const out = actions.map((action) => {
    const refusal = action.allowed ? frozenRefusal(doc, action.action) : null;
    return refusal ? { ...action, allowed: false, messageKey: refusal } : action;
  });
  const entry = (action: FreezeAction, allowed: boolean, messageKey?: string): AvailableAction => ({
    action,
    allowed,
    ...(messageKey ? { messageKey } : {}),
    targets: [],
    needsUser: false,
    needsOpinion: action === 'unfreeze',
    signature: false,
    option: null,
  });
  if (freezeSwitch)
    out.push(isFrozen(doc) ? entry('freeze', false, 'cases.alreadyFrozen') : entry('freeze', true));
  if (isFrozen(doc)) out.push(entry('unfreeze', true));
  return out;
}

/**
 * The projects, of those given (null: every project of the tenant), whose switch lets cases be
 * frozen now: where the case list offers freezing a selection.
 */
export async function freezeProjects(handle: TenantHandle, scope: string[] | null): Promise<string[]> {
  const ids =
    scope ??
    (await handle.collection(C.projects).find({}, { projection: { _id: 1 }, limit: 1000 })).map((p) => p._id);
  const on: string[] = [];
  for (const id of ids) if ((await featuresOf(handle, id)).freeze) on.push(id);
  return on;
}
