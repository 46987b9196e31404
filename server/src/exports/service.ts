/**
 * E2B export of cases to a receiver, and the acknowledgements that answer it. An R3 file is
 * validated against the shipped XSDs before anything is kept: a refusal writes neither a file nor a
 * record. A kept export is one record (who, when, which cases, to whom, batch and message ids, the
 * file in the file store) that its ACK later completes.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  caseToRecord,
  detectFormat,
  e2bTimestamp,
  isInterchangeError,
  parseXml,
  readAcknowledgement,
} from '@pv/engine';
import type { Acknowledgement, CaseDocument } from '@pv/engine';
import type { AppError } from '../http';
import { errors } from '../http';
import type { TenantFiles } from '../files';
import type { Handle, StoredDoc, TenantHandle } from '../store';
import { exportCases } from '../interchange/index';
import type { XsdError } from '../interchange/index';
import { caseContent } from '../cases';
import { C as caseCollections } from '../cases';
import type { ExportFormat, Receiver, ReceiverProfile } from './receivers';
import { loadReceiver } from './receivers';
import {
  INITIAL_STATE,
  planTransition,
  RESUBMITTED_EXPORT_STATE,
  requireTransition,
  TRANSMISSION_STATES,
} from './states';
import { recordAcknowledged } from './case-history';
import { presendCheck } from './presend';

export const EXPORTS = 'e2bExports';
/** Owner kind of an export's E2B file and its ACK file (owner id: the export's batch id; access.ts checks it). */
export const EXPORT_OWNER = 'export';
/** An ACK is a small file; anything larger is not one. */
export const ACK_MAX_BYTES = 2 * 1024 * 1024;

/**
 * SPEC 4 transmission states of an export, declared in schemas/workflows/transmission.json:
 * exported (validated, ready to send), sent (the transmission recorded, the file in the receiver's
 * outbox), then what its ACK says (acknowledged, partial, failed), and after a failure handled
 * (opinion recorded) or resubmitted (a new export of the current case version replaces it); the
 * states a gateway will report are declared there too. The moves are run by ./states.
 */
export const EXPORT_STATUSES = TRANSMISSION_STATES;
/** A state of schemas/workflows/transmission.json. */
export type ExportStatus = string;

/** One line of a transmission's communication record. */
export interface TransmissionEvent {
  at: string;
  by: string;
  byName: string | null;
  /** `export`, or the `result` the workflow declares for the action (send, ack, handleFailure, resubmit). */
  action: string;
  status: ExportStatus;
  /** The ACK code, the handling opinion, the batch of the resubmission ... */
  note: string | null;
}

export interface ExportedCase {
  caseId: string;
  /** C.1.1 */
  reportCode: string | null;
  /** The case revision and version (initial / follow-up number) the file was written from. */
  caseRev: number;
  version: number | null;
  /** N.2.r.1 (R3) or safetyreportid (R2): what an ACK names the report by. */
  messageId: string | null;
  /** ACK.B.r.6 once acknowledged: CA or CR, with ACK.B.r.7. */
  ackCode?: 'CA' | 'CR' | null;
  ackText?: string | null;
  /** C.1.11.1 written in this report: 1 nullification, 2 amendment; absent for an initial or follow-up. */
  correction?: Correction['code'] | null;
}

/** A nullification (C.1.11.1 = 1) or amendment (C.1.11.1 = 2) report with its reason (C.1.11.2). */
export interface Correction {
  code: '1' | '2';
  reason: string;
}

export interface AckRecord {
  receivedAt: string;
  receivedBy: string;
  receivedByName: string | null;
  fileId: string;
  fileName: string;
  format: 'r3' | 'r2';
  /** ACK.A.4 (AA/AE/AR) with the raw code; ACK.A.5 text. */
  code: Acknowledgement['code'];
  rawCode: string;
  text: string | null;
  ackBatchId: string | null;
  ackSenderId: string | null;
  ackDate: string | null;
  reports: Acknowledgement['reports'];
}

