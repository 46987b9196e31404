/** Calls of the bulk-reporting page (server/src/submissions/bulk-routes.ts, /api/submissions/bulk). */
import { api } from '../../app/api';

export const BULK_EXPORT = 'submittransfer:bulkReporting:export';

export interface Candidate {
  planId: string;
  caseId: string;
  reportCode: string;
  caseVersion: number;
  receiverName: string;
  /** C.1.11.1: 1 nullification, 2 amendment. */
  correction: '1' | '2' | null;
  dueDate: string | null;
  late: boolean;
}

export interface BulkRun {
  runId: string;
  receiverId: string;
  receiverName: string;
  send: boolean;
  lateReason: string | null;
  state: 'queued' | 'running' | 'done' | 'failed';
  done: number;
  total: number;
  exports: {
    exportId: string;
    batchId: string;
    fileName: string;
    size: number;
    reports: number;
    status: string;
  }[];
  error: string | null;
  createdAt: string;
}

export interface BulkPage {
  receivers: { receiverId: string; name: string; format: string }[];
  candidates: Candidate[];
  runs: BulkRun[];
}

const base = (projectId: string) => `/submissions/bulk/projects/${encodeURIComponent(projectId)}`;

export const bulkApi = {
  page: (projectId: string, receiverId: string) =>
    api.request<BulkPage>(
      `${base(projectId)}${receiverId ? `?receiverId=${encodeURIComponent(receiverId)}` : ''}`,
    ),
  start: (
    projectId: string,
    body: { receiverId: string; planIds: string[]; send: boolean; lateReason?: string },
  ) => api.request<BulkRun>(`${base(projectId)}/runs`, { method: 'POST', body }),
};
