/**
 * The dictionaries API as the screens use it (server/src/dictionaries/routes.ts). Each call names
 * its release by version and language; without a version the server uses the project's
 * configured one (header projectId) and answers "MedDRA version not configured" otherwise.
 */
import { RequestError } from '../../api/request';
import { api } from '../../app/api';

export type TermLanguage = 'zh' | 'en';
export type MeddraLevel = 'llt' | 'pt' | 'hlt' | 'hlgt' | 'soc';
export const MEDDRA_LEVELS: MeddraLevel[] = ['llt', 'pt', 'hlt', 'hlgt', 'soc'];

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
  kind: 'preferred' | 'generic' | 'trade';
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
  versions: (kind: 'meddra' | 'whodrug') =>
    api.request<DictionaryVersion[]>('/dictionaries/versions', { method: 'GET', params: { kind } }),
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
