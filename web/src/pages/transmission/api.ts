/** Calls of the E2B transmission page (server/src/exports/README.md, "Transmission"). */
import { api } from '../../app/api';
import type { ExportFormat, ExportRecordView, ExportStatus } from '../exports/api';

export type TransmissionAction = 'send' | 'ack' | 'handleFailure' | 'resubmit';

export interface TransmissionEvent {
  at: string;
  by: string;
  byName: string | null;
  action: 'export' | 'send' | 'ack' | 'handleFailure' | 'resubmit';
  status: ExportStatus;
  note: string | null;
}

export interface Transmission extends ExportRecordView {
  receiverId: string;
  sentAt?: string | null;
  sentBy?: string | null;
  sentByName?: string | null;
  handling?: { opinion: string; at: string; by: string; byName: string | null } | null;
  resubmitOf?: string | null;
  resubmittedAs?: string | null;
  events?: TransmissionEvent[];
  /** What the state allows (the buttons also need the caller's permissions). */
  actions: TransmissionAction[];
}

export interface TransmissionFilters {
  reportCode?: string;
  batchId?: string;
  status?: ExportStatus | '';
  format?: ExportFormat | '';
}

export const PERMISSIONS = {
  view: 'submittransfer:E2Btransmission',
  send: 'submittransfer:E2Btransmission:send',
  downloadAck: 'submittransfer:E2Btransmission:downloadAck',
  resubmit: 'submittransfer:E2Btransmission:resubmit',
  handleFailure: 'submittransfer:E2Btransmission:handleFailure',
} as const;

const base = (exportId: string) => `/exports/transmissions/${encodeURIComponent(exportId)}`;

export const transmissionApi = {
  list(filters: TransmissionFilters, page: number, size: number) {
    const params: Record<string, unknown> = { page, size };
    for (const [key, value] of Object.entries(filters))
      if (typeof value === 'string' && value.trim()) params[key] = value.trim();
    return api.request<{ total: number; items: Transmission[] }>('/exports/transmissions', { params });
  },
  get: (exportId: string) => api.request<Transmission>(base(exportId)),
  send: (t: Transmission, lateReason?: string) =>
    api.request<Transmission>(`${base(t.exportId)}/send`, {
      body: { rev: t.rev, ...(lateReason === undefined ? {} : { lateReason }) },
    }),
  handleFailure: (t: Transmission, opinion: string) =>
    api.request<Transmission>(`${base(t.exportId)}/handle-failure`, { body: { opinion, rev: t.rev } }),
  resubmit: (t: Transmission) =>
    api.request<{ failed: Transmission; resubmitted: Transmission }>(`${base(t.exportId)}/resubmit`, {
      body: { rev: t.rev },
    }),
  ack: (t: Transmission, body: { fileName: string; content: string }) =>
    api.request<Transmission>(`${base(t.exportId)}/ack`, { body: { ...body, rev: t.rev } }),
  file: (exportId: string, which: 'file' | 'ack-file') => api.download(`${base(exportId)}/${which}`),
};
