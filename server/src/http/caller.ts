/**
 * Who a service acts for, free of any transport. Services take a `Caller`, never Hono's `Context`:
 * the HTTP layer builds one per request (`callerOf(c)`, in route files), the job runner builds one
 * for the user who started a job (`JobContext.caller()`), so a job calls the same services a route
 * does without faking a request.
 */
import type { Context } from 'hono';
import type { Clock } from '../clock';
import type { Lang, MessageParams, Translator } from '../i18n';
import type { TenantHandle } from '../store';
import type { AppEnv, Authenticator, AuthorizationContext, AuthorizationScope, Principal } from './context';
import { requirePrincipal } from './context';
import type { ModuleDeps } from './module';

export interface Caller {
  readonly principal: Principal;
  /** `principal.userId`. */
  readonly userId: string;
  /** The caller's tenant-scoped store handle, acting as the caller (for the audit trail). */
  readonly tenant: TenantHandle;
  readonly lang: Lang;
  /** Translates a key into the caller's language (a plain function: pass it around freely). */
  readonly t: (key: string, params?: MessageParams) => string;
  readonly translator: Translator;
  readonly clock: Clock;
  /** The request id (`job:<jobId>` for a job): log lines and audit entries carry it. */
  readonly requestId: string;
  /**
   * The project of the request's context (`projectId` header): permissions asked without an object
   * scope are checked there. A job has none.
   */
  readonly projectId: string | null;
  /** Narrows lists to these projects (`studyProjectIds` header); empty: no narrowing. */
  readonly studyProjectIds: readonly string[];
  readonly sysOrgId: string | null;
  readonly deps: ModuleDeps;
  /**
   * True when the caller holds the permission - in `scope`'s project when given (the object's own,
   * where only its members hold anything), else in `projectId`'s. Fails closed without an authorizer.
   */
  readonly authorize: (permission: string, scope?: AuthorizationScope) => Promise<boolean>;
  /** Whether the caller administers their tenant (every permission there); false without an authenticator. */
  readonly administers: () => Promise<boolean>;
}

/** The part of the authenticator a caller asks: permissions and tenant administration. */
export type CallerAuthenticator = Pick<Authenticator, 'authorize' | 'administers'>;

export interface CallerParts {
  deps: ModuleDeps;
  principal: Principal;
  lang: Lang;
  requestId: string;
  projectId?: string | null;
  studyProjectIds?: readonly string[];
  sysOrgId?: string | null;
  /** Decides the caller's permissions; absent: every permission is refused. */
  authenticator?: CallerAuthenticator | null;
}

export function createCaller(parts: CallerParts): Caller {
  const { deps, principal, lang, authenticator } = parts;
  const context: AuthorizationContext = { projectId: parts.projectId ?? null };
  let tenant: TenantHandle | null = null;
  return {
    principal,
    userId: principal.userId,
    // Opened on first use: an operator's caller never needs a tenant handle.
    get tenant() {
      return (tenant ??= deps.store.tenant(principal.tenantId, { userId: principal.userId }));
    },
    lang,
    t: (key, params) => deps.translator.t(lang, key, params),
    translator: deps.translator,
    clock: deps.clock,
    requestId: parts.requestId,
    projectId: parts.projectId ?? null,
    studyProjectIds: parts.studyProjectIds ?? [],
    sysOrgId: parts.sysOrgId ?? null,
    deps,
    async authorize(permission, scope) {
      if (!authenticator?.authorize) return false;
      const held = scope
        ? await authenticator.authorize(principal, permission, context, scope)
        : await authenticator.authorize(principal, permission, context);
      return held === true;
    },
    async administers() {
      return (await authenticator?.administers?.(principal)) ?? false;
    },
  };
}

const callers = new WeakMap<object, Caller>();

/**
 * The request's caller (built once per request); the session-invalid error (400001) when the
 * request has none. Route handlers pass it to services.
 */
export function callerOf(c: Context<AppEnv>): Caller {
  const ctx = c.get('ctx');
  const principal = requirePrincipal(c);
  let caller = callers.get(ctx);
  if (caller && caller.principal === principal) return caller;
  caller = createCaller({
    deps: c.get('deps'),
    principal,
    lang: ctx.lang,
    requestId: ctx.requestId,
    projectId: ctx.projectId,
    studyProjectIds: ctx.studyProjectIds,
    sysOrgId: ctx.sysOrgId,
    authenticator: c.get('authenticator'),
  });
  callers.set(ctx, caller);
  return caller;
}
