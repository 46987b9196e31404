/**
 * Parsing an uploaded file runs as a job, so a zip of 1,000 messages does not hold the request.
 * The file is read whole and checked (hardened XML and zip limits, R3 entries against the XSD)
 * before anything is kept; the reports and the record's "completed" state are then written in one
 * transaction. A refusal is a translated exception on the record and leaves no report behind.
 */
import type { Readable } from 'node:stream';
import { zipXmlEntries } from '../../../engine/src/interchange/index';
import { readImportFile, validateR3Batches } from '../interchange';
import type { ImportedMessage, Refusal } from '../interchange';
import type { ModuleDeps } from '../http/module';
import { defineJob } from '../jobs/types';
import type { TenantHandle } from '../store/port';
import type { ImportException, ImportRecord, ImportReport } from './collections';
import { IMPORT_RECORDS, IMPORT_REPORTS } from './collections';

export const PARSE_JOB = 'imports.parse';

export interface ParseJobPayload {
  recordId: string;
}

/** XSD errors quoted on the record (the first few; the count says how many there were). */
const XSD_ERRORS_SHOWN = 3;

async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b;

/** The XML of every R3 message of the file (already read safely once by readImportFile). */
function* r3Sources(fileName: string, bytes: Uint8Array, messages: ImportedMessage[]) {
  const r3 = new Set(messages.filter((m) => m.format === 'r3').map((m) => m.entry));
  if (!isZip(bytes)) {
    if (r3.has(fileName)) yield { entry: fileName, bytes };
    return;
  }
  for (const file of zipXmlEntries(bytes))
    if (r3.has(file.name)) yield { entry: file.name, bytes: file.bytes };
}

/** Messages validated per libxml2 run: the schema is compiled once per run, memory stays bounded. */
const XSD_BATCH = 50;

/** Checks each R3 message against the ICH XSD; the first invalid one refuses the file. */
async function xsdRefusal(
  fileName: string,
  bytes: Uint8Array,
  messages: ImportedMessage[],
  progress: (percent: number) => Promise<void>,
): Promise<Refusal | null> {
  const sources = [...r3Sources(fileName, bytes, messages)];
  const decoder = new TextDecoder();
  for (let start = 0; start < sources.length; start += XSD_BATCH) {
    const batch = sources.slice(start, start + XSD_BATCH);
    const results = await validateR3Batches(batch.map((source) => decoder.decode(source.bytes)));
    const failed = results.findIndex((result) => !result.valid);
    if (failed >= 0) {
      const errors = results[failed]!.errors;
      const shown = errors
        .slice(0, XSD_ERRORS_SHOWN)
        .map((e) => (e.line ? `${e.line}: ${e.message}` : e.message))
        .join('; ');
      return {
        entry: batch[failed]!.entry,
        key: 'imports.parse.xsdInvalid',
        params: { count: errors.length, errors: shown },
      };
    }
    await progress(50 + Math.round((30 * (start + batch.length)) / sources.length));
  }
  return null;
}

export function exceptionOf(deps: Pick<ModuleDeps, 'translator'>, refusal: Refusal): ImportException {
  const params = { ...refusal.params, entry: refusal.entry };
  const say = (lang: 'zh' | 'en') => deps.translator.t(lang, refusal.key, params);
  return { entry: refusal.entry, messageKey: refusal.key, params, message: { zh: say('zh'), en: say('en') } };
}

function reportsOf(recordId: string, messages: ImportedMessage[]): ImportReport[] {
  const out: ImportReport[] = [];
  for (const message of messages) {
    for (const imported of message.cases) {
      const report = (imported.document.report ?? {}) as Record<string, unknown>;
      const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
      const carry = ((imported.document.e2bCarry as { values?: Record<string, unknown> } | undefined)
        ?.values ?? {}) as Record<string, unknown>;
      out.push({
        recordId,
        index: out.length,
        entry: message.entry,
        senderReportId: text(report.reportCode),
        worldwideId: text(report.reportAllCode),
        messageId: text(carry['N.2.r.1']),
        messageDate: text(carry['N.2.r.4']),
        document: imported.document,
        unbound: imported.unbound,
        choices: {},
        savedAt: null,
        status: 'pending',
        caseId: null,
        outcome: null,
      });
    }
  }
  return out;
}

/** Parses the record's file; answers what became of it (the job's result). */
export async function parseRecord(
  deps: Pick<ModuleDeps, 'files' | 'translator'>,
  handle: TenantHandle,
  recordId: string,
  progress: (percent: number, message?: string) => Promise<void> = async () => undefined,
): Promise<{ outcome: 'completed' | 'exception' | 'gone'; reports?: number }> {
  const records = handle.collection<ImportRecord>(IMPORT_RECORDS);
  const record = await records.findOne({ _id: recordId });
  if (!record) return { outcome: 'gone' };
  // A retried job finds the work done (the reports and the state were written together).
  if (record.parseStatus === 'completed' || record.parseStatus === 'exception')
    return { outcome: record.parseStatus, reports: record.reportCount };
  await records.updateOne({ _id: recordId }, { $set: { parseStatus: 'parsing' } });

  const refuse = async (refusal: Refusal) => {
    await records.updateOne(
      { _id: recordId },
      {
        $set: {
          parseStatus: 'exception',
          processingStatus: 'exception',
          exception: exceptionOf(deps, refusal),
        },
      },
    );
    return { outcome: 'exception' as const };
  };

  if (!deps.files) throw new Error('the file store is not configured');
  const { stream } = await deps.files.forTenant(handle).getStream(record.fileId);
  const bytes = await readAll(stream);
  await progress(10, 'read');
  let messages: ImportedMessage[];
  try {
    const outcome = readImportFile(record.fileName, bytes);
    if (!outcome.ok) return refuse(outcome.refusal);
    messages = outcome.messages;
    await progress(50, 'parsed');
    const invalid = await xsdRefusal(record.fileName, bytes, messages, (percent) => progress(percent, 'xsd'));
    if (invalid) return refuse(invalid);
  } catch (error) {
    // Whatever the file did to the reader, the record says so rather than retrying forever.
    return refuse({
      entry: record.fileName,
      key: 'imports.parse.failed',
      params: { detail: error instanceof Error ? error.message : String(error) },
    });
  }
  await progress(80, 'checked');
  const reports = reportsOf(recordId, messages);
  if (reports.length === 0)
    return refuse({ entry: record.fileName, key: 'interchange.r3.noReports', params: {} });
  const first = messages[0]!;
  await handle.transaction(async (tx) => {
    await tx.collection<ImportReport>(IMPORT_REPORTS).insertMany(reports);
    await tx.collection<ImportRecord>(IMPORT_RECORDS).updateOne(
      { _id: recordId },
      {
        $set: {
          parseStatus: 'completed',
          format: first.format,
          profile: first.profile ?? null,
          reportCount: reports.length,
          batches: messages.map((message) => ({
            entry: message.entry,
            format: message.format,
            header: Object.fromEntries(
              Object.entries(message.header.values).filter(
                (entry): entry is [string, string] =>
                  /^N\.1\./.test(entry[0]) && typeof entry[1] === 'string',
              ),
            ),
          })),
        },
      },
    );
  });
  return { outcome: 'completed', reports: reports.length };
}

export const parseJob = defineJob<ParseJobPayload, unknown>({
  type: PARSE_JOB,
  maxAttempts: 3,
  leaseMs: 120_000,
  handler: ({ payload, tenant, deps, progress }) => parseRecord(deps, tenant(), payload.recordId, progress),
});
