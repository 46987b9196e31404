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

export const PERMISSIONS = {
  import: 'reportmanagment:importReport:import',
  generate: 'reportmanagment:importReport:generate',
  reject: 'reportmanagment:importReport:reject',
} as const;

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
}

export interface ImportReportView {
  index: number;
  entry: string;
  senderReportId: string | null;
  worldwideId: string | null;
  status: ImportReportStatus;
  caseId: string | null;
  outcome: 'new' | 'followUp' | null;
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
}

/** Sends the file as the body; a refused upload shows the server's message (as every call does). */
export async function uploadImport(file: File, choice: UploadChoice): Promise<ImportRecord> {
  const query = new URLSearchParams({ fileName: file.name });
  for (const [key, value] of Object.entries(choice)) if (value) query.set(key, value);
  return uploadFile<ImportRecord>(`/api/imports?${query}`, file);
}

export const importsApi = {
  options: () => api.request<ImportOptions>('/imports/options'),
  list: (params: Record<string, unknown>) =>
    api.request<{ total: number; items: ImportRecord[] }>('/imports', { params }),
  detail: (id: string) => api.request<ImportRecord & { reports: ImportReportView[] }>(`/imports/${id}`),
  comparison: (id: string, index: number) => api.request<Comparison>(`/imports/${id}/reports/${index}`),
  save: (id: string, index: number, choices: Record<string, FieldChoice>) =>
    api.request<Comparison>(`/imports/${id}/reports/${index}`, { method: 'PUT', body: { choices } }),
  check: (id: string, index: number, choices: Record<string, FieldChoice>) =>
    api.request<DataCheck>(`/imports/${id}/reports/${index}/check`, { body: { choices } }),
  generate: (id: string, index: number, mode: 'new' | 'followUp', reason?: string) =>
    api.request<{ caseId: string; reportCode: string; outcome: string }>(
      `/imports/${id}/reports/${index}/generate`,
      { body: { mode, ...(reason ? { reason } : {}) }, silent: true },
    ),
  reject: (id: string, reason: string) =>
    api.request<ImportRecord>(`/imports/${id}/reject`, { body: { confirm: true, reason } }),
  download: (id: string) => api.download(`/imports/${id}/file`),
  acknowledgement: (id: string) => api.download(`/imports/${id}/ack`),
};
