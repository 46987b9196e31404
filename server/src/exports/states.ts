/**
 * The transmission state machine of an export (SPEC 4) is declared in
 * schemas/workflows/transmission.json and run by the engine's workflow machine, as the case
 * workflow is: which action may run from which state, where it takes the record, and the permission
 * its route needs. Actions the workflow marks `system` (a gateway's status reports, "no submission
 * required") are never a user's. A move the workflow does not declare is refused with
 * `exports.transitionRefused`, naming the action (`exports.action.<action>`) and the state
 * (`exports.status.<state>`, the in-sentence forms of schemas/i18n/exports) in the caller's language.
 */
import { availableActions, planAction, targetsOf, transmissionWorkflow } from '@pv/engine';
import type { ActionChoice, PlannedAction } from '@pv/engine';
import { errors } from '../http';

const workflow = transmissionWorkflow;

/** An action of the transmission workflow a user takes (its route is in ./transmission-routes). */
export type TransmissionAction = 'send' | 'ack' | 'handleFailure' | 'resubmit';

/** Every declared state, in the workflow's display order (the list's status filter). */
export const TRANSMISSION_STATES: readonly string[] = workflow.order;

/** The state of a new export. */
export const INITIAL_STATE: string = workflow.initial;

/** A resubmission is exported and sent at once: the state `send` takes a new export to. */
export const RESUBMITTED_EXPORT_STATE: string = targetsOf(workflow, workflow.initial, 'send')[0]!;

/** The permission the route of a user action needs, as the workflow declares it. */
export function permissionOf(action: TransmissionAction): string {
  const permission = workflow.actions[action]?.permission;
  // A declaration without it cannot serve its route: refuse at startup, not per request.
  if (!permission || workflow.actions[action]?.system)
    throw new Error(`schemas/workflows/transmission.json: ${action} is not a user action`);
  return permission;
}

/** The user actions a record's state allows (the list shows only these buttons), in declared order. */
export const allowedActions = (status: string): TransmissionAction[] =>
  availableActions(workflow, { node: status })
    .filter((a) => a.allowed && !a.system)
    .map((a) => a.action as TransmissionAction);

function transitionRefused(
  caller: { t: (key: string) => string },
  record: { status: string; batchId: string },
  action: string,
) {
  return errors.badRequest('exports.transitionRefused', {
    action: caller.t(`exports.action.${action}`),
    status: caller.t(`exports.status.${record.status}`),
    batch: record.batchId,
  });
}

/**
 * Refuses the action unless the record's state allows it, naming both in the caller's language.
 * Checked before the action's work (an ACK is read only for a record that may take one).
 */
export function requireTransition(
  caller: { t: (key: string) => string },
  record: { status: string; batchId: string },
  action: TransmissionAction,
): void {
  if (!allowedActions(record.status).includes(action)) throw transitionRefused(caller, record, action);
}

/**
 * Plans the move through the workflow machine: the state the record goes to (`toNode` chooses among
 * several, as an ACK's verdict does) and the line its communication record gets (`result`).
 */
export function planTransition(
  caller: { t: (key: string) => string },
  record: { status: string; batchId: string },
  action: TransmissionAction,
  choice: ActionChoice = {},
): PlannedAction {
  const plan = planAction(workflow, action, { node: record.status }, choice);
  if (plan.ok) return plan;
  if (plan.messageKey === 'workflow.noTransition' || plan.messageKey === 'workflow.unknownNode')
    throw transitionRefused(caller, record, action);
  throw errors.badRequest(plan.messageKey, plan.params);
}
