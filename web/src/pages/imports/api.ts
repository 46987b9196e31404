/**
 * The import API as the screens use it (server/src/imports/README.md). The upload sends the file
 * itself as the body (the request layer sends JSON only), with the session's headers.
 */
import { api } from '../../app/api';
import { uploadFile } from '../../app/upload';

// The server's import states (SPEC 4), declared in the engine.
import type { ImportReportStatus, ParseStatus, ProcessingStatus } from '@pv/engine';
export { PARSE_STATUSES, PROCESSING_STATUSES } from '@pv/engine';
export type { ParseStatus, ProcessingStatus };

/** What is imported: E2B messages, a line listing or Excel workbook through an import template, CIOMS I PDFs. */
export type ImportKind = 'e2b' | 'lineListing' | 'excel' | 'cioms';

interface KindInfo {
  /** Path under /api/imports of the kind's list, upload and records. */
  path: string;
  view: string;
  import: string;
  generate: string;
  reject: string;
  accept: string[];
}

/** The workbook and CIOMS menus declare one button (`:import`), which also generates and rejects. */
const single = (menu: string, accept: string[]): Omit<KindInfo, 'path'> => ({
  view: menu,
  import: `${menu}:import`,
  generate: `${menu}:import`,
  reject: `${menu}:import`,
  accept,
});

/** Each kind's paths and its menu permissions (schemas/menus; server/src/imports/kinds.ts). */
export const KINDS: Record<ImportKind, KindInfo> = {
  e2b: {
    path: '',
    view: 'reportmanagment:importReport',
    import: 'reportmanagment:importReport:import',
    generate: 'reportmanagment:importReport:generate',
    reject: 'reportmanagment:importReport:reject',
    accept: ['xml', 'zip'],
  },
  lineListing: { path: '/line-listings', ...single('reportmanagment:lineListing', ['xlsx']) },
  excel: { path: '/excel', ...single('reportmanagment:excel', ['xlsx']) },
  cioms: { path: '/cioms', ...single('reportmanagment:cimos', ['pdf', 'zip']) },
};

const base = (kind: ImportKind) => `/imports${KINDS[kind].path}`;

export interface ImportTemplateBrief {
  id: string;
  name: string;
  kind: 'lineListing' | 'excel';
  projectId: string;
}

export interface DuplicateCandidate {
  caseId: string;
  reportCode: string | null;
  patientsName: string | null;
  score: number;
  identifierMatch: boolean;
  matched: string[];
  differ: string[];
}

export interface Bilingual {
  zh: string;
  en: string;
}

export interface ImportRecord {
  id: string;
  fileName: string;
  size: number;
  processingStatus: ProcessingStatus;
  parseStatus: ParseStatus;
  finished: boolean;
  importerName: string;
  receiptDate: string;
  pvInformedDate: string | null;
  caseProcessorName: string | null;
  importedAt: string;
  completedAt: string | null;
  exception: { entry: string; message: Bilingual } | null;
  reportCount: number;
  rejected: boolean;
  format: 'r3' | 'r2' | null;
  profile: string | null;
  kind?: ImportKind;
  templateName?: string;
}

export interface ImportReportView {
  index: number;
  entry: string;
  senderReportId: string | null;
  worldwideId: string | null;
  status: ImportReportStatus;
  caseId: string | null;
  outcome: 'new' | 'followUp' | null;
  targetCaseId?: string | null;
  duplicateOf?: string | null;
}

export interface FieldChoice {
  source: 'imported' | 'existing' | 'edited';
  value?: unknown;
}

export interface ComparisonRow {
  path: string;
  e2b?: string;
  label?: Bilingual;
  imported?: unknown;
  existing?: unknown;
  chosen?: unknown;
  source: FieldChoice['source'];
  differs: boolean;
  readOnly: boolean;
}

