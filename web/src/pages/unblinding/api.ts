/**
 * The unblinding API as the screens use it (server/src/unblinding). The blinding-list upload sends
 * the workbook itself as the body (the request layer sends JSON only), with the session's headers.
 */
import { api } from '../../app/api';
import { uploadFile } from '../../app/upload';

export interface Assignment {
  listVersion: number;
  randomisationNumber: string;
  subjectNumber: string | null;
  treatmentGroup: string;
  groupKind: string | null;
  productName: string | null;
  productNumber: string;
  kitBatch: string | null;
  route: string | null;
}

/** The case re-assessed with the assignment (server/src/unblinding/outcome.ts), to those it is revealed to. */
export interface Outcome {
  reason: { zh: string; en: string } | null;
  changes: { drug: number; field: string; before: unknown; after: unknown }[];
  isSusarBefore: boolean;
  isSusarAfter: boolean;
  clocks: { authority: string; isSubmit: boolean; days: number | null; dueDate: string | null }[];
}

export interface Application {
  id: string;
  caseId: string;
  reportCode: string;
  status: string;
  reason: string;
  description: string;
  applicantName: string;
  appliedAt: string;
  review: { result: string; opinion: string | null; byName: string; at: string } | null;
  unblindingPersonName: string | null;
  handling: { byName: string; at: string } | null;
  snapshot: { at: string; description: string; caseVersion: number } | null;
  revealed: boolean;
  assignment: Assignment | null;
  outcome: Outcome | null;
  actions: string[];
}

export interface CaseBlinding {
  caseId: string;
  status: string;
  canApply: boolean;
  applySignature: boolean;
  applications: Application[];
}

export interface ListVersion {
  id: string;
  version: number;
  current: boolean;
  fileName: string;
  rowCount: number;
  uploadedByName: string;
  uploadedAt: string;
}

export interface ListRead {
  id: string;
  version: number;
  readerName: string;
  at: string;
  purpose: 'view' | 'handle' | 'batch';
  caseId: string | null;
  reportCode: string | null;
  randomisationNumber: string | null;
}

export interface Counts {
  byState: Record<string, number>;
  toApprove: number;
  toHandle: number;
}

export interface Batch {
  id: string;
  projectId: string;
  caseCount: number;
  status: string;
  reason: string;
  description: string;
  applicantName: string;
  appliedAt: string;
  review: { result: string; opinion: string | null; byName: string; at: string } | null;
  unblindingPersonName: string | null;
  job: {
    state: 'queued' | 'running' | 'done';
    done: number;
    total: number;
    unblinded: number;
    skipped: { caseId: string; reason: string }[];
  } | null;
  can: { approve: boolean; handle: boolean };
}

const base = '/unblinding';
const batches = (projectId: string) => `${base}/projects/${encodeURIComponent(projectId)}/batches`;

export const unblindingApi = {
  caseBlinding: (caseId: string) => api.request<CaseBlinding>(`${base}/cases/${encodeURIComponent(caseId)}`),
  apply: (caseId: string, body: { reason: string; description: string; password?: string }) =>
    api.request<Application>(`${base}/cases/${encodeURIComponent(caseId)}/apply`, { method: 'POST', body }),
  counts: () => api.request<Counts>(`${base}/applications/counts`),
  projects: () =>
    api.request<{ items: { id: string; code: string; name: string; nameEn: string }[] }>(`${base}/projects`),
  versions: (projectId: string) =>
    api.request<{ versions: ListVersion[] }>(
      `${base}/projects/${encodeURIComponent(projectId)}/blinding-list`,
    ),
  reads: (projectId: string) =>
    api.request<{ items: ListRead[] }>(
      `${base}/projects/${encodeURIComponent(projectId)}/blinding-list/reads`,
    ),
  rows: (projectId: string) =>
    api.request<{ rows: Record<string, string | null>[] }>(
      `${base}/projects/${encodeURIComponent(projectId)}/blinding-list/rows`,
    ),
  batchProjects: () =>
    api.request<{ items: { id: string; code: string; name: string; nameEn: string }[] }>(
      `${base}/batch-projects`,
    ),
  batches: (projectId: string) => api.request<{ items: Batch[] }>(batches(projectId)),
  applyBatch: (projectId: string, body: { reason: string; description: string; query?: { tab: string } }) =>
    api.request<Batch>(batches(projectId), { method: 'POST', body }),
  approveBatch: (
    projectId: string,
    body: { batchId: string; result: string; opinion?: string; unblindingPersonId?: string },
  ) => api.request<Batch>(`${batches(projectId)}/approve`, { method: 'POST', body }),
  handleBatch: (projectId: string, batchId: string) =>
    api.request<Batch>(`${batches(projectId)}/handle`, { method: 'POST', body: { batchId } }),
  persons: () => api.request<{ items: { id: string; name: string }[] }>(`${base}/persons`),
  template: (projectId: string) =>
    api.download(`${base}/projects/${encodeURIComponent(projectId)}/blinding-list/template`),
};

/** Uploads the workbook; a refused one shows the server's message (sheet, row, column) and throws. */
export const uploadBlindingList = (projectId: string, file: File) =>
  uploadFile<{ version: number; rowCount: number }>(
    `/api${base}/projects/${encodeURIComponent(projectId)}/blinding-list`,
    file,
  );
