/**
 * Parsing an uploaded file runs as a job, so a zip of 1,000 messages does not hold the request.
 * The file is read one message at a time (hardened XML and zip limits, R3 messages checked against
 * the XSD in runs of 50): each message's reports are written as soon as it is read, so memory holds
 * one message (and one run of XSD sources) whatever the size of the zip, and no long transaction
 * blocks other writers. The reports stay invisible until the record says "completed" (written
 * last); a refusal removes the ones written and leaves a translated exception on the record, so
 * nothing is half-imported. A retried job first removes what an interrupted attempt wrote.
 */
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { isInterchangeError, listZipEntries, readZipEntry } from '@pv/engine';
import { ImportRefusedError, readImportMessages, validateR3Batches } from '../interchange';
import type { ImportedMessage, Refusal } from '../interchange';
import type { ModuleDeps } from '../http';
import { defineJob } from '../jobs';
import type { TenantHandle } from '../store';
import type { ImportException, ImportRecord, ImportReport } from './collections';
import { IMPORT_RECORDS, IMPORT_REPORTS, pendingReport } from './collections';
import { SheetRefusedError, parseSheet } from './sheet-parse';
import { CiomsRefusedError, readCiomsPdf } from './cioms-parse';

export const PARSE_JOB = 'imports.parse';

export interface ParseJobPayload {
  recordId: string;
}

/** XSD errors quoted on the record (the first few; the count says how many there were). */
const XSD_ERRORS_SHOWN = 3;
/** Messages validated per libxml2 run: the schema is compiled once per run, memory stays bounded. */
const XSD_BATCH = 50;

async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Checks a run of R3 messages against the ICH XSD; the first invalid one refuses the file. */
async function xsdRefusal(run: { entry: string; xml: string }[]): Promise<Refusal | null> {
  if (run.length === 0) return null;
  const results = await validateR3Batches(run.map((source) => source.xml));
  const failed = results.findIndex((result) => !result.valid);
  if (failed < 0) return null;
  const errors = results[failed]!.errors;
  const shown = errors
    .slice(0, XSD_ERRORS_SHOWN)
    .map((e) => (e.line ? `${e.line}: ${e.message}` : e.message))
    .join('; ');
  return {
    entry: run[failed]!.entry,
    key: 'imports.parse.xsdInvalid',
    params: { count: errors.length, errors: shown },
  };
}

/** How many messages the file holds (a zip's entries, from its directory): for the progress. */
function messageCount(bytes: Uint8Array): number {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) return 1;
  try {
    return Math.max(1, listZipEntries(bytes).length);
  } catch {
    // A zip the reader refuses: readImportMessages says why, with the entry.
    return 1;
  }
}

/** Removes the reports of a record (a refused file's, or an interrupted attempt's). */
async function discardReports(handle: TenantHandle, recordId: string): Promise<void> {
  const reports = handle.collection<ImportReport>(IMPORT_REPORTS);
  for (;;) {
    const batch = await reports.find({ recordId }, { projection: { _id: 1 }, limit: 500 });
    if (batch.length === 0) return;
    for (const report of batch) await reports.deleteOne({ _id: report._id });
  }
}

export function exceptionOf(deps: Pick<ModuleDeps, 'translator'>, refusal: Refusal): ImportException {
  const params = { ...refusal.params, entry: refusal.entry };
  const say = (lang: 'zh' | 'en') => deps.translator.t(lang, refusal.key, params);
  return { entry: refusal.entry, messageKey: refusal.key, params, message: { zh: say('zh'), en: say('en') } };
}

/** The record is refused: its states say exception and it keeps why (zh and en). */
async function markRefused(
  deps: Pick<ModuleDeps, 'translator'>,
  handle: TenantHandle,
  recordId: string,
  refusal: Refusal,
): Promise<{ outcome: 'exception' }> {
  await handle.collection<ImportRecord>(IMPORT_RECORDS).updateOne(
    { _id: recordId },
    {
      $set: {
        parseStatus: 'exception',
        processingStatus: 'exception',
        exception: exceptionOf(deps, refusal),
      },
    },
  );
  return { outcome: 'exception' };
}

