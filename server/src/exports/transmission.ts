/**
 * E2B transmission tracking (/submittransfer/E2Btransmission): what happens to an export after it is
 * written - sent to its receiver, acknowledged, handled after a failure, or resubmitted as a new
 * export of the current case versions. No gateway (FDA ESG, EV Gateway, CDE) is connected to this
 * installation: "send" records the transmission and leaves the file in the receiver's outbox (the
 * sent transmissions of that receiver) for its gateway; only an uploaded ACK says the receiver got it.
 */
import { C as caseCollections } from '../cases';
import { caseContent } from '../cases';
import { errors } from '../http';
import type { TenantFiles } from '../files';
import type { Handle, StoredDoc, TenantHandle } from '../store';
import { recordHandled, recordResubmitted, recordSent, rejectedCases } from './case-history';
import { loadReceiver } from './receivers';
import { runSendParticipants } from './send-participants';
import type { Caller, ExportRecord, ExportRequest, ExportStatus, TransmissionEvent } from './service';
import { EXPORTS, exportToReceiver, exportView } from './service';
import { allowedActions, planTransition, requireTransition } from './states';
import type { TransmissionAction } from './states';

const exportsOf = (handle: Handle) => handle.collection<ExportRecord>(EXPORTS);

export async function loadExport(handle: TenantHandle, exportId: string): Promise<StoredDoc<ExportRecord>> {
  const found = await exportsOf(handle).findOne({ _id: exportId });
  if (!found) throw errors.notFound('exports.exportNotFound', { id: exportId });
  return found;
}

const event = (
  caller: Caller,
  now: Date,
  action: TransmissionEvent['action'],
  status: ExportStatus,
  note: string | null = null,
): TransmissionEvent => ({
  at: now.toISOString(),
  by: caller.userId,
  byName: caller.name,
  action,
  status,
  note,
});

/** Writes a move with the revision the caller read (409 when someone moved it meanwhile). */
async function move(
  handle: Handle,
  record: StoredDoc<ExportRecord>,
  rev: number,
  set: Partial<ExportRecord>,
  line: TransmissionEvent,
): Promise<StoredDoc<ExportRecord>> {
  const updated = await exportsOf(handle).updateOne(
    { _id: record._id },
    { $set: { ...set, events: [...(record.events ?? []), line] } },
    { expectedRev: rev },
  );
  if (!updated) throw errors.notFound('exports.exportNotFound', { id: record._id });
  return updated;
}

/**
 * The file may only leave for a receiver that is still active, with cases that still exist and have
 * no newer version than the one written (a follow-up since the export needs a new export).
 */
async function requireSendable(handle: TenantHandle, record: ExportRecord): Promise<void> {
  const receiver = await loadReceiver(handle, record.receiverId);
  if (!receiver.active) throw errors.badRequest('exports.receiverInactive', { name: receiver.name });
  const found = await handle.collection(caseCollections.cases).find({ _id: { $in: record.caseIds } });
  const byId = new Map(found.map((doc) => [doc._id, caseContent(doc)]));
  for (const exported of record.cases) {
    const code = exported.reportCode ?? exported.caseId;
    const current = byId.get(exported.caseId);
    const state = current?.state as { validity?: string; version?: number } | undefined;
    if (!current || state?.validity === 'deleted') throw errors.badRequest('exports.caseDeleted', { code });
    if (exported.version !== null && state?.version !== undefined && state.version !== exported.version)
      throw errors.badRequest('exports.newerVersion', {
        code,
        exported: exported.version,
        current: state.version,
      });
  }
}

/**
 * Records that the validated file was transmitted to its receiver (state exported -> sent). A
 * report past its due date needs `lateReason` (the submissions module's send participant).
 */
