/**
 * The transmission state machine of an export (SPEC 4): which action may run from which state, and
 * the permission its transmission route needs. Labels are `exports.status.<state>` and
 * `exports.action.<action>` (schemas/i18n/exports); a move from any other state is refused with
 * `exports.transitionRefused` naming both, translated.
 */
import { errors } from '../http/errors';
import type { ExportStatus } from './service';

export const TRANSMISSION_ACTIONS = {
  /** Records the transmission to the receiver (no gateway is connected: the file waits in its outbox). */
  send: { from: ['exported'], permission: 'submittransfer:E2Btransmission:send' },
  /** Attaches the receiver's acknowledgement; a corrected ACK may replace one not yet dealt with. */
  ack: {
    from: ['exported', 'sent', 'acknowledged', 'partial', 'failed'],
    permission: 'submittransfer:E2Btransmission:send',
  },
  /** Records the handling opinion of a rejected transmission. */
  handleFailure: { from: ['failed', 'partial'], permission: 'submittransfer:E2Btransmission:handleFailure' },
  /** A new export of the current case versions, linked to the failed one. */
  resubmit: { from: ['failed', 'partial', 'handled'], permission: 'submittransfer:E2Btransmission:resubmit' },
} as const satisfies Record<string, { from: readonly ExportStatus[]; permission: string }>;

export type TransmissionAction = keyof typeof TRANSMISSION_ACTIONS;

export const allowed = (action: TransmissionAction, status: ExportStatus): boolean =>
  (TRANSMISSION_ACTIONS[action].from as readonly ExportStatus[]).includes(status);

/** The actions a record's state allows (the list shows only these buttons). */
export const allowedActions = (status: ExportStatus): TransmissionAction[] =>
  (Object.keys(TRANSMISSION_ACTIONS) as TransmissionAction[]).filter((a) => allowed(a, status));

/** Refuses the action unless the record's state allows it, naming both in the caller's language. */
export function requireTransition(
  caller: { t: (key: string) => string },
  record: { status: ExportStatus; batchId: string },
  action: TransmissionAction,
): void {
  if (allowed(action, record.status)) return;
  throw errors.badRequest('exports.transitionRefused', {
    action: caller.t(`exports.action.${action}`),
    status: caller.t(`exports.status.${record.status}`),
    batch: record.batchId,
  });
}
