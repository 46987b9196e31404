/** The download tasks' calls (server/src/downloads, mounted at /api/downloads). */
import type { DownloadTaskStatus } from '@pv/engine';
import { api } from '../../app/api';

// The server's download task states (declared in the engine).
export type DownloadStatus = DownloadTaskStatus;

export interface DownloadTask {
  taskId: string;
  /** A kind declared by the server module that produces it (caseLineListing, ciomsZip ...). */
  kind: string;
  /** The kind's name in both languages. */
  label: { zh: string; en: string };
  status: DownloadStatus;
  /** 0-100. */
  percent: number;
  fileName: string;
  size: number | null;
  rows: number | null;
  requestedAt: string;
  finishedAt: string | null;
  expiresAt: string;
  error: string | null;
}

/** A line-listing template (server/src/downloads/templates.ts). */
export interface LineListingTemplate {
  id: string;
  projectId: string | null;
  builtIn: boolean;
  type: 'case' | 'dsurSeriousAdr' | 'susar' | 'custom';
  name: string;
  fields: { fieldKey: string; nameCn: string; nameEn: string; ref: string }[];
}

export interface DownloadTaskPage {
  total: number;
  page: number;
  size: number;
  items: DownloadTask[];
}

/** The permissions the routes check (schemas/menus). */
export const DOWNLOAD_PERMISSIONS = {
  list: 'home:downloadstasks',
  download: 'home:downloadstasks:download',
  delete: 'home:downloadstasks:delete',
  start: 'casemanagement:caseview:export',
  templates: 'reportmanagment:lineListing',
} as const;

export const DOWNLOADS_ROUTE = '/home/downloadstasks';

/** A case-list query as the case list holds it (tab, filters, sort). */
export interface CaseListSelection {
  tab?: string;
  filters?: Record<string, unknown>;
  /** Alternatives of filters the server ORs (a pooled-analysis link's). */
  any?: Record<string, unknown>[];
  sort?: { column: string; direction: 'asc' | 'desc' };
}

export const downloadsApi = {
  tasks: (page: number, size: number) =>
    api.request<DownloadTaskPage>('/downloads/tasks', { params: { page, size } }),
  file: (taskId: string) => api.download(`/downloads/tasks/${encodeURIComponent(taskId)}/file`),
  remove: (taskId: string) =>
    api.request<{ deleted: boolean }>(`/downloads/tasks/${encodeURIComponent(taskId)}`, { method: 'DELETE' }),
  /**
   * Starts an XLSX line listing of every case the query selects, with these list columns, or laid
   * out by a line-listing template.
   */
  caseLineListing: (query: CaseListSelection, columns: string[], templateId?: string) =>
    api.request<DownloadTask>('/downloads/case-line-listing', {
      body: templateId ? { query, templateId } : { query, columns },
    }),
  /** Line-listing templates: the built-in ones, then those of the caller's projects. */
  lineListingTemplates: () =>
    api.request<{ items: LineListingTemplate[] }>('/downloads/line-listing-templates'),
};
