/**
 * The request context every handler sees: who is calling (resolved from the bearer token by the
 * pluggable authenticator), in which organisation and projects, in which language, and the
 * request id. Read it with `requestContext(c)`; demand a caller with `requirePrincipal(c)`.
 */
import type { Context } from 'hono';
import type { Lang, MessageParams, Translator } from '../i18n';
import type { TenantHandle } from '../store';
import type { ModuleDeps } from './module';
import type { LogLine } from './log';
import type { Caller } from './caller';
import { errors } from './errors';

/** The authenticated caller, as the authenticator resolves it from the bearer token. */
export interface Principal {
  userId: string;
  tenantId: string;
  /** The session the token belongs to, when sessions are tracked. */
  sessionId?: string;
  /** Anything else the identity module wants handlers to see (roles, display name ...). */
  [extra: string]: unknown;
}

/**
 * The object a request acts on decides the project a permission is checked in: a case's own project,
 * whatever the `projectId` header says (that header only selects the context of lists).
 * `projectId` null: the object belongs to no project (only tenant administrators pass).
 */
export interface AuthorizationScope {
  projectId: string | null;
  /**
   * 'required' (default): only the project's members (and tenant administrators) hold anything
   * there - a case and what it owns. 'optional': tenant roles count for non-members too - the
   * project's own configuration, which tenant-wide administrators keep.
   */
  membership?: 'required' | 'optional';
}

/** What an authorizer is told besides the principal and the permission. */
export interface AuthorizationContext {
  /**
   * The project of the request's context (`projectId` header), where a permission asked without
   * an object scope is checked; null for none (a job's caller).
   */
  projectId: string | null;
}

/**
 * The identity module implements this. `authenticate` runs once per API request that carries a
 * bearer token; it returns the caller, or null when the token is unknown or expired. It may throw
 * an AppError (e.g. code 400002, logged in elsewhere); the error is raised only on routes that need
 * a caller. `authorize` decides a route's declared `permission` (without an authorizer a guarded
 * route is refused); with a `scope`, in the scope's project and only for its members.
 */
export interface Authenticator {
  /** May answer at once (no promise) when everything it needs is kept in memory. */
  authenticate(token: string, c: Context<AppEnv>): Promise<Principal | null> | Principal | null;
  authorize?(
    principal: Principal,
    permission: string,
    context: AuthorizationContext,
    scope?: AuthorizationScope,
  ): Promise<boolean> | boolean;
  /**
   * Whether the principal administers its tenant (holds every permission there): the jobs and
   * files of the platform show such a caller everything of the tenant. Absent: nobody does.
   */
  administers?(principal: Principal): Promise<boolean> | boolean;
}

export interface RequestContext {
  requestId: string;
  lang: Lang;
  /** The bearer token, never logged. */
  token: string | null;
  sysOrgId: string | null;
  studyProjectIds: string[];
  projectId: string | null;
  principal: Principal | null;
  /** Why authentication failed, kept until a route that needs a caller raises it. */
  authError: unknown;
}

export type AppEnv = {
  Variables: {
    ctx: RequestContext;
    deps: ModuleDeps;
    /** The identity module's authenticator, or null before one is plugged in. */
    authenticator: Authenticator | null;
    translator: Translator;
    /** Translates a key into the request's language. */
    t: (key: string, params?: MessageParams) => string;
    log: (line: LogLine) => void;
    /** The envelope code of the response, for the request log. */
    envelopeCode: number;
    /** The request's caller once callerOf built it (unset before). */
    caller: Caller;
  };
};

/**
 * True for a promise or any thenable: authenticators and authorizers may answer at once or later,
 * and an answer that is still pending must never be read as the answer itself.
 */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * `next(value)` at once when the value is already there, else once it is: a check whose answers
 * are kept in memory runs without an await (each await is a trip through the microtask queue).
 */
export function andThen<T, U>(
  value: T | PromiseLike<T>,
  next: (value: T) => U | PromiseLike<U>,
): U | Promise<U> {
  return isPromiseLike(value) ? Promise.resolve(value).then(next) : (next(value) as U | Promise<U>);
}

export function requestContext(c: Context<AppEnv>): RequestContext {
  return c.get('ctx');
}

/** The caller, or the session-invalid error (400001) when there is none. */
export function requirePrincipal(c: Context<AppEnv>): Principal {
  const ctx = c.get('ctx');
  if (ctx.principal) return ctx.principal;
  if (ctx.authError) throw ctx.authError;
  throw errors.sessionInvalid();
}

/** The caller's tenant-scoped store handle, acting as the caller (for the audit trail). */
export function tenantHandle(c: Context<AppEnv>): TenantHandle {
  const principal = requirePrincipal(c);
  return c.get('deps').store.tenant(principal.tenantId, { userId: principal.userId });
}

/** `studyProjectIds` arrives as a comma-separated list or a JSON array. */
export function parseIdList(value: string | null | undefined): string[] {
  if (!value) return [];
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.map((id) => String(id).trim()).filter(Boolean);
    } catch {
      // Not JSON after all: fall through to the comma-separated reading.
    }
  }
  return text
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  // The usual form, read without a regular expression: every authenticated request comes here.
  if (header.startsWith('Bearer ')) {
    const token = header.slice(7);
    if (token !== '' && token.trim() === token) return token;
  }
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  const token = (match ? match[1]! : header).trim();
  return token === '' ? null : token;
}
