/**
 * What each move of a transmission means for its cases, handed to the case module
 * (`recordCaseTransmissions`): a workflow-history line per case and the case's transmission status
 * per receiver. Exports never write the case collections themselves (one direction: exports -> cases).
 */
import { recordCaseTransmissions } from '../cases/index';
import type { CaseTransmissionMove, CaseTransmissionStatus } from '../cases/index';
import type { Handle } from '../store';
import type { Caller, ExportedCase, ExportRecord } from './service';

type Detail = Pick<CaseTransmissionMove, 'status'> & Partial<CaseTransmissionMove>;

function movesOf(
  record: ExportRecord & { _id: string },
  cases: ExportedCase[],
  detail: (exported: ExportedCase) => Detail,
): CaseTransmissionMove[] {
  return cases.map((exported) => ({
    caseId: exported.caseId,
    receiverId: record.receiverId,
    receiverName: record.receiverName,
    receiverIdentifier: record.receiverIdentifier,
    batchId: record.batchId,
    exportId: record._id,
    fileName: record.fileName,
    version: exported.version,
    ...detail(exported),
  }));
}

/** Records the moves on the cases, in the caller's transaction when `handle` is one. */
const record = (handle: Handle, caller: Caller, moves: CaseTransmissionMove[], now: Date) =>
  recordCaseTransmissions(handle, { userId: caller.userId, name: caller.name }, moves, now);

/** The cases a rejection concerns: those the ACK rejected (CR), or all when the batch itself was. */
export const rejectedCases = (exported: ExportRecord): ExportedCase[] => {
  const rejected = exported.cases.filter((c) => c.ackCode === 'CR');
  return rejected.length ? rejected : exported.cases;
};

/** The file was transmitted to the receiver: every case of the batch. */
export const recordSent = (
  handle: Handle,
  caller: Caller,
  exported: ExportRecord & { _id: string },
  now: Date,
) =>
  record(
    handle,
    caller,
    movesOf(exported, exported.cases, () => ({ status: 'sent' })),
    now,
  );

/**
 * An ACK was read (the record already carries its codes): a report the receiver accepted (CA, or
 * AA without report lines) is acknowledged; one it rejected (CR, or a batch rejected AR) is rejected
 * with the report's error text, else the batch's.
 */
export const recordAcknowledged = (
  handle: Handle,
  caller: Caller,
  exported: ExportRecord & { _id: string },
  now: Date,
) => {
  const ack = exported.ack;
  const batchCode = ack?.code ?? null;
  return record(
    handle,
    caller,
    movesOf(exported, exported.cases, (c) => {
      const rejected =
        batchCode === 'AR' ||
        c.ackCode === 'CR' ||
        (c.ackCode !== 'CA' && exported.status !== 'acknowledged');
      const status: CaseTransmissionStatus = rejected ? 'rejected' : 'acknowledged';
      return {
        status,
        ackCode: batchCode,
        reportAckCode: c.ackCode ?? null,
        text: rejected ? (c.ackText ?? ack?.text ?? exported.failureText ?? null) : null,
      };
    }),
    now,
  );
};

/** The failure-handling opinion, on the cases the receiver rejected. */
export const recordHandled = (
  handle: Handle,
  caller: Caller,
  exported: ExportRecord & { _id: string },
  opinion: string,
  now: Date,
) =>
  record(
    handle,
    caller,
    movesOf(exported, rejectedCases(exported), () => ({ status: 'handled', text: opinion })),
    now,
  );

/** The rejected reports were exported again and sent as `resubmitted`, replacing `failed`'s batch. */
export const recordResubmitted = (
  handle: Handle,
  caller: Caller,
  failed: ExportRecord,
  resubmitted: ExportRecord & { _id: string },
  now: Date,
) =>
  record(
    handle,
    caller,
    movesOf(resubmitted, resubmitted.cases, () => ({
      status: 'resubmitted',
      replacesBatchId: failed.batchId,
    })),
    now,
  );