/** The reports of one message, numbered on from `first` (their position in the file). */
function reportsOf(recordId: string, message: ImportedMessage, first: number): ImportReport[] {
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  return message.cases.map((imported, i): ImportReport => {
    const report = (imported.document.report ?? {}) as Record<string, unknown>;
    const carry = ((imported.document.e2bCarry as { values?: Record<string, unknown> } | undefined)?.values ??
      {}) as Record<string, unknown>;
    return pendingReport({
      recordId,
      index: first + i,
      entry: message.entry,
      senderReportId: text(report.reportCode),
      worldwideId: text(report.reportAllCode),
      messageId: text(carry['N.2.r.1']),
      messageDate: text(carry['N.2.r.4']),
      document: imported.document,
      unbound: imported.unbound,
    });
  });
}

/** Parses the record's file; answers what became of it (the job's result). */
export async function parseRecord(
  deps: Pick<ModuleDeps, 'files' | 'translator' | 'store'>,
  handle: TenantHandle,
  recordId: string,
  progress: (percent: number, message?: string) => Promise<void> = async () => undefined,
): Promise<{ outcome: 'completed' | 'exception' | 'gone'; reports?: number }> {
  const records = handle.collection<ImportRecord>(IMPORT_RECORDS);
  const record = await records.findOne({ _id: recordId });
  if (!record) return { outcome: 'gone' };
  // A retried job finds the work done (the state is written once every report is).
  if (record.parseStatus === 'completed' || record.parseStatus === 'exception')
    return { outcome: record.parseStatus, reports: record.reportCount };
  await records.updateOne({ _id: recordId }, { $set: { parseStatus: 'parsing' } });

  const refuse = (refusal: Refusal) => markRefused(deps, handle, recordId, refusal);

  if (!deps.files) throw new Error('the file store is not configured');
  await discardReports(handle, recordId);
  const { stream } = await deps.files.forTenant(handle).getStream(record.fileId);
  const bytes = await readAll(stream);
  await progress(5, 'read');

  if (record.kind === 'lineListing' || record.kind === 'excel') {
    try {
      const count = await parseSheet(deps, handle, recordId, record, bytes, progress);
      await records.updateOne({ _id: recordId }, { $set: { parseStatus: 'completed', reportCount: count } });
      return { outcome: 'completed', reports: count };
    } catch (error) {
      if (!(error instanceof SheetRefusedError)) throw error;
      await discardReports(handle, recordId);
      const { key, params, cells } = error.refusal;
      // The first wrong cell is quoted in each language's own words.
      const say = (lang: 'zh' | 'en') =>
        deps.translator.t(lang, key, {
          ...params,
          entry: record.fileName,
          first: cells?.[0]?.message[lang] ?? '',
        });
      await records.updateOne(
        { _id: recordId },
        {
          $set: {
            parseStatus: 'exception',
            processingStatus: 'exception',
            exception: {
              entry: record.fileName,
              messageKey: key,
              params: { ...params, entry: record.fileName },
              message: { zh: say('zh'), en: say('en') },
              ...(cells ? { cells } : {}),
            },
          },
        },
      );
      return { outcome: 'exception' };
    }
  }

  if (record.kind === 'cioms') return parseCioms(deps, handle, recordId, record, bytes, progress);

  const reports = handle.collection<ImportReport>(IMPORT_REPORTS);
  const batches: NonNullable<ImportRecord['batches']> = [];
  let first: ImportedMessage | null = null;
  let count = 0;
  let run: { entry: string; xml: string }[] = [];
  const decoder = new TextDecoder();
  const fail = async (refusal: Refusal) => {
    await discardReports(handle, recordId);
    return refuse(refusal);
  };
  try {
    const total = messageCount(bytes);
    for (const { message, source } of readImportMessages(record.fileName, bytes)) {
      first ??= message;
      const written = reportsOf(recordId, message, count);
      if (written.length) await reports.insertMany(written);
      count += written.length;
      // Copied through JSON: the parser's strings are slices of the message's text, and a header
      // kept for the whole file would otherwise keep every message's text alive with it.
      const header = Object.fromEntries(
        Object.entries(message.header.values).filter(
          (entry): entry is [string, string] => /^N\.1\./.test(entry[0]) && typeof entry[1] === 'string',
        ),
      );
      batches.push({
        entry: message.entry,
        format: message.format,
        header: JSON.parse(JSON.stringify(header)) as Record<string, string>,
      });
      if (message.format === 'r3') run.push({ entry: message.entry, xml: decoder.decode(source) });
      if (run.length >= XSD_BATCH) {
        const invalid = await xsdRefusal(run);
        if (invalid) return fail(invalid);
        run = [];
      }
      if (batches.length % XSD_BATCH === 0)
        await progress(5 + Math.round((90 * batches.length) / total), `${batches.length}/${total}`);
    }
    const invalid = await xsdRefusal(run);
    if (invalid) return fail(invalid);
  } catch (error) {
    if (error instanceof ImportRefusedError) return fail(error.refusal);
    // Whatever the file did to the reader, the record says so rather than retrying forever.
    return fail({
      entry: record.fileName,
      key: 'imports.parse.failed',
      params: { detail: error instanceof Error ? error.message : String(error) },
    });
  }
  if (count === 0 || !first)
    return fail({ entry: record.fileName, key: 'interchange.r3.noReports', params: {} });
  // The reports become visible with this write.
  await records.updateOne(
    { _id: recordId },
    {
      $set: {
        parseStatus: 'completed',
        format: first.format,
        profile: first.profile ?? null,
        reportCount: count,
        batches,
      },
    },
  );
  return { outcome: 'completed', reports: count };
}

