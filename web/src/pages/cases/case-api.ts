/** The case-management calls the case pages make (server/src/cases/routes.ts), with their answer shapes. */
import type { CheckSource } from '../../case-form/case-check';
import { api } from '../../app/api';
import type { LocalisedText } from '../../i18n';

export interface AvailableAction {
  action: string;
  allowed: boolean;
  messageKey?: string;
  targets: string[];
  needsUser: boolean;
  needsOpinion: boolean;
  signature: boolean;
  option: { name: string; values: string[] } | null;
}

export interface CaseAnswer {
  id: string;
  rev: number;
  updatedAt: string;
  updatedBy: string;
  document: Record<string, unknown>;
  actions: AvailableAction[];
  node: { id: string; label: LocalisedText | null };
  /** Labels of the project's workflow nodes by id (a project may add nodes). */
  nodeLabels?: Record<string, LocalisedText | null>;
  /** Why the case is read-only for this user (frozen, or the project's switches), translated. */
  editRefusal?: string | null;
  /** The case is frozen (SPEC 6 switch "freeze"): nobody changes it until it is unfrozen. */
  frozen?: boolean;
  /** Its E2B transmissions per receiver (server/src/cases/transmission.ts); null before any was sent. */
  transmission?: CaseTransmission | null;
}

/**
 * A code of the code list transmissionStatus (its values worst first): the status of the case is the
 * worst of its receivers'. The list, not a copy here, says which codes exist.
 */
export type TransmissionStatus = string;

export interface CaseTransmission {
  /** The current version's status; null when only an earlier version was transmitted. */
  status: TransmissionStatus | null;
  receivers: {
    receiverId: string;
    receiverName: string;
    receiverIdentifier: string;
    status: TransmissionStatus;
    batchId: string;
    exportId: string;
    version: number | null;
    /** The ACK's error text of a rejection, or the failure-handling opinion. */
    text: string | null;
    at: string;
  }[];
  /** Receivers of the submission plans marked "submit". */
  planned: string[];
  /** Every planned receiver acknowledged the current version: the evidence the case was submitted. */
  plannedAcknowledged: boolean;
}

export interface CheckFinding {
  path: string;
  e2b?: string;
  ruleId: string;
  severity: 'error' | 'warning';
  messageKey: string;
  message: LocalisedText;
}

export interface CheckReport {
  /** The configuration the check used: PRO, or the UAT drafts a configurator tries (nothing stored). */
  environment?: 'UAT' | 'PRO';
  errorCount: number;
  warningCount: number;
  missingCount: number;
  groups: { tab: string; findings: CheckFinding[] }[];
}

export interface FieldChange {
  path: string;
  e2b?: string;
  label?: LocalisedText;
  before?: unknown;
  after?: unknown;
  by: string;
  at: string;
}

export interface ConflictAnswer {
  caseId: string;
  baseRev: number;
  currentRev: number;
  changes: FieldChange[];
  current: Record<string, unknown>;
  complete: boolean;
}

export interface HistoryEntry {
  action: string;
  result: string;
  option: string | null;
  node: string;
  opinion: string | null;
  processerName: string;
  nextNode: string;
  nextProcesserName: string | null;
  at: string;
  dataVersion: { version: number; rev: number };
  /** Action-specific facts: a transmission line's receiver, batch, file, ACK codes ... */
  details?: Record<string, unknown>;
}

/** A history version (immutable snapshot taken on submit or completion), without its document. */
export interface VersionSummary {
  id: string;
  version: number;
  versionType: string;
  kind: 'submitted' | 'completed';
  node: string;
  caseRev: number;
  at: string;
  by: string;
  byName: string;
  reportCode: string;
}

export interface VersionComparison {
  from: { ref: string; version: number; rev: number; at: string; kind: string };
  to: { ref: string; version: number; rev: number; at: string; kind: string };
  changes: { path: string; e2b?: string; label?: LocalisedText; before?: unknown; after?: unknown }[];
}

export const CODE_CONFLICT = 409;
export const CODE_CONFIRM = 500010;

/** A possible duplicate of a case being registered (server cases/duplicates.ts). */
export interface DuplicateCandidate {
  caseId: string;
  reportCode?: string | null;
  score: number;
  /** A sender identifier (C.1.1, C.1.8.1, C.1.9.1.r) is shared. */
  identifierMatch: boolean;
  /** Fields that agree or partly agree, and fields that differ (senderIds, initials, sex, age, ...). */
  matched: DuplicateField[];
  differ: DuplicateField[];
}

export type DuplicateField =
  'senderIds' | 'initials' | 'sex' | 'age' | 'reactions' | 'suspectDrugs' | 'onsets' | 'country' | 'reporter';

export const caseApi = {
  get: (caseId: string) => api.request<CaseAnswer>(`/cases/${encodeURIComponent(caseId)}`),
  save: (
    caseId: string,
    body: {
      rev: number;
      document: unknown;
      confirmMissing?: boolean;
      /** Data QC: the reason of each changed field (SPEC 5). */
      corrections?: { pointer: string; reason: string }[];
    },
  ) =>
    api.request<{ case: Omit<CaseAnswer, 'actions' | 'node'>; check: CheckReport }>(
      `/cases/${encodeURIComponent(caseId)}`,
      {
        method: 'PUT',
        body,
        silent: true,
      },
    ),
  check: (caseId: string, document: unknown, environment: 'UAT' | 'PRO' = 'PRO') =>
    api.request<CheckReport>(`/cases/${encodeURIComponent(caseId)}/check`, {
      body: { document },
      ...(environment === 'UAT' ? { params: { environment } } : {}),
    }),
  /** Where the browser loads the case's check (the configuration's compiled validators and rules). */
  validators: (caseId: string, environment: 'UAT' | 'PRO' = 'PRO') =>
    api.request<CheckSource & { environment: 'UAT' | 'PRO'; configurationVersion: number }>(
      `/cases/${encodeURIComponent(caseId)}/validators`,
      { silent: true, ...(environment === 'UAT' ? { params: { environment } } : {}) },
    ),
  history: (caseId: string) =>
    api.request<{ items: HistoryEntry[] }>(`/cases/${encodeURIComponent(caseId)}/workflow-history`),
  versions: (caseId: string) =>
    api.request<{ items: VersionSummary[] }>(`/cases/${encodeURIComponent(caseId)}/versions`),
  version: (caseId: string, versionId: string) =>
    api.request<VersionSummary & { document: Record<string, unknown> }>(
      `/cases/${encodeURIComponent(caseId)}/versions/${encodeURIComponent(versionId)}`,
    ),
  compare: (caseId: string, from: string, to: string) =>
    api.request<VersionComparison>(
      `/cases/${encodeURIComponent(caseId)}/compare?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    ),
  act: (caseId: string, path: string, body: Record<string, unknown>) =>
    api.request<unknown>(`/cases/${encodeURIComponent(caseId)}/${path}`, { body }),
  create: (body: { projectId: string; reportType: string; happenCountry: string; hospitalId?: string }) =>
    api.request<{ case: CaseAnswer; duplicates: DuplicateCandidate[] }>('/cases', { body }),
};
