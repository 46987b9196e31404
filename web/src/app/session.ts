/**
 * Client session state (SPEC 3 "Client session state"), kept in localStorage so that every tab of
 * the same browser shares one session: token, display language (default Chinese), organisation,
 * study projects, current project, environment (default dev) and its list, the signed-in user, the
 * menu tree and permissions, and the expiry time refreshed by every answered request.
 */
import type { DisplayLanguage } from '../i18n';
import { DISPLAY_LANGUAGES } from '../i18n';
import type { SessionInfo } from '../api/identity';
import { nowMs } from '../clock';

const KEY = {
  token: 'pv.token',
  language: 'pv.language',
  sysOrgId: 'pv.sysOrgId',
  studyProjectIds: 'pv.studyProjectIds',
  projectId: 'pv.projectId',
  environment: 'pv.environment',
  /** Who the token belongs to: another tab compares it to spot a different account signing in. */
  account: 'pv.account',
  info: 'pv.sessionInfo',
  expiresAt: 'pv.expiresAt',
  sessionMinutes: 'pv.sessionMinutes',
} as const;

export const SESSION_KEYS = KEY;
export const ENVIRONMENTS = ['dev', 'uat', 'pro'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
/**
 * The configuration an environment shows: the project's UAT drafts in UAT, the published PRO
 * configuration in dev and PRO (saving and every stored check use PRO in all three).
 */
export const configurationEnvironment = (environment: Environment): 'UAT' | 'PRO' =>
  environment === 'uat' ? 'UAT' : 'PRO';
/** Shortest session the tenant policy allows (SPEC 9); used until the server says otherwise. */
const DEFAULT_SESSION_MINUTES = 30;

function storage(): Storage | null {
  return typeof localStorage === 'undefined' ? null : localStorage;
}

function read(key: string): string | null {
  return storage()?.getItem(key) ?? null;
}

function write(key: string, value: string | null): void {
  const s = storage();
  if (!s) return;
  if (value === null) s.removeItem(key);
  else s.setItem(key, value);
}

function readJson<T>(key: string): T | null {
  const text = read(key);
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export const session = {
  token: () => read(KEY.token),
  language(): DisplayLanguage {
    const stored = read(KEY.language);
    return DISPLAY_LANGUAGES.includes(stored as DisplayLanguage) ? (stored as DisplayLanguage) : 'zh';
  },
  setLanguage: (language: DisplayLanguage) => write(KEY.language, language),
  sysOrgId: () => read(KEY.sysOrgId),
  setSysOrgId: (id: string | null) => write(KEY.sysOrgId, id),
  studyProjectIds: (): string[] => readJson<string[]>(KEY.studyProjectIds) ?? [],
  setStudyProjectIds: (ids: string[]) => write(KEY.studyProjectIds, JSON.stringify(ids)),
  projectId: () => read(KEY.projectId),
  setProjectId: (id: string | null) => write(KEY.projectId, id),
  environment(): Environment {
    const stored = read(KEY.environment);
    return ENVIRONMENTS.includes(stored as Environment) ? (stored as Environment) : 'dev';
  },
  setEnvironment: (environment: Environment) => write(KEY.environment, environment),
  account: () => read(KEY.account),
  info: () => readJson<SessionInfo>(KEY.info),
  setInfo(info: SessionInfo) {
    write(KEY.info, JSON.stringify(info));
    write(KEY.sessionMinutes, String(info.sessionMinutes || DEFAULT_SESSION_MINUTES));
    if (info.currentOrgId) write(KEY.sysOrgId, info.currentOrgId);
    session.touch();
  },
  expiresAt(): number | null {
    const value = Number(read(KEY.expiresAt));
    return Number.isFinite(value) && value > 0 ? value : null;
  },

  /** Stores a new sign-in's token; the session info follows with setInfo. */
  start(token: string, account: string, now = nowMs()) {
    write(KEY.token, token);
    write(KEY.account, account);
    write(KEY.info, null);
    write(KEY.sysOrgId, null);
    write(KEY.sessionMinutes, String(DEFAULT_SESSION_MINUTES));
    session.touch(now);
  },

  /** The server slides the session on every request; the client mirrors it to warn on expiry. */
  touch(now = nowMs()) {
    if (!read(KEY.token)) return;
    const minutes = Number(read(KEY.sessionMinutes)) || DEFAULT_SESSION_MINUTES;
    write(KEY.expiresAt, String(now + minutes * 60_000));
  },

  isExpired(now = nowMs()): boolean {
    const expiresAt = session.expiresAt();
    return Boolean(read(KEY.token)) && expiresAt !== null && expiresAt <= now;
  },

  /** Drops the token only (400001: the session is gone, the preferences stay). */
  dropToken() {
    write(KEY.token, null);
    write(KEY.expiresAt, null);
  },

  /** Clears local storage (session expiry, logout); the display language survives. */
  clear() {
    const language = session.language();
    storage()?.clear();
    write(KEY.language, language);
  },
};