/** A zip's PDFs: checked (sizes, ratio, paths, encryption) by the interchange zip reader before one is inflated. */
function* ciomsFiles(fileName: string, bytes: Uint8Array): Generator<{ entry: string; bytes: Uint8Array }> {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    yield { entry: fileName, bytes };
    return;
  }
  for (const entry of listZipEntries(bytes, CIOMS_ZIP_LIMITS, { extension: /\.pdf$/i, noneKey: 'zip.noPdf' }))
    yield { entry: entry.name, bytes: readZipEntry(bytes, entry) };
}

/** PDFs compress little: an entry inflating more than this is no PDF the product printed. */
const CIOMS_ZIP_LIMITS = { maxEntries: 1000, maxEntryBytes: 32 * 1024 * 1024, maxRatio: 100 };

/**
 * A CIOMS I PDF (or zip of them): one report per form (cioms-parse.ts), written as each file is
 * read; a refused file removes what was written and says why on the record.
 */
async function parseCioms(
  deps: Pick<ModuleDeps, 'translator'>,
  handle: TenantHandle,
  recordId: string,
  record: ImportRecord,
  bytes: Uint8Array,
  progress: (percent: number, message?: string) => Promise<void>,
): Promise<{ outcome: 'completed' | 'exception'; reports?: number }> {
  const records = handle.collection<ImportRecord>(IMPORT_RECORDS);
  const reports = handle.collection<ImportReport>(IMPORT_REPORTS);
  let count = 0;
  let entry = record.fileName;
  const fail = async (refusal: Refusal) => {
    await discardReports(handle, recordId);
    return markRefused(deps, handle, recordId, refusal);
  };
  try {
    for (const file of ciomsFiles(record.fileName, bytes)) {
      entry = file.entry;
      const cases = await readCiomsPdf(file.bytes, randomUUID);
      const written = cases.map((found, i) =>
        pendingReport({
          recordId,
          index: count + i,
          entry: cases.length > 1 ? `${file.entry} #${i + 1}` : file.entry,
          senderReportId: found.senderReportId,
          worldwideId: found.worldwideId,
          document: found.document,
        }),
      );
      if (written.length) await reports.insertMany(written);
      count += written.length;
      await progress(50, `${count}`);
    }
  } catch (error) {
    if (error instanceof CiomsRefusedError) return fail({ entry, ...error.refusal });
    if (isInterchangeError(error)) return fail({ entry, key: error.key, params: error.params });
    throw error;
  }
  await records.updateOne({ _id: recordId }, { $set: { parseStatus: 'completed', reportCount: count } });
  return { outcome: 'completed', reports: count };
}

export const parseJob = defineJob<ParseJobPayload, unknown>({
  type: PARSE_JOB,
  maxAttempts: 3,
  leaseMs: 120_000,
  handler: ({ payload, tenant, deps, progress }) => parseRecord(deps, tenant(), payload.recordId, progress),
});