export interface Comparison {
  record: ImportRecord;
  report: ImportReportView;
  existing: { caseId: string; reportCode: string; matchedBy: string } | null;
  duplicates: DuplicateCandidate[];
  rows: ComparisonRow[];
}

export interface DataProblem {
  kind: 'invalid' | 'missing' | 'dictionary' | 'warning';
  path: string;
  e2b?: string;
  ruleId: string;
  message: Bilingual;
}

export interface DataCheck {
  passed: boolean;
  blockingCount: number;
  profiles: string[];
  meddraVersion: string;
  whodrugVersion: string;
  problems: DataProblem[];
}

export interface ImportOptions {
  projects: { id: string; code: string; name: string; nameEn: string }[];
  meddra: { versionId: string; version: string; language: string }[];
  whodrug: { versionId: string; version: string; language: string }[];
}

export interface UploadChoice {
  projectId: string;
  meddraVersionId: string;
  whodrugVersionId: string;
  receiptDate?: string;
  pvInformedDate?: string;
  /** A workbook's import template. */
  templateId?: string;
}

/** Sends the file as the body; a refused upload shows the server's message (as every call does). */
export async function uploadImport(
  file: File,
  choice: UploadChoice,
  kind: ImportKind = 'e2b',
): Promise<ImportRecord> {
  const query = new URLSearchParams({ fileName: file.name });
  for (const [key, value] of Object.entries(choice)) if (value) query.set(key, value);
  return uploadFile<ImportRecord>(`/api/imports${KINDS[kind].path}?${query}`, file);
}

export const importsApi = {
  options: (kind: ImportKind) => api.request<ImportOptions>(`${base(kind)}/options`),
  list: (params: Record<string, unknown>, kind: ImportKind) =>
    api.request<{ total: number; items: ImportRecord[] }>(base(kind), { params }),
  templates: (projectId: string, kind: 'lineListing' | 'excel') =>
    api.request<{ items: ImportTemplateBrief[] }>('/imports/templates', {
      params: { projectId, kind, page: 1, size: 200 },
    }),
  detail: (kind: ImportKind, id: string) =>
    api.request<ImportRecord & { reports: ImportReportView[] }>(`${base(kind)}/${id}`),
  comparison: (kind: ImportKind, id: string, index: number, caseId?: string | null) =>
    api.request<Comparison>(`${base(kind)}/${id}/reports/${index}`, { params: caseId ? { caseId } : {} }),
  save: (
    kind: ImportKind,
    id: string,
    index: number,
    choices: Record<string, FieldChoice>,
    caseId?: string | null,
  ) =>
    api.request<Comparison>(`${base(kind)}/${id}/reports/${index}`, {
      method: 'PUT',
      body: { choices, ...(caseId !== undefined ? { caseId } : {}) },
    }),
  rejectReport: (kind: ImportKind, id: string, index: number, duplicateOf: string) =>
    api.request<ImportReportView>(`${base(kind)}/${id}/reports/${index}/reject`, {
      body: { confirm: true, duplicateOf },
    }),
  check: (kind: ImportKind, id: string, index: number, choices: Record<string, FieldChoice>) =>
    api.request<DataCheck>(`${base(kind)}/${id}/reports/${index}/check`, { body: { choices } }),
  generate: (kind: ImportKind, id: string, index: number, mode: 'new' | 'followUp', reason?: string) =>
    api.request<{ caseId: string; reportCode: string; outcome: string }>(
      `${base(kind)}/${id}/reports/${index}/generate`,
      { body: { mode, ...(reason ? { reason } : {}) }, silent: true },
    ),
  reject: (kind: ImportKind, id: string, reason: string) =>
    api.request<ImportRecord>(`${base(kind)}/${id}/reject`, { body: { confirm: true, reason } }),
  download: (kind: ImportKind, id: string) => api.download(`${base(kind)}/${id}/file`),
  acknowledgement: (id: string) => api.download(`/imports/${id}/ack`),
};
