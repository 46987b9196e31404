/**
 * The acknowledgement of a processed import, written with the engine's R3 (MCCI_IN200101UV01) or
 * R2 (ichicsrack) writer: per report CA when it became a case (with our report code as the local
 * report number), CR when the import was rejected; per batch AA when all were accepted, else AE.
 * A zip of several messages is answered with a zip of one ACK per message.
 */
import { zipSync } from 'fflate';
import { writeR2Acknowledgement, writeR3Acknowledgement } from '@pv/engine';
import type { AckOptions } from '@pv/engine';
import { caseCollectionNames } from '../cases';
import { errors } from '../http';
import type { StoredDoc, TenantHandle } from '../store';
import type { ImportRecord, ImportReport } from './collections';
import { IMPORT_REPORTS } from './collections';

export interface AckFile {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

const e2bInstant = (now: Date) => now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
const stem = (name: string) => name.replace(/\.[^./]+$/, '');

async function reportCodes(handle: TenantHandle, caseIds: string[]): Promise<Map<string, string>> {
  if (!caseIds.length) return new Map();
  const cases = await handle
    .collection<{ report?: { reportCode?: string } }>(caseCollectionNames.cases)
    .find({ _id: { $in: caseIds } }, { projection: { 'report.reportCode': 1 } });
  return new Map(cases.map((c) => [c._id, c.report?.reportCode ?? '']));
}

export async function acknowledgement(
  handle: TenantHandle,
  record: StoredDoc<ImportRecord>,
  now: Date,
): Promise<AckFile> {
  if (record.parseStatus !== 'completed' || !record.finished || !record.batches?.length)
    throw errors.badRequest('imports.ack.notFinished', { fileName: record.fileName });
  const reports = await handle
    .collection<ImportReport>(IMPORT_REPORTS)
    .find({ recordId: record._id }, { sort: { index: 1 }, projection: { document: 0 } });
  const codes = await reportCodes(
    handle,
    reports.flatMap((r) => (r.caseId ? [r.caseId] : [])),
  );
  const date = e2bInstant(now);
  const files = record.batches.map((batch, i) => {
    const mine = reports.filter((r) => r.entry === batch.entry);
    const options: AckOptions = {
      ackBatchId: `ACK-${record._id.slice(0, 8)}-${i + 1}`,
      // We answer the batch's sender, as its receiver.
      senderId: batch.header['N.1.4'] ?? '',
      receiverId: batch.header['N.1.3'] ?? '',
      date,
      icsrBatchId: batch.header['N.1.2'] ?? stem(batch.entry),
      ...(batch.header['N.1.5'] ? { icsrBatchDate: batch.header['N.1.5'] } : {}),
      reports: mine.map((r) => ({
        messageId: r.messageId ?? r.senderReportId ?? `${batch.entry}#${r.index + 1}`,
        ...(r.messageDate ? { messageDate: r.messageDate } : {}),
        ...(r.caseId && codes.get(r.caseId) ? { localReportNumber: codes.get(r.caseId)! } : {}),
        code: r.status === 'generated' ? ('CA' as const) : ('CR' as const),
        ...(r.status === 'rejected' && record.rejectReason ? { text: record.rejectReason } : {}),
      })),
    };
    const xml = batch.format === 'r2' ? writeR2Acknowledgement(options) : writeR3Acknowledgement(options);
    return { name: `${stem(batch.entry)}.ack.xml`, bytes: new TextEncoder().encode(xml) };
  });
  if (files.length === 1)
    return {
      fileName: files[0]!.name.split('/').pop()!,
      contentType: 'application/xml',
      bytes: files[0]!.bytes,
    };
  return {
    fileName: `${stem(record.fileName)}.ack.zip`,
    contentType: 'application/zip',
    bytes: zipSync(Object.fromEntries(files.map((f) => [f.name, f.bytes]))),
  };
}
