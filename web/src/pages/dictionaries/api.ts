/**
 * The dictionaries API as the screens use it (server/src/dictionaries/routes.ts). Each call names
 * its release by version and language; without a version the server uses the project's
 * configured one (header projectId) and answers "MedDRA version not configured" otherwise.
 */
import { RequestError } from '../../api/request';
import { api } from '../../app/api';
import { session } from '../../app/session';
import { langType, translate } from '../../i18n';
import { jobEnded } from '@pv/engine';
import type { JobStatus, MeddraLevel, TermLanguage, WhodrugHit as EngineWhodrugHit } from '@pv/engine';

// The engine's own definitions, not copies (issue 14).
export type { MeddraLevel, TermLanguage } from '@pv/engine';
export { MEDDRA_LEVELS, MEDDRA_QUERY_MIN_CHARS } from '@pv/engine';

export interface VersionRef {
  version?: string;
  language?: TermLanguage;
}

export interface DictionaryVersion {
  versionId: string;
  kind: 'meddra' | 'whodrug';
  version: string;
  language: TermLanguage;
  counts: Record<string, number>;
  importedAt: string;
  importedBy?: string;
  sourceFiles?: string[];
}

export interface Ref {
  code: string;
  name: string;
}

export interface MeddraHit extends Ref {
  level: MeddraLevel;
  current?: boolean;
  pt?: Ref;
  primarySoc?: Ref & { abbrev: string };
}

export interface MeddraNode extends Ref {
  level: MeddraLevel;
  childCount: number;
  current?: boolean;
}

export interface MeddraPathView {
  hlt: Ref;
  hlgt: Ref;
  soc: Ref & { abbrev: string };
  primary: boolean;
}

export interface MeddraTermDetail extends MeddraHit {
  paths: MeddraPathView[];
  parents: MeddraNode[];
}

/** The coded value of a selection: LLT up to SOC. */
export interface MeddraCoding {
  version: string;
  language: TermLanguage;
  llt: Ref & { current: boolean };
  pt: Ref;
  hlt: Ref;
  hlgt: Ref;
  soc: Ref & { abbrev: string };
  primary: boolean;
}

export interface MeddraSearch extends VersionRef {
  query: string;
  levels: MeddraLevel[];
  currentLlts: boolean;
  nonCurrentLlts: boolean;
  offset?: number;
  limit?: number;
}

export interface Page<T> {
  total: number;
  items: T[];
}

export interface WhodrugHit {
  drugCode: string;
  name: string;
  genericName: string;
  kind: EngineWhodrugHit['kind'];
  atcCodes: string[];
  company: { code: string; name: string; countryCode: string } | null;
}

export interface WhodrugDetail extends WhodrugHit {
  drugRecordNumber: string;
  sequence1: string;
  sequence2: string;
  preferredName: string;
  yearQuarter: string;
  atc: Array<{
    code: string;
    official: boolean;
    chain: Array<{ code: string; level: number; text: string }>;
  }>;
  tradeNames: Array<{ drugCode: string; name: string }>;
  countryName: string | null;
}

export interface WhodrugSearch extends VersionRef {
  query?: string;
  atcCode?: string;
  company?: string;
  countryCode?: string;
  genericOnly?: boolean;
  preferredOnly?: boolean;
  offset?: number;
  limit?: number;
}

/** Drops empty strings so the server sees only the criteria the user filled. */
function compact<T extends object>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== '' && v !== undefined)) as T;
}

/** The message of a failed call, shown in place (the calls of the pickers are silent). */
export const errorMessage = (error: unknown): string =>
  error instanceof RequestError ? error.message : String(error);

export interface ProjectSettings {
  projectId: string;
  meddraVersion: string | null;
  whodrugVersion: string | null;
}

