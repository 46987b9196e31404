/**
 * Sessions: a random 256-bit bearer token, stored only as its sha256; expiry slides on every
 * request by the tenant's session minutes. One active session per account: a new login ends the
 * old one with reason 'replaced', and the old token's next call answers 400002.
 */
import { randomUUID } from 'node:crypto';
import type { ModuleDeps, Principal } from '../http';
import type { Store, StoredDoc } from '../store';
import { C } from './collections';
import { digestsEqual, randomToken, sha256Hex } from './crypto';
import type { Session, SessionEnd } from './model';

/** Writes of the sliding expiry are skipped within this window to keep reads cheap. */
const SLIDE_GRANULARITY_MS = 15_000;

/**
 * Validated sessions are kept in this process for at most this long (real time), so that a busy
 * client does not cost a store read per request. Sessions ended by this process leave the cache at
 * once; another server instance sees an ended session within this window.
 */
export const SESSION_CACHE_MS = 2000;
interface CachedSession {
  session: StoredDoc<Session>;
  at: number;
  /** expiresAt and lastSeenAt as epoch ms (parsed once, not on every request). */
  expiresMs: number;
  lastSeenMs: number;
  /** The lookup answered for it (one object per cached session, not one per request). */
  active: SessionLookup;
}
const caches = new WeakMap<Store, Map<string, CachedSession>>();

function cacheOf(store: Store) {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  return cache;
}

/** Drops cached sessions of this process (after any change to sessions). */
export function forgetSessions(store: Store): void {
  cacheOf(store).clear();
}

const sessionsOf = (deps: ModuleDeps) =>
  deps.store.platform({ userId: 'system:auth' }).collection<Session>(C.sessions);

export interface NewSession {
  accountId: string;
  account: string;
  name: string;
  sessionTenantId: string;
  organisationId: string | null;
  operator: boolean;
  sessionMinutes: number;
  mustChangePassword: boolean;
  ip: string | null;
  userAgent: string | null;
}

/** Ends the account's other sessions ('replaced' unless told) and opens a new one. */
export async function openSession(
  deps: ModuleDeps,
  input: NewSession,
  endOthersAs: SessionEnd = 'replaced',
): Promise<{ token: string; session: StoredDoc<Session> }> {
  const now = deps.clock.now();
  await endSessions(deps, { accountId: input.accountId }, endOthersAs);
  const token = randomToken(32);
  const session = await sessionsOf(deps).insertOne({
    _id: randomUUID(),
    ...input,
    tokenHash: sha256Hex(token),
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + input.sessionMinutes * 60_000).toISOString(),
    endedAt: null,
    endReason: null,
  });
  return { token, session };
}

export type SessionLookup =
  | {
      readonly state: 'active';
      readonly session: StoredDoc<Session>;
      /** The session's caller, one frozen object per kept session (not one per request). */
      readonly principal: Principal;
    }
  | { readonly state: 'replaced' }
  | { readonly state: 'invalid' };

/** The caller a session stands for (what handlers see as the principal). */
function principalOf(session: StoredDoc<Session>): Principal {
  return Object.freeze({
    userId: session.accountId,
    tenantId: session.sessionTenantId,
    sessionId: session._id,
    account: session.account,
    name: session.name,
    organisationId: session.organisationId,
    operator: session.operator,
    mustChangePassword: session.mustChangePassword,
  });
}

const INVALID: SessionLookup = Object.freeze({ state: 'invalid' });
const REPLACED: SessionLookup = Object.freeze({ state: 'replaced' });

/**
 * Finds the token's session, checks it in constant time and slides its expiry. Answers at once
 * (no promise) when the session was validated less than SESSION_CACHE_MS ago, has not expired and
 * its expiry needs no slide: the common case of a busy client costs no await. `now`: the request's
 * time from deps.clock (read once by the caller, who checks the tenant at the same instant).
 *
 * The raw token is hashed on every request and never kept: a map from tokens to sessions would
 * save the hash (well under a microsecond) but leave every live bearer token readable in a heap
 * dump or core file, where today only their sha256 is.
 */
