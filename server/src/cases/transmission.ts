/**
 * A case's E2B transmissions as the case knows them (SPEC 4 regulatory submission, node "submission
 * transmission"): the exports module reports each move of a transmission here - sent to a receiver,
 * acknowledged, rejected with the ACK's error text, failure handled, resubmitted - and the case gets
 * a workflow-history line for it and its transmission status per receiver in its summary (the case
 * list's column and the case page's badge). A transmission changes neither the case document nor
 * its revision: whoever edits the case meanwhile is not refused.
 *
 * A frozen case may be transmitted (its data are final: that is what a regulator should get); the
 * history line records that it was frozen.
 */
import { orderedId } from '../store';
import type { Handle } from '../store';
import type { WorkflowHistoryEntry } from '../workflow';
import { C } from './collections';
import type { CaseDocument } from './document';
import { caseContent } from './document';
import { deadlineOf } from './deadline';
import { frozenRefusal, isFrozen } from './freeze';
import { submittedFacts } from './submitted';

/** What happened to the case's transmission to one receiver, worst first (the order of the summary status). */
export const CASE_TRANSMISSION_STATUSES = [
  'rejected',
  'handled',
  'resubmitted',
  'sent',
  'acknowledged',
] as const;
export type CaseTransmissionStatus = (typeof CASE_TRANSMISSION_STATUSES)[number];

/** The workflow-history result of each move (the case page labels it `uiTransmission<Status>`, schemas/i18n/cases). */
const RESULT: Record<CaseTransmissionStatus, string> = {
  sent: 'transmissionSent',
  acknowledged: 'transmissionAcknowledged',
  rejected: 'transmissionRejected',
  handled: 'transmissionHandled',
  resubmitted: 'transmissionResubmitted',
};

/** One move of one case's transmission, as the exports module reports it. */
export interface CaseTransmissionMove {
  caseId: string;
  status: CaseTransmissionStatus;
  receiverId: string;
  receiverName: string;
  /** N.1.4 / N.2.r.3 of the receiver. */
  receiverIdentifier: string;
  /** N.1.2: the batch of the file (for a resubmission, the new batch). */
  batchId: string;
  exportId: string;
  fileName: string;
  /** The case version the file was written from. */
  version: number | null;
  /** ACK.A.4 (AA/AE/AR) and ACK.B.r.6 (CA/CR) when an ACK was read. */
  ackCode?: string | null;
  reportAckCode?: string | null;
  /** The ACK's error text (ACK.B.r.7 / ACK.A.5), or the failure-handling opinion. */
  text?: string | null;
  /** The batch a resubmission replaces. */
  replacesBatchId?: string | null;
}

/** The case's last known transmission to one receiver. */
export interface ReceiverTransmission {
  receiverId: string;
  receiverName: string;
  receiverIdentifier: string;
  status: CaseTransmissionStatus;
  batchId: string;
  exportId: string;
  version: number | null;
  text: string | null;
  at: string;
}

/** Kept in `caseSummaries.transmission`: the worst status over the receivers, and each receiver's. */
export interface CaseTransmissionSummary {
  status: CaseTransmissionStatus;
  receivers: ReceiverTransmission[];
}

/** The summary's status: the worst of its receivers' (acknowledged only when every receiver acknowledged). */
export function transmissionStatusOf(receivers: ReceiverTransmission[]): CaseTransmissionStatus {
  return CASE_TRANSMISSION_STATUSES.find((s) => receivers.some((r) => r.status === s)) ?? 'sent';
}

/**
 * The status of the case's current version: the worst over the transmissions of that version, or
 * null when it was not transmitted yet (a follow-up version is not submitted by its predecessor's
 * acknowledgement). A transmission whose version is unknown counts for every version.
 */
export function currentTransmissionStatus(
  transmission: CaseTransmissionSummary | null | undefined,
  version: number,
): CaseTransmissionStatus | null {
  const current = (transmission?.receivers ?? []).filter((r) => r.version === null || r.version === version);
  return current.length ? transmissionStatusOf(current) : null;
}

interface SummaryTransmission {
  transmission?: CaseTransmissionSummary | null;
}

/**
 * Records moves of transmissions on their cases: one workflow-history line each (node and handler
 * unchanged, data version of the case now) and the receiver's status in the case summary, in one
 * transaction. A case that no longer exists is skipped (its transmission record keeps the facts).
 */
