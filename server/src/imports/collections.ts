/**
 * Collections of the E2B import: one record per uploaded file (its states and the choices the
 * import needs), and one document per report the file held (the imported case document, the
 * user's pre-processing choices and what became of it).
 */
import type { CollectionDefinition } from '../store';

export const IMPORT_RECORDS = 'importRecords';
export const IMPORT_REPORTS = 'importReports';

// SPEC 4's processing and parse states and the report states, declared in the engine (the browser's import list reads them too).
import type { ImportReportStatus, ImportTemplateDefinition, ParseStatus, ProcessingStatus } from '@pv/engine';
export { PARSE_STATUSES, PROCESSING_STATUSES } from '@pv/engine';
export type { ImportReportStatus, ParseStatus, ProcessingStatus };

export interface ImportException {
  /** Zip entry (or the file) the refusal is about. */
  entry: string;
  messageKey: string;
  params: Record<string, string | number>;
  /** The message in both languages, fixed when it happened. */
  message: { zh: string; en: string };
  /** A workbook's wrong cells (the first 200; `params.count` says how many there were). */
  cells?: ImportCellProblem[];
}

/** One wrong cell of a line listing or Excel workbook, as the user finds it in the sheet. */
export interface ImportCellProblem {
  sheet: string;
  /** 1-based row number. */
  row: number;
  /** Column letter (A, B ... AA), '-' for a problem of the whole row or header. */
  column: string;
  /** The column's header text. */
  header: string;
  messageKey: string;
  params: Record<string, string | number>;
  message: { zh: string; en: string };
}

/** What was imported: E2B messages, a line listing or Excel workbook through a template, or CIOMS I PDFs. */
export const IMPORT_KINDS = ['e2b', 'lineListing', 'excel', 'cioms'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export interface ImportRecord {
  fileName: string;
  fileId: string;
  size: number;
  processingStatus: ProcessingStatus;
  parseStatus: ParseStatus;
  /** SPEC 4: finished once every report of the file was generated or rejected. */
  finished: boolean;
  importerId: string;
  importerName: string;
  /** Date the file was received (CCYYMMDD). */
  receiptDate: string;
  /** Date pharmacovigilance was informed (CCYYMMDD), carried to follow-up versions. */
  pvInformedDate: string | null;
  caseProcessorId: string | null;
  caseProcessorName: string | null;
  /** Upload instant (ISO). */
  importedAt: string;
  completedAt: string | null;
  exception: ImportException | null;
  /** SPEC 5: the template (project configuration), MedDRA and WHODrug releases chosen. */
  projectId: string;
  meddraVersionId: string;
  whodrugVersionId: string;
  /** What the parse found. */
  format: 'r3' | 'r2' | null;
  profile: string | null;
  reportCount: number;
  rejected: boolean;
  rejectReason?: string;
  /** The parse job (GET /api/jobs/:jobId). */
  jobId: string | null;
  /** Absent on records written before sheet imports: e2b. */
  kind?: ImportKind;
  /** A sheet import's template, and the copy of it the file was read with (later edits do not change the import). */
  templateId?: string;
  templateName?: string;
  template?: ImportTemplateDefinition;
  /** Each message's batch header (N.1.2 batch number, N.1.3 sender, N.1.4 receiver, N.1.5 date), for the ACK. */
  batches?: { entry: string; format: 'r3' | 'r2'; header: Record<string, string> }[];
}

/** A user's choice for one field of the comparison. */
export interface FieldChoice {
  source: 'imported' | 'existing' | 'edited';
  /** The edited value (source edited); absent means "no value". */
  value?: unknown;
}

export interface ImportReport {
  recordId: string;
  /** Position in the file (0-based, zip entries in order). */
  index: number;
  entry: string;
  /** C.1.1 and C.1.8.1 as received. */
  senderReportId: string | null;
  worldwideId: string | null;
  /** N.2.r.1 message number and N.2.r.4 message date, acknowledged per report (ACK.B.r.1, ACK.B.r.5). */
  messageId: string | null;
  messageDate: string | null;
  document: Record<string, unknown>;
  /** Message elements the case schema has no property for (kept in e2bCarry). */
  unbound: string[];
  choices: Record<string, FieldChoice>;
  savedAt: string | null;
  status: ImportReportStatus;
  caseId: string | null;
  outcome: 'new' | 'followUp' | null;
  /** The duplicate candidate the user chose to compare with (and to make the follow-up of). */
  targetCaseId?: string | null;
  /** Rejected as a duplicate of this case. */
  duplicateOf?: string | null;
  rejectReason?: string;
}

/** A report as read from the file, before anyone has looked at it. */
export const pendingReport = (
  read: Pick<ImportReport, 'recordId' | 'index' | 'entry' | 'senderReportId' | 'worldwideId' | 'document'> &
    Partial<Pick<ImportReport, 'messageId' | 'messageDate' | 'unbound'>>,
): ImportReport => ({
  messageId: null,
  messageDate: null,
  unbound: [],
  ...read,
  choices: {},
  savedAt: null,
  status: 'pending',
  caseId: null,
  outcome: null,
});

export const importCollections: CollectionDefinition[] = [
  {
    name: IMPORT_RECORDS,
    scope: 'tenant',
    audited: true,
    indexes: [{ name: 'imported', fields: { importedAt: -1 } }],
  },
  {
    name: IMPORT_REPORTS,
    scope: 'tenant',
    // Not audited: a 1,000-message zip would write 1,000 audit entries of whole documents; the
    // record (audited) and the generated cases (audited) carry the trail.
    indexes: [{ name: 'record', fields: { recordId: 1, index: 1 }, unique: true }],
  },
];