export interface ExportRecord {
  format: ExportFormat;
  profile: ReceiverProfile;
  receiverId: string;
  receiverName: string;
  receiverIdentifier: string;
  messageReceiverIdentifier: string | null;
  senderIdentifier: string;
  /** N.1.2 (R3) / messagenumb (R2): the batch an ACK answers. */
  batchId: string;
  cases: ExportedCase[];
  caseIds: string[];
  fileId: string;
  fileName: string;
  size: number;
  exportedAt: string;
  exportedBy: string;
  exportedByName: string | null;
  status: ExportStatus;
  /** The error text of a negative ACK (batch or reports), for the list. */
  failureText: string | null;
  ack: AckRecord | null;
  /** The projects of the exported cases (C.1 study project): who may see the transmission. */
  projectIds?: string[];
  /** When the transmission to the receiver was recorded, and by whom. */
  sentAt?: string | null;
  sentBy?: string | null;
  sentByName?: string | null;
  /** The failure handling (opinion) once recorded. */
  handling?: { opinion: string; at: string; by: string; byName: string | null } | null;
  /** Resubmission links: the failed export this one replaces, and the export that replaced this one. */
  resubmitOf?: string | null;
  resubmittedAs?: string | null;
  events?: TransmissionEvent[];
  /** Blinded or unblinded file (issue 18 item 5; the unblinding module's rule decided it). */
  blinding?: 'blinded' | 'unblinded';
}

export interface ExportRequest {
  caseIds: string[];
  /** The request's studyProjectIds: when given, only cases of those projects may be exported. */
  projectIds: string[];
  receiverId: string;
  /** Overrides the receiver's format. */
  format?: ExportFormat;
  /** A resubmission: the failed export it replaces; it is recorded as sent at once. */
  resubmitOf?: string;
  /**
   * Cases written as nullification or amendment reports (by case id): C.1.11.1 and C.1.11.2 are
   * set in the file, and a version the receiver acknowledged may go again (issue 19 items 6, 7).
   */
  corrections?: Record<string, Correction>;
  /** The receiver's file size limit: a larger file is refused (`exports.fileTooLarge`) and nothing kept. */
  maxBytes?: number;
  /**
   * Warnings of the receiver's pre-send business rules (./presend.ts): `ask` refuses the export until
   * the user confirms them (the interactive exports); `accept` (default: resubmissions and bulk
   * reporting of reviewed plans) keeps them in the check log. Rejections always refuse.
   */
  warnings?: 'ask' | 'accept';
  /** The variant to write and the documents in it (the unblinding module's rule); as stored without it. */
  blinding?: (
    cases: { caseId: string; document: CaseDocument; projectId: string | null }[],
  ) => Promise<{ variant: 'blinded' | 'unblinded'; documents: CaseDocument[] }>;
}