export async function recordCaseTransmissions(
  handle: Handle,
  actor: { userId: string; name: string | null },
  moves: CaseTransmissionMove[],
  now: Date,
): Promise<void> {
  if (!moves.length) return;
  const at = now.toISOString();
  await handle.transaction(async (tx) => {
    for (const move of moves) {
      const stored = await tx.collection<CaseDocument>(C.cases).findOne({ _id: move.caseId });
      if (!stored) continue;
      const doc = caseContent(stored);
      // Transmitting is allowed on a frozen case; the one rule lives with the other frozen-case rules.
      const frozen = isFrozen(doc) && frozenRefusal(doc, 'transmit') === null;
      const node = doc.state.workflowNode;
      const entry: WorkflowHistoryEntry = {
        caseId: move.caseId,
        reportCode: String((doc.report as { reportCode?: string } | undefined)?.reportCode ?? ''),
        action: 'transmission',
        result: RESULT[move.status],
        option: null,
        node,
        opinion: move.text?.trim() || null,
        processerId: actor.userId,
        processerName: actor.name ?? actor.userId,
        nextNode: node,
        nextProcesserId: null,
        nextProcesserName: null,
        at,
        dataVersion: { version: doc.state.version, rev: stored.rev },
        signatureId: null,
        details: {
          status: move.status,
          receiverId: move.receiverId,
          receiverName: move.receiverName,
          receiverIdentifier: move.receiverIdentifier,
          batchId: move.batchId,
          exportId: move.exportId,
          fileName: move.fileName,
          exportedVersion: move.version,
          ackCode: move.ackCode ?? null,
          reportAckCode: move.reportAckCode ?? null,
          replacesBatchId: move.replacesBatchId ?? null,
          frozen,
        },
      };
      await tx.collection<WorkflowHistoryEntry>(C.history).insertOne({ _id: orderedId(), ...entry });
      const summaries = tx.collection<SummaryTransmission>(C.summaries);
      const summary = await summaries.findOne({ _id: move.caseId }, { projection: { transmission: 1 } });
      const receiver: ReceiverTransmission = {
        receiverId: move.receiverId,
        receiverName: move.receiverName,
        receiverIdentifier: move.receiverIdentifier,
        status: move.status,
        batchId: move.batchId,
        exportId: move.exportId,
        version: move.version,
        text: move.text?.trim() || null,
        at,
      };
      const receivers = [
        ...(summary?.transmission?.receivers ?? []).filter((r) => r.receiverId !== move.receiverId),
        receiver,
      ];
      await summaries.updateOne(
        { _id: move.caseId },
        { $set: { transmission: { status: transmissionStatusOf(receivers), receivers } } },
      );
      // A sent plan closes its clock: the case's deadline moves to the next open receiver.
      await summaries.updateOne(
        { _id: move.caseId },
        { $set: { deadline: await deadlineOf(tx, move.caseId, doc) } },
      );
      // A delivery may be the case's first, or a report's: what pooled analysis counts of it.
      if (move.status === 'sent' || move.status === 'resubmitted')
        await summaries.updateOne(
          { _id: move.caseId },
          { $set: { submitted: await submittedFacts(tx, move.caseId) } },
        );
    }
  });
}

/**
 * What the case page shows: the current version's status (null when only an earlier version was
 * transmitted), each receiver's last transmission, whether every planned receiver acknowledged.
 */
export interface CaseTransmissionView {
  status: CaseTransmissionStatus | null;
  receivers: ReceiverTransmission[];
  /** Receivers of the submission plans marked "submit" (isSubmit), by the plan's receiver field. */
  planned: string[];
  /** Every planned receiver acknowledged the case's current version: the evidence it was submitted. */
  plannedAcknowledged: boolean;
}

/** A plan names its receiver by the receiver's id, name or identifier (N.1.4). */
const names = (receiver: ReceiverTransmission, planned: string) =>
  [receiver.receiverId, receiver.receiverName, receiver.receiverIdentifier].some(
    (id) => id.toLowerCase() === planned.trim().toLowerCase(),
  );

export async function caseTransmission(
  handle: Handle,
  caseId: string,
  doc: CaseDocument,
): Promise<CaseTransmissionView | null> {
  const summary = await handle
    .collection<SummaryTransmission>(C.summaries)
    .findOne({ _id: caseId }, { projection: { transmission: 1 } });
  const transmission = summary?.transmission;
  if (!transmission) return null;
  const plans = (Array.isArray(doc.submissionPlans) ? doc.submissionPlans : []) as {
    receiverId?: string;
    isSubmit?: boolean;
  }[];
  const planned = plans
    .filter((p) => p.isSubmit === true && typeof p.receiverId === 'string' && p.receiverId.trim())
    .map((p) => p.receiverId!);
  const plannedAcknowledged =
    planned.length > 0 &&
    planned.every((p) =>
      transmission.receivers.some(
        (r) => names(r, p) && r.status === 'acknowledged' && r.version === doc.state.version,
      ),
    );
  return {
    status: currentTransmissionStatus(transmission, doc.state.version),
    receivers: transmission.receivers,
    planned,
    plannedAcknowledged,
  };
}