export const dictionaries = {
  /** The MedDRA and WHODrug versions configured for a project (null: not configured). */
  projectSettings: (projectId: string) =>
    api.request<ProjectSettings>(`/dictionaries/projects/${encodeURIComponent(projectId)}/settings`, {
      method: 'GET',
      silent: true,
    }),
  versions: (kind?: 'meddra' | 'whodrug') =>
    api.request<DictionaryVersion[]>('/dictionaries/versions', {
      method: 'GET',
      params: kind ? { kind } : {},
    }),
  removeVersion: (versionId: string) =>
    api.request<null>(`/dictionaries/versions/${encodeURIComponent(versionId)}`, { method: 'DELETE' }),
  saveProjectSettings: (projectId: string, settings: Omit<ProjectSettings, 'projectId'>) =>
    api.request<ProjectSettings>(`/dictionaries/projects/${encodeURIComponent(projectId)}/settings`, {
      method: 'PUT',
      body: settings,
    }),
  meddraSearch: (body: MeddraSearch) =>
    api.request<Page<MeddraHit>>('/dictionaries/meddra/search', { body: compact(body) }),
  meddraChildren: (ref: VersionRef, parent?: { level: MeddraLevel; code: string }) =>
    api.request<{ items: MeddraNode[] }>('/dictionaries/meddra/hierarchy', {
      body: compact({ ...ref, parent }),
      // The browser shows its error in place: no toast while the user has not chosen a version yet.
      silent: true,
    }),
  meddraTerm: (ref: VersionRef, level: MeddraLevel, code: string) =>
    api.request<MeddraTermDetail>('/dictionaries/meddra/term', { body: compact({ ...ref, level, code }) }),
  meddraSelect: (ref: VersionRef, code: string, level: 'llt' | 'pt', socCode?: string) =>
    api.request<MeddraCoding>('/dictionaries/meddra/select', {
      body: compact({ ...ref, code, level, socCode }),
    }),
  whodrugSearch: (body: WhodrugSearch) =>
    api.request<Page<WhodrugHit>>('/dictionaries/whodrug/search', { body: compact(body) }),
  whodrugDetail: (ref: VersionRef, drugCode: string) =>
    api.request<WhodrugDetail>('/dictionaries/whodrug/detail', { body: compact({ ...ref, drugCode }) }),
};

/** A background task as GET /api/jobs/:jobId answers it. */
export interface JobView<R = unknown> {
  jobId: string;
  type: string;
  status: JobStatus;
  progress: { percent: number; message?: string } | null;
  result: R | null;
  error: string | null;
}

const ended = (job: JobView) => jobEnded(job.status);

/**
 * Follows a background task until it ends, handing each state to `onUpdate` (progress, then the
 * result). Stops quietly when `signal` aborts (the screen was left).
 */
export async function followJob<R>(
  jobId: string,
  onUpdate: (job: JobView<R>) => void,
  signal?: AbortSignal,
  intervalMs = 700,
): Promise<JobView<R> | null> {
  for (;;) {
    if (signal?.aborted) return null;
    const job = await api.request<JobView<R>>(`/jobs/${encodeURIComponent(jobId)}`, {
      method: 'GET',
      silent: true,
      signal,
    });
    if (signal?.aborted) return null;
    onUpdate(job);
    if (ended(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** What an import task answers: the release imported (or already there), or why it was refused. */
export interface ImportOutcome {
  outcome: 'imported' | 'unchanged' | 'refused';
  version?: DictionaryVersion;
  issues?: { file: string; line: number; message: { zh: string; en: string } }[];
}

/**
 * Sends a release's zip as the request body (POST /dictionaries/imports) and answers its import
 * task. The JSON client cannot send a file, so this call carries the session headers itself.
 */
export async function uploadRelease(
  file: File,
  choice: { kind: 'meddra' | 'whodrug'; language?: TermLanguage; version?: string },
): Promise<JobView<ImportOutcome>> {
  const query = new URLSearchParams({ kind: choice.kind, fileName: file.name });
  if (choice.language) query.set('language', choice.language);
  if (choice.version) query.set('version', choice.version);
  const token = session.token();
  const response = await fetch(`/api/dictionaries/imports?${query}`, {
    method: 'POST',
    body: file,
    headers: {
      'Content-Type': 'application/zip',
      'Lang-Type': langType(session.language()),
      sysOrgId: session.sysOrgId() ?? '',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
  }).catch(() => null);
  session.touch();
  const body = (await response?.json().catch(() => null)) as {
    code?: number;
    msg?: string;
    data?: JobView<ImportOutcome>;
  } | null;
  if (body?.code === 200 && body.data) return body.data;
  if (!response) throw new RequestError(translate(session.language(), 'request.network'), 'network', null);
  const message = body?.msg || translate(session.language(), 'request.unknown');
  throw new RequestError(message, body?.code ? 'business' : 'http', body?.code ?? response.status);
}
