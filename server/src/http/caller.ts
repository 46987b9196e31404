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
import { andThen, requirePrincipal } from './context';
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
  /** `authorize`, answered at once (no await) when the authorizer has its answer kept, else a promise. */
  readonly authorizeNow: (permission: string, scope?: AuthorizationScope) => Promise<boolean> | boolean;
  /** Whether the caller administers their tenant (every permission there); false without an authenticator. */
  readonly administers: () => Promise<boolean>;
  /** `administers`, at once when the caller's grants are kept, else a promise. */
  readonly administersNow: () => Promise<boolean> | boolean;
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

/** One translating function per translator and language, shared by every caller (none built per request). */
const translators = new WeakMap<Translator, Map<Lang, Caller['t']>>();

function translatorFor(translator: Translator, lang: Lang): Caller['t'] {
  let perLang = translators.get(translator);
  if (!perLang) translators.set(translator, (perLang = new Map()));
  let t = perLang.get(lang);
  if (!t) perLang.set(lang, (t = (key, params) => translator.t(lang, key, params)));
  return t;
}

/**
 * A caller built from its parts: its methods live on the prototype and its tenant handle and
 * translator are looked up on first use, so building one per request allocates one object.
 */
class PartsCaller implements Caller {
  readonly principal: Principal;
  readonly userId: string;
  readonly lang: Lang;
  readonly requestId: string;
  readonly projectId: string | null;
  readonly studyProjectIds: readonly string[];
  readonly sysOrgId: string | null;
  readonly deps: ModuleDeps;
  readonly #authenticator: CallerAuthenticator | null;
  #context: AuthorizationContext | null = null;
  #tenant: TenantHandle | null = null;

  constructor(parts: CallerParts) {
    this.principal = parts.principal;
    this.userId = parts.principal.userId;
    this.lang = parts.lang;
    this.requestId = parts.requestId;
    this.projectId = parts.projectId ?? null;
    this.studyProjectIds = parts.studyProjectIds ?? NO_PROJECTS;
    this.sysOrgId = parts.sysOrgId ?? null;
    this.deps = parts.deps;
    this.#authenticator = parts.authenticator ?? null;
  }

  // Opened on first use: an operator's caller never needs a tenant handle.
  get tenant(): TenantHandle {
    return (this.#tenant ??= this.deps.store.tenant(this.principal.tenantId, { userId: this.userId }));
  }

  get t(): Caller['t'] {
    return translatorFor(this.deps.translator, this.lang);
  }

  get translator(): Translator {
    return this.deps.translator;
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  // Arrow properties would be one closure each per caller: methods are shared; Caller's
  // `authorize` and `administers` are always called on the caller.
  async authorize(permission: string, scope?: AuthorizationScope): Promise<boolean> {
    return this.authorizeNow(permission, scope);
  }

  authorizeNow(permission: string, scope?: AuthorizationScope): Promise<boolean> | boolean {
    const authenticator = this.#authenticator;
    if (!authenticator?.authorize) return false;
    const context = (this.#context ??= { projectId: this.projectId });
    const held = scope
      ? authenticator.authorize(this.principal, permission, context, scope)
      : authenticator.authorize(this.principal, permission, context);
    return andThen(held, isTrue);
  }

  async administers(): Promise<boolean> {
    return this.administersNow();
  }

  administersNow(): Promise<boolean> | boolean {
    const administers = this.#authenticator?.administers;
    if (!administers) return false;
    return andThen(administers.call(this.#authenticator, this.principal), isTrue);
  }
}

const NO_PROJECTS: readonly string[] = Object.freeze([]);
const isTrue = (answer: boolean): boolean => answer === true;

export function createCaller(parts: CallerParts): Caller {
  return new PartsCaller(parts);
}

/**
 * The same caller speaking another language: its permissions, tenant and projects unchanged (a
 * bilingual export reads each answer in both languages).
 */
export function callerInLanguage(caller: Caller, lang: Lang): Caller {
  if (caller.lang === lang) return caller;
  return {
    principal: caller.principal,
    userId: caller.userId,
    get tenant() {
      return caller.tenant;
    },
    lang,
    t: translatorFor(caller.translator, lang),
    translator: caller.translator,
    clock: caller.clock,
    requestId: caller.requestId,
    projectId: caller.projectId,
    studyProjectIds: caller.studyProjectIds,
    sysOrgId: caller.sysOrgId,
    deps: caller.deps,
    authorize: (permission, scope) => caller.authorize(permission, scope),
    authorizeNow: (permission, scope) => caller.authorizeNow(permission, scope),
    administers: () => caller.administers(),
    administersNow: () => caller.administersNow(),
  };
}

/**
 * The request's caller (built once per request); the session-invalid error (400001) when the
 * request has none. Route handlers pass it to services.
 */
export function callerOf(c: Context<AppEnv>): Caller {
  const principal = requirePrincipal(c);
  // On the request's own variables: a WeakMap keyed by the request costs more (ephemeron entries
  // for the collector) than the rest of building the caller.
  let caller = c.get('caller') as Caller | undefined;
  if (caller && caller.principal === principal) return caller;
  const ctx = c.get('ctx');
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
  c.set('caller', caller);
  return caller;
}