export function resolveSession(
  deps: ModuleDeps,
  token: string,
  now: Date = deps.clock.now(),
): SessionLookup | Promise<SessionLookup> {
  if (token.length > 256) return INVALID;
  const hash = sha256Hex(token);
  const entry = cacheOf(deps.store).get(hash);
  if (entry && performance.now() - entry.at < SESSION_CACHE_MS) {
    // A cache hit was found under this very hash, compared in constant time when it was read.
    const nowMs = now.getTime();
    if (entry.expiresMs > nowMs && nowMs - entry.lastSeenMs < SLIDE_GRANULARITY_MS) return entry.active;
  }
  return resolveStoredSession(deps, hash);
}

/** resolveSession's slower path: reads the session unless kept, ends it when expired, slides it. */
async function resolveStoredSession(deps: ModuleDeps, hash: string): Promise<SessionLookup> {
  const sessions = sessionsOf(deps);
  const cache = cacheOf(deps.store);
  let entry = cache.get(hash);
  if (!entry || performance.now() - entry.at >= SESSION_CACHE_MS) {
    const found = await sessions.findOne({ tokenHash: hash });
    if (cache.size > 10_000) cache.clear();
    cache.delete(hash);
    if (!found || !digestsEqual(found.tokenHash, hash)) return INVALID;
    if (found.endedAt) return found.endReason === 'replaced' ? REPLACED : INVALID;
    entry = {
      session: found,
      at: performance.now(),
      expiresMs: Date.parse(found.expiresAt),
      lastSeenMs: Date.parse(found.lastSeenAt),
      active: Object.freeze({ state: 'active', session: found, principal: principalOf(found) }),
    };
    cache.set(hash, entry);
  }
  // A cache hit was found under this very hash, compared in constant time when it was read.
  const { session } = entry;
  const now = deps.clock.now();
  const nowMs = now.getTime();
  if (entry.expiresMs <= nowMs) {
    cache.delete(hash);
    await sessions.updateOne(
      { _id: session._id, endedAt: null },
      { $set: { endedAt: now.toISOString(), endReason: 'expired' } },
    );
    return INVALID;
  }
  if (nowMs - entry.lastSeenMs >= SLIDE_GRANULARITY_MS) {
    const expiresAt = new Date(nowMs + session.sessionMinutes * 60_000).toISOString();
    await sessions.updateOne({ _id: session._id }, { $set: { lastSeenAt: now.toISOString(), expiresAt } });
    session.lastSeenAt = now.toISOString();
    session.expiresAt = expiresAt;
    entry.lastSeenMs = nowMs;
    entry.expiresMs = Date.parse(expiresAt);
  }
  return entry.active;
}

/** Ends every open session matching the filter; returns how many ended. */
export async function endSessions(
  deps: ModuleDeps,
  filter: Record<string, unknown>,
  reason: SessionEnd,
): Promise<number> {
  forgetSessions(deps.store);
  return sessionsOf(deps).updateMany(
    { ...filter, endedAt: null },
    { $set: { endedAt: deps.clock.now().toISOString(), endReason: reason } },
  );
}

/** Open, unexpired sessions of a tenant (the online-user list). */
export async function onlineSessions(deps: ModuleDeps, tenantId: string): Promise<StoredDoc<Session>[]> {
  const now = deps.clock.now().toISOString();
  return sessionsOf(deps).find(
    { sessionTenantId: tenantId, endedAt: null, expiresAt: { $gt: now } },
    { sort: { lastSeenAt: -1 }, limit: 1000 },
  );
}

export async function findSession(deps: ModuleDeps, sessionId: string): Promise<StoredDoc<Session> | null> {
  return sessionsOf(deps).findOne({ _id: sessionId });
}
