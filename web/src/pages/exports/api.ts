/** Calls of the export screens (server/src/exports/README.md). */
import { codelists } from '@pv/engine';
import type { ExportFormat, ReceiverProfile } from '@pv/engine';
import { api } from '../../app/api';
import type { DownloadedFile } from '../../api/request';

export type { ExportFormat };
/**
 * SPEC 4 transmission states, in order: the code list transmissionState, whose codes and labels are
 * the states of schemas/workflows/transmission.json that the server runs.
 */
export const EXPORT_STATUSES: readonly string[] = (codelists.transmissionState?.values ?? []).map(
  (value) => value.code,
);
export type ExportStatus = string;

export interface ReceiverOption {
  receiverId: string;
  name: string;
  receiverIdentifier: string;
  profile: ReceiverProfile;
  format: ExportFormat;
}

/** One case (the detail header), explicit ids, or the case list's current query (nothing ticked). */
export type ExportSelection =
  | { caseId: string; reportCode?: string }
  | { caseIds: string[] }
  | {
      query: {
        tab?: string;
        filters?: Record<string, unknown>;
        /** Alternatives of filters the server ORs (a pooled-analysis link's). */
        any?: Record<string, unknown>[];
        sort?: { column: string; direction: string };
      };
    };

export interface ExportRecordView {
  exportId: string;
  format: ExportFormat;
  profile: string;
  receiverName: string;
  receiverIdentifier: string;
  batchId: string;
  cases: {
    caseId: string;
    reportCode: string | null;
    version: number | null;
    ackCode?: 'CA' | 'CR' | null;
    ackText?: string | null;
  }[];
  fileName: string;
  exportedAt: string;
  exportedByName: string | null;
  exportedBy: string;
  status: ExportStatus;
  failureText: string | null;
  ack: { code: string; text: string | null; fileName: string; receivedAt: string } | null;
  rev: number;
}

/** Drops the list's empty filters (a blank input is no filter). */
function cleanFilters(filters: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filters).filter(([, v]) => {
      if (typeof v === 'string') return v.trim() !== '';
      if (v && typeof v === 'object') return Object.values(v).some((x) => typeof x === 'string' && x !== '');
      return v !== undefined && v !== null;
    }),
  );
}

export const exportApi = {
  receivers: () => api.request<ReceiverOption[]>('/exports/receivers/active'),
  /**
   * The file when the export is valid; a RequestError with `data.xsdErrors`, or the receiver's
   * business-rule `data.findings` (with `confirmRequired` when they are warnings only), when refused.
   */
  run(
    selection: ExportSelection,
    receiverId: string,
    format: ExportFormat,
    /** The user saw the receiver's business-rule warnings and exports anyway. */
    confirmWarnings = false,
  ): Promise<DownloadedFile> {
    const confirm = confirmWarnings ? { confirmWarnings: true } : {};
    if ('caseId' in selection)
      return api.download(`/exports/cases/${encodeURIComponent(selection.caseId)}`, {
        method: 'POST',
        body: { receiverId, format, ...confirm },
        silent: true,
      });
    const body =
      'caseIds' in selection
        ? { caseIds: selection.caseIds }
        : { query: { ...selection.query, filters: cleanFilters(selection.query.filters) } };
    return api.download('/exports/selection', {
      method: 'POST',
      body: { ...body, receiverId, format, ...confirm },
      silent: true,
    });
  },
  history: (params: { caseId?: string; page: number; size: number }) =>
    api.request<{ total: number; items: ExportRecordView[] }>('/exports/records', { params }),
  file: (exportId: string, which: 'file' | 'ack-file') =>
    api.download(`/exports/records/${encodeURIComponent(exportId)}/${which}`),
  ack: (exportId: string, body: { fileName: string; content: string; rev: number }) =>
    api.request<ExportRecordView>(`/exports/records/${encodeURIComponent(exportId)}/ack`, { body }),
};

/** Base64 of a file's bytes (the ACK travels in JSON whatever its XML encoding). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
