/** The queries API as the case page and the workbench use it (server/src/queries). */
import { api } from '../../app/api';

export type QueryAction = 'reply' | 'reraise' | 'close' | 'delete';

export interface QueryRound {
  round: number;
  kind: 'first' | 'again';
  question: string;
  askedByName: string;
  askedAt: string;
  reply: string | null;
  repliedByName: string | null;
  repliedAt: string | null;
  change: { caseRev: number; fields: { pointer: string; e2b: string | null }[] } | null;
  closedAt: string | null;
}

export interface QueryItem {
  id: string;
  rev: number;
  number: string;
  caseId: string;
  state: string;
  kind: 'first' | 'again';
  receiverType: 'internal' | 'external';
  fields: { pointer: string; e2b: string | null; label: { zh: string; en: string } | null; value: unknown }[];
  description: string;
  initiatorName: string;
  handlerName: string;
  timeLimit: string;
  overdue: boolean;
  rounds: QueryRound[];
  deleted: { byName: string; at: string; reason: string } | null;
  actions: QueryAction[];
}

/** What the case page shows on opening: each queried field's marker, open queries per tab and in all. */
export interface CaseMarkers {
  markers: Record<string, { state: string; queryId: string; number: string; open: number }>;
  openByTab: Record<string, number>;
  open: number;
}

/** The case's query history (every query with its rounds and moves) with its markers. */
export interface CaseQueries extends CaseMarkers {
  items: QueryItem[];
}

export interface RaiseBody {
  fields: string[];
  receiverType: 'internal' | 'external';
  handlerId: string;
  timeLimit: string;
  description: string;
}

export interface QcCorrection {
  pointer: string;
  e2b: string | null;
  label: { zh: string; en: string } | null;
  before: unknown;
  after: unknown;
}

const q = (path: string) => `/queries${path}`;

export const queriesApi = {
  markers: (caseId: string) => api.request<CaseMarkers>(q(`/cases/${encodeURIComponent(caseId)}/markers`)),
  ofCase: (caseId: string) => api.request<CaseQueries>(q(`/cases/${encodeURIComponent(caseId)}`)),
  raise: (caseId: string, body: RaiseBody) =>
    api.request<QueryItem>(q(`/cases/${encodeURIComponent(caseId)}`), { method: 'POST', body }),
  move: (id: string, action: QueryAction, body: Record<string, unknown>) =>
    api.request<QueryItem>(q(`/${encodeURIComponent(id)}/${action}`), { method: 'POST', body }),
  counts: () => api.request<{ pending: number; overdue: number }>(q('/counts')),
  letterCounts: () =>
    api.request<{ drafted: number; awaiting: number; overdue: number }>(q('/letters/counts')),
  /** The tenant's enabled users (the server refuses a handler outside the case's project). */
  users: () =>
    api.request<{ items: { userId: string; name: string }[] }>('/users', {
      params: { state: 'enabled', size: 100 },
      silent: true,
    }),
};
