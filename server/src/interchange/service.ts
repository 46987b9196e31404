/**
 * What the server's import and export (and the CLI) do with E2B files, on top of the pure engine:
 * an upload (XML or zip) is read and checked completely before anything is kept, so a refusal
 * leaves nothing half-imported; an export is validated against the XSD before it is offered.
 */
import {
  caseToRecord,
  detectFormat,
  exportR2,
  exportR3,
  importR2Tree,
  importR3Tree,
  isInterchangeError,
  parseXml,
  recordToCase,
  zipXmlEntries,
} from '@pv/engine';
import type { CaseDocument, E2bBatch, E2bRecord, XmlLimits, ZipLimits } from '@pv/engine';
import { validateR3Xml } from './xsd';
import type { XsdError } from './xsd';

export interface Refusal {
  /** Zip entry (or the file itself) the refusal is about. */
  entry: string;
  /** Message key of the `interchange` namespace, and its parameters. */
  key: string;
  params: Record<string, string | number>;
}

export interface ImportedCase {
  /** C.1.1, or the entry name and position when the report has none. */
  id: string;
  document: CaseDocument;
  /** Elements of the message the case schema has no property for (kept in `e2bCarry`). */
  unbound: string[];
}

export interface ImportedMessage {
  entry: string;
  format: 'r3' | 'r2';
  profile?: string;
  /** N.1 batch header, kept to answer with an acknowledgement and to re-export faithfully. */
  header: E2bRecord;
  cases: ImportedCase[];
  /** Leaves of the message that no mapping entry describes (kept verbatim, not editable). */
  unmapped: string[];
}

export type ImportOutcome = { ok: true; messages: ImportedMessage[] } | { ok: false; refusal: Refusal };

const isZip = (bytes: Uint8Array): boolean =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

function readMessage(entry: string, bytes: Uint8Array, limits?: Partial<XmlLimits>): ImportedMessage {
  const root = parseXml(bytes, limits);
  const format = detectFormat(root);
  if (format === 'ack-r3' || format === 'ack-r2')
    throw Object.assign(new Error('acknowledgement'), { ackRoot: root.name });
  const { batch, unmapped } = format === 'r3' ? importR3Tree(root) : importR2Tree(root);
  const cases = batch.reports.map((report, i): ImportedCase => {
    const { case: document, unbound } = recordToCase(report);
    const id = report.values['C.1.1'];
    return { id: typeof id === 'string' ? id : `${entry}#${i + 1}`, document, unbound };
  });
  const message: ImportedMessage = { entry, format, header: batch.header, cases, unmapped };
  if (batch.profile) message.profile = batch.profile;
  return message;
}

/** The refusal of an uploaded file by `readImportMessages` (the entry it is about, a message key). */
export class ImportRefusedError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.key);
    this.name = 'ImportRefusedError';
  }
}

/**
 * Reads an uploaded E2B file (R3 or R2 XML, or a zip of them) one message at a time, each with the
 * XML it was read from: a zip entry is inflated, parsed and mapped only when asked for, so memory
 * holds one message whatever the number of entries. The first hostile, oversized or unknown entry
 * throws ImportRefusedError.
 */
export function* readImportMessages(
  fileName: string,
  bytes: Uint8Array,
  limits: { xml?: Partial<XmlLimits>; zip?: Partial<ZipLimits> } = {},
): Generator<{ message: ImportedMessage; source: Uint8Array }> {
  let entry = fileName;
  try {
    if (isZip(bytes)) {
      for (const file of zipXmlEntries(bytes, limits.zip)) {
        entry = file.name;
        yield { message: readMessage(file.name, file.bytes, limits.xml), source: file.bytes };
      }
    } else yield { message: readMessage(fileName, bytes, limits.xml), source: bytes };
  } catch (e) {
    if (isInterchangeError(e)) throw new ImportRefusedError({ entry, key: e.key, params: e.params });
    const ackRoot = (e as { ackRoot?: string }).ackRoot;
    if (ackRoot)
      throw new ImportRefusedError({ entry, key: 'interchange.import.isAck', params: { root: ackRoot } });
    throw e;
  }
}

/**
 * Reads an uploaded E2B file (R3 or R2 XML, or a zip of them) into case documents. Every entry is
 * parsed and mapped before the outcome is returned; the first refusal (hostile XML, a zip bomb, an
 * unknown format ...) refuses the whole file.
 */
export function readImportFile(
  fileName: string,
  bytes: Uint8Array,
  limits: { xml?: Partial<XmlLimits>; zip?: Partial<ZipLimits> } = {},
): ImportOutcome {
  try {
    const messages: ImportedMessage[] = [];
    for (const { message } of readImportMessages(fileName, bytes, limits)) messages.push(message);
    return { ok: true, messages };
  } catch (e) {
    if (e instanceof ImportRefusedError) return { ok: false, refusal: e.refusal };
    throw e;
  }
}

export interface ExportOptions {
  format: 'r3' | 'r2';
  profile?: string;
  senderId?: string;
  receiverId?: string;
  messageReceiverId?: string;
  batchId?: string;
  /** Transmission time (N.1.5, N.2.r.4): the caller's clock (the engine reads none). */
  now: Date;
}

export type ExportOutcome =
  { ok: true; xml: string } | { ok: false; refusal?: Refusal; xsdErrors?: XsdError[] };

/**
 * Writes case documents as one E2B batch. R3 is validated against the XSD first: a failure blocks
 * the export and lists the errors.
 */
export async function exportCases(documents: CaseDocument[], options: ExportOptions): Promise<ExportOutcome> {
  if (documents.length === 0)
    return { ok: false, refusal: { entry: '', key: 'interchange.export.noCases', params: {} } };
  const carried = documents[0]?.e2bBatch as { header?: E2bRecord; profile?: string } | undefined;
  const batch: E2bBatch = {
    format: options.format,
    header: carried?.header ?? { values: {}, groups: {} },
    reports: documents.map((d) => caseToRecord(d)),
  };
  const profile = options.profile ?? carried?.profile;
  try {
    if (options.format === 'r2') return { ok: true, xml: exportR2(batch, options) };
    const xml = exportR3(batch, { ...options, ...(profile ? { profile } : {}) });
    const result = await validateR3Xml(xml);
    return result.valid ? { ok: true, xml } : { ok: false, xsdErrors: result.errors };
  } catch (e) {
    if (isInterchangeError(e)) return { ok: false, refusal: { entry: '', key: e.key, params: e.params } };
    throw e;
  }
}