export async function sendTransmission(
  handle: TenantHandle,
  caller: Caller,
  exportId: string,
  rev: number,
  now: Date,
  lateReason: string | null = null,
): Promise<StoredDoc<ExportRecord>> {
  const record = await loadExport(handle, exportId);
  const plan = planTransition(caller, record, 'send');
  await requireSendable(handle, record);
  // The transmission, its cases' history lines and what other modules keep of it land together.
  return handle.transaction(async (tx) => {
    await runSendParticipants(tx, record, { lateReason: lateReason?.trim() || null, now });
    const sent = await move(
      tx,
      record,
      rev,
      { status: plan.toNode, sentAt: now.toISOString(), sentBy: caller.userId, sentByName: caller.name },
      event(caller, now, plan.result, plan.toNode, record.receiverIdentifier),
    );
    await recordSent(tx, caller, sent, now);
    return sent;
  });
}

/** Records the handling opinion of a failed (or partly rejected) transmission (state -> handled). */
export async function handleFailure(
  handle: TenantHandle,
  caller: Caller,
  exportId: string,
  body: { opinion: string; rev: number },
  now: Date,
): Promise<StoredDoc<ExportRecord>> {
  const record = await loadExport(handle, exportId);
  requireTransition(caller, record, 'handleFailure');
  const opinion = body.opinion.trim();
  if (!opinion) throw errors.badRequest('exports.opinionRequired');
  const plan = planTransition(caller, record, 'handleFailure', { opinion });
  return handle.transaction(async (tx) => {
    const handled = await move(
      tx,
      record,
      body.rev,
      {
        status: plan.toNode,
        handling: { opinion, at: now.toISOString(), by: caller.userId, byName: caller.name },
      },
      event(caller, now, plan.result, plan.toNode, opinion),
    );
    await recordHandled(tx, caller, handled, opinion, now);
    return handled;
  });
}

/**
 * Resubmits a failed transmission: the reports the receiver rejected (CR; all of them when the
 * batch itself was rejected) are exported again from their current version to the same receiver
 * and format, validated as any export, and recorded as sent; the failed one becomes resubmitted
 * and names the new one. The failed record is claimed first, so two clicks make one resubmission;
 * a refused export (XSD errors, a deleted case, a disabled receiver) gives the claim back.
 */
export async function resubmitTransmission(
  handle: TenantHandle,
  files: TenantFiles,
  caller: Caller,
  exportId: string,
  body: { rev: number; projectIds: string[]; blinding?: ExportRequest['blinding'] },
  now: Date,
): Promise<{ failed: StoredDoc<ExportRecord>; resubmitted: StoredDoc<ExportRecord> }> {
  const record = await loadExport(handle, exportId);
  const plan = planTransition(caller, record, 'resubmit');
  const caseIds = rejectedCases(record).map((c) => c.caseId);
  const claimed = await exportsOf(handle).updateOne(
    { _id: record._id },
    { $set: { status: plan.toNode } },
    { expectedRev: body.rev },
  );
  if (!claimed) throw errors.notFound('exports.exportNotFound', { id: exportId });
  let created: StoredDoc<ExportRecord>;
  try {
    created = (
      await exportToReceiver(
        handle,
        files,
        caller,
        {
          caseIds,
          projectIds: body.projectIds,
          receiverId: record.receiverId,
          format: record.format,
          resubmitOf: record._id,
          ...(body.blinding ? { blinding: body.blinding } : {}),
        },
        now,
      )
    ).record;
  } catch (error) {
    await exportsOf(handle).updateOne({ _id: record._id }, { $set: { status: record.status } });
    throw error;
  }
  const failed = await handle.transaction(async (tx) => {
    const linked = await move(
      tx,
      claimed,
      claimed.rev,
      { resubmittedAs: created._id },
      event(caller, now, plan.result, plan.toNode, created.batchId),
    );
    await recordResubmitted(tx, caller, linked, created, now);
    return linked;
  });
  return { failed, resubmitted: created };
}

/** A transmission as the list shows it: the export record and the actions its state allows. */
export function transmissionView(record: StoredDoc<ExportRecord>) {
  return { ...exportView(record), actions: allowedActions(record.status) satisfies TransmissionAction[] };
}
export type TransmissionView = ReturnType<typeof transmissionView>;