export interface Caller {
  userId: string;
  name: string | null;
  /** Translates a message key into the request's language (interchange refusals are shown inside ours). */
  t: (key: string, params?: Record<string, string | number>) => string;
  has: (key: string) => boolean;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Batch numbers unique per export: sender, UTC time, and a random tail (two exports in one second). */
function newBatchId(sender: string, now: Date): string {
  return `${sender}-${e2bTimestamp(now).slice(0, 14)}-${randomBytes(3).toString('hex').toUpperCase()}`;
}

/** The cases, in the order asked; outside the caller's projects (when it names them) they do not exist. */
async function loadCases(
  handle: Handle,
  caseIds: string[],
  projectIds: string[],
): Promise<{ id: string; rev: number; document: CaseDocument; projectId: string | null }[]> {
  const found = await handle.collection(caseCollections.cases).find({ _id: { $in: caseIds } });
  const byId = new Map(found.map((doc) => [doc._id, doc]));
  return caseIds.map((id) => {
    const stored = byId.get(id);
    if (!stored) throw errors.notFound('cases.notFound', { id });
    const document = caseContent(stored);
    const state = document.state as { validity?: string; version?: number } | undefined;
    const report = document.report as { reportCode?: string; studyProjectId?: string } | undefined;
    if (projectIds.length && !projectIds.includes(report?.studyProjectId ?? ''))
      throw errors.notFound('cases.notFound', { id });
    const code = report?.reportCode ?? id;
    if (state?.validity === 'deleted') throw errors.badRequest('exports.caseDeleted', { code });
    return { id, rev: stored.rev, document, projectId: report?.studyProjectId ?? null };
  });
}

/**
 * No double sending (issue 19 item 7): a case version the receiver already acknowledged is not
 * exported to it again; a follow-up (a new version), an amendment or a nullification goes.
 */
async function refuseAcknowledged(
  handle: Handle,
  receiver: StoredDoc<Receiver>,
  cases: { id: string; document: CaseDocument }[],
  corrections: Record<string, Correction> = {},
): Promise<void> {
  const summaries = await handle
    .collection<{
      transmission?: { receivers: { receiverId: string; status: string; version: number | null }[] } | null;
    }>(caseCollections.summaries)
    .find({ _id: { $in: cases.map((c) => c.id) } }, { projection: { transmission: 1 } });
  for (const { id, document } of cases) {
    if (corrections[id]) continue;
    const version = (document.state as { version?: number } | undefined)?.version ?? null;
    const kept = summaries.find((s) => s._id === id)?.transmission?.receivers ?? [];
    if (
      kept.some((t) => t.receiverId === receiver._id && t.status === 'acknowledged' && t.version === version)
    )
      throw errors.badRequest('exports.alreadyAcknowledged', {
        code: String((document.report as { reportCode?: string } | undefined)?.reportCode ?? id),
        version: version ?? '',
        receiver: receiver.name,
      });
  }
}

/** The refusal of a file over the receiver's size limit (a bulk export splits the batch on it). */
export const FILE_TOO_LARGE = 'exports.fileTooLarge';

/** The case as the report says it: C.1.11.1 and C.1.11.2 of a nullification or amendment. */
function withCorrection(document: CaseDocument, correction: Correction | undefined): CaseDocument {
  if (!correction) return document;
  const report = { ...((document.report ?? {}) as Record<string, unknown>) };
  report.reportAmended = correction.code;
  report.reportAmendedWhy = correction.reason;
  return { ...document, report } as CaseDocument;
}

/** Refusal of the interchange layer (no sender, unknown profile, hostile XML ...) in the request's language. */
function interchangeRefusal(caller: Caller, key: string, params: Record<string, string | number>): AppError {
  return errors.badRequest(
    'exports.refused',
    { reason: caller.t(key, params) },
    { refusal: { key, params } },
  );
}

/**
 * Writes the cases as one E2B batch for the receiver, validates R3 against the XSD, keeps the file
 * and the record. XSD errors answer 400 with `data.xsdErrors` and keep nothing.
 */
export async function exportToReceiver(
  handle: TenantHandle,
  files: TenantFiles,
  caller: Caller,
  request: ExportRequest,
  now: Date,
): Promise<{ record: StoredDoc<ExportRecord>; xml: string }> {
  const receiver = await loadReceiver(handle, request.receiverId);
  if (!receiver.active) throw errors.badRequest('exports.receiverInactive', { name: receiver.name });
  const cases = await loadCases(handle, request.caseIds, request.projectIds);
  const corrections = request.corrections ?? {};
  await refuseAcknowledged(handle, receiver, cases, corrections);
  const format = request.format ?? receiver.format;
  const batchId = newBatchId(receiver.senderIdentifier, now);
  const output = request.blinding
    ? await request.blinding(
        cases.map((c) => ({ caseId: c.id, document: c.document, projectId: c.projectId })),
      )
    : null;
  const documents = (output?.documents ?? cases.map((c) => c.document)).map((document, i) =>
    withCorrection(document, corrections[cases[i]!.id]),
  );
  const outcome = await exportCases(documents, {
    format,
    profile: receiver.profile,
    senderId: receiver.senderIdentifier,
    receiverId: receiver.receiverIdentifier,
    ...(receiver.messageReceiverIdentifier ? { messageReceiverId: receiver.messageReceiverIdentifier } : {}),
    batchId,
    now,
  });
  if (!outcome.ok) {
    if (outcome.xsdErrors)
      throw errors.badRequest(
        'exports.xsdInvalid',
        { count: outcome.xsdErrors.length },
        { xsdErrors: outcome.xsdErrors satisfies XsdError[] },
      );
    const refusal = outcome.refusal ?? { key: 'interchange.export.noCases', params: {} };
    throw interchangeRefusal(caller, refusal.key, refusal.params);
  }
  // The receiver's business rules on the very file that will be kept and sent (issue 19 item 5).
  await presendCheck(
    handle,
    caller,
    {
      xml: outcome.xml,
      receiver,
      batchId,
      cases: cases.map((c) => ({
        caseId: c.id,
        reportCode: text((c.document.report as { reportCode?: unknown } | undefined)?.reportCode),
        projectId: c.projectId,
      })),
      confirmWarnings: request.warnings !== 'ask',
    },
    now,
  );
  const fileName = `E2B_${format.toUpperCase()}_${batchId}.xml`;
  const bytes = Buffer.from(outcome.xml, 'utf8');
  if (request.maxBytes !== undefined && bytes.length > request.maxBytes)
    throw errors.badRequest(
      FILE_TOO_LARGE,
      { count: cases.length, size: bytes.length, limit: request.maxBytes },
      { size: bytes.length, limit: request.maxBytes },
    );
  const info = await files.putStream(Readable.from([bytes]), {
    fileName,
    contentType: 'application/xml',
    maxBytes: Math.max(bytes.length, 1),
    owner: { kind: EXPORT_OWNER, id: batchId },
  });
  const exported: ExportedCase[] = cases.map(({ id, rev, document }) => {
    const values = caseToRecord(document).values;
    const reportCode = text(values['C.1.1']);
    // The ids the writer gives each report (N.2.r.1 kept from the case, else C.1.1); an ACK names them.
    const messageId = format === 'r3' ? (text(values['N.2.r.1']) ?? reportCode) : reportCode;
    const version = (document.state as { version?: number } | undefined)?.version ?? null;
    const correction = corrections[id]?.code ?? null;
    return {
      caseId: id,
      reportCode,
      messageId,
      caseRev: rev,
      version,
      ...(correction ? { correction } : {}),
    };
  });
  const at = now.toISOString();
  const by = { by: caller.userId, byName: caller.name };
  const resubmitOf = request.resubmitOf ?? null;
  const events: TransmissionEvent[] = [
    { at, ...by, action: 'export', status: INITIAL_STATE, note: batchId },
    ...(resubmitOf ? [{ at, ...by, action: 'send', status: RESUBMITTED_EXPORT_STATE, note: null }] : []),
  ];
  const record = await handle.collection<ExportRecord>(EXPORTS).insertOne({
    format,
    profile: receiver.profile,
    receiverId: receiver._id,
    receiverName: receiver.name,
    receiverIdentifier: receiver.receiverIdentifier,
    messageReceiverIdentifier: receiver.messageReceiverIdentifier ?? null,
    senderIdentifier: receiver.senderIdentifier,
    batchId,
    cases: exported,
    caseIds: exported.map((c) => c.caseId),
    fileId: info.fileId,
    fileName,
    size: info.size,
    exportedAt: at,
    exportedBy: caller.userId,
    exportedByName: caller.name,
    status: resubmitOf ? RESUBMITTED_EXPORT_STATE : INITIAL_STATE,
    failureText: null,
    ack: null,
    projectIds: [...new Set(cases.map((c) => c.projectId).filter((p): p is string => p !== null))],
    sentAt: resubmitOf ? at : null,
    sentBy: resubmitOf ? caller.userId : null,
    sentByName: resubmitOf ? caller.name : null,
    handling: null,
    resubmitOf,
    resubmittedAs: null,
    events,
    ...(output ? { blinding: output.variant } : {}),
  });
  return { record, xml: outcome.xml };
}

/** What a parsed ACK means for the record: its status, the failure text and each case's code. */
function applyAck(
  record: ExportRecord,
  ack: Acknowledgement,
): { status: Acknowledgement['status']; failureText: string | null; cases: ExportedCase[] } {
  const byMessage = new Map<string, Acknowledgement['reports'][number]>();
  for (const report of ack.reports) {
    for (const id of [report.messageId, report.safetyReportId, report.companyNumber])
      if (id) byMessage.set(id, report);
  }
  const cases = record.cases.map((c) => {
    const report =
      (c.messageId && byMessage.get(c.messageId)) || (c.reportCode && byMessage.get(c.reportCode));
    return report ? { ...c, ackCode: report.code, ackText: report.text ?? null } : { ...c };
  });
  const texts = [
    ack.text,
    ...ack.reports
      .filter((r) => r.code === 'CR' && r.text)
      .map((r) => `${r.messageId ?? r.safetyReportId ?? ''}: ${r.text}`.replace(/^: /, '')),
  ].filter((t): t is string => Boolean(t));
  const status: Acknowledgement['status'] = ack.status;
  return { status, failureText: status === 'acknowledged' ? null : texts.join('\n') || null, cases };
}

/**
 * Reads an ACK for an export record: it must be an R3 or R2 acknowledgement and, when it names the
 * batch it answers, name this record's. The file is kept; the codes and texts land on the record.
 */
export async function receiveAcknowledgement(
  handle: TenantHandle,
  files: TenantFiles,
  caller: Caller,
  exportId: string,
  file: { fileName: string; bytes: Uint8Array; rev?: number },
  now: Date,
): Promise<StoredDoc<ExportRecord>> {
  const exports = handle.collection<ExportRecord>(EXPORTS);
  const record = await exports.findOne({ _id: exportId });
  if (!record) throw errors.notFound('exports.exportNotFound', { id: exportId });
  requireTransition(caller, record, 'ack');
  let ack: Acknowledgement;
  try {
    const root = parseXml(file.bytes, { maxBytes: ACK_MAX_BYTES });
    const format = detectFormat(root);
    if (format !== 'ack-r3' && format !== 'ack-r2')
      throw errors.badRequest('exports.notAnAck', { root: root.name });
    ack = readAcknowledgement(root);
  } catch (e) {
    if (isInterchangeError(e)) throw interchangeRefusal(caller, e.key, e.params);
    throw e;
  }
  if (ack.icsrBatchId && ack.icsrBatchId !== record.batchId)
    throw errors.badRequest('exports.ackBatchMismatch', { ack: ack.icsrBatchId, batch: record.batchId });
  const applied = applyAck(record, ack);
  // The ACK's verdict picks the state among those the workflow allows, before the file is kept.
  const plan = planTransition(caller, record, 'ack', { toNode: applied.status });
  const info = await files.putStream(Readable.from([Buffer.from(file.bytes)]), {
    fileName: file.fileName,
    contentType: 'application/xml',
    maxBytes: ACK_MAX_BYTES,
    owner: { kind: EXPORT_OWNER, id: record.batchId },
  });
  const stored: AckRecord = {
    receivedAt: now.toISOString(),
    receivedBy: caller.userId,
    receivedByName: caller.name,
    fileId: info.fileId,
    fileName: file.fileName,
    format: ack.format,
    code: ack.code,
    rawCode: ack.rawCode,
    text: ack.text ?? null,
    ackBatchId: ack.ackBatchId ?? null,
    ackSenderId: ack.ackSenderId ?? null,
    ackDate: ack.ackDate ?? null,
    reports: ack.reports,
  };
  const event: TransmissionEvent = {
    at: stored.receivedAt,
    by: caller.userId,
    byName: caller.name,
    action: plan.result,
    status: plan.toNode,
    note: [ack.code, ack.text].filter(Boolean).join(' '),
  };
  // The record and its cases' history lines (acknowledged, or rejected with the text) land together.
  return handle.transaction(async (tx) => {
    const updated = await tx
      .collection<ExportRecord>(EXPORTS)
      .updateOne(
        { _id: exportId },
        { $set: { ...applied, status: plan.toNode, ack: stored, events: [...(record.events ?? []), event] } },
        file.rev === undefined ? {} : { expectedRev: file.rev },
      );
    if (!updated) throw errors.notFound('exports.exportNotFound', { id: exportId });
    await recordAcknowledged(tx, caller, updated, now);
    return updated;
  });
}

export function exportView(r: StoredDoc<ExportRecord>) {
  const { tenantId: _t, createdAt: _ca, createdBy: _cb, updatedBy: _ub, _id, ...rest } = r;
  return { exportId: _id, ...rest };
}
export type ExportView = ReturnType<typeof exportView>;
