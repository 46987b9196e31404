/**
 * Route declarations. A module declares each route once, with its method, path, summary, schemas
 * and permission; the same declaration validates the request, checks the caller and feeds the
 * OpenAPI document. A handler returns the `data` of a 200 envelope, or a Response of its own
 * (downloads, 203 warnings via `warning(c, ...)`).
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError, errors, formatBytes } from './errors';
import type { AppEnv, AuthorizationContext, AuthorizationScope, Principal, RequestContext } from './context';
import { isPromiseLike, requirePrincipal, tenantHandle } from './context';
import { callerOf } from './caller';
import type { Caller } from './caller';
import type { TenantHandle } from '../store';
import { Code, ok } from './envelope';
import { parseQuery } from './query';
import { refuseOperatorKeys, takesFilterBody } from './filters';
import type { JsonSchema, Validator } from './validation';
import { compileValidator } from './validation';
import { answerKeeper, KEPT_ANSWER_MS } from './kept';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteDeclaration {
  method: HttpMethod;
  /** Relative to the module prefix, Hono syntax for parameters (`/cases/:caseId`). */
  path: string;
  summary: string;
  description?: string;
  /** 'required' (default): a caller is needed (400001 otherwise). 'optional': resolved when present. 'none': public. */
  auth?: 'required' | 'optional' | 'none';
  /** Permission identifier checked by the authenticator's `authorize` (403 when refused). */
  permission?: string;
  /**
   * The object the route acts on (e.g. `{param: 'caseId', kind: 'case'}`): `permission` is then
   * checked in the object's own project, for members of it only, whatever the `projectId` header
   * says; an unknown object answers 404. The kind's resolver is registered by its owning module.
   */
  object?: RouteObject;
  /**
   * A project the JSON body names (its `property`, when a string): it must exist in the caller's
   * tenant (404) and the caller must hold `permission` in it (403), checked in that project (never
   * the projectId header's) before the body is validated. `membership` as AuthorizationScope's.
   */
  bodyProject?: BodyProject;
  /** JSON Schema of the JSON body. When absent, the body is not read. */
  body?: JsonSchema;
  /** JSON Schema (type object) of the query, after `key[sub]` unflattening; values are coerced. */
  query?: JsonSchema;
  /** JSON Schema (type object) of the path parameters; values are coerced. */
  params?: JsonSchema;
  /** JSON Schema of the envelope's `data`, for the OpenAPI document. */
  response?: JsonSchema;
  /** A streamed raw body (file upload) instead of JSON, with its size limit in bytes. */
  upload?: { maxBytes?: number; contentTypes?: string[] };
  /** The response is a file, not an envelope (documented as binary). */
  download?: boolean;
  /** Overrides the JSON body limit for this route, in bytes. */
  bodyLimit?: number;
}

export interface BodyProject {
  property: string;
  permission: string;
  membership: 'required' | 'optional';
}

/** The object kind of a project (PROJECT_OBJECT). */
export const PROJECT_KIND = 'project';

export interface RouteObject {
  /** The path parameter holding the object's id. */
  param: string;
  kind: string;
}

/**
 * The project named in the path (`:projectId`), an object kind the platform itself registers
 * (app.ts, resolved by the projects module's projectObject): any module's route may declare it.
 */
export const PROJECT_OBJECT: RouteObject = { param: 'projectId', kind: PROJECT_KIND };

/** How a module answers the project of one of its objects (ServerModule `objects`). */
export interface ObjectResolver {
  /**
   * The object's project scope; several when it spans projects (an export of cases of several
   * projects: the permission must hold in each); null when it does not exist in the caller's tenant.
   */
  scopeOf(handle: TenantHandle, id: string): Promise<AuthorizationScope | AuthorizationScope[] | null>;
  /** Message key of the 404 for an unknown object (params: {id}). */
  notFound: string;
  /**
   * The collections `scopeOf` reads: when given, the route layer keeps its answers while this
   * process wrote none of them (Store.writeCounter), for at most SCOPE_CACHE_MS, so a route
   * naming an object costs no store read per request.
   */
  collections?: readonly string[];
}

/** Kept object scopes expire after this long (real time): writes by other server instances. */
export const SCOPE_CACHE_MS = KEPT_ANSWER_MS;
type ScopeAnswer = AuthorizationScope | AuthorizationScope[] | null;
const scopeKeepers = new WeakMap<ObjectResolver, ReturnType<typeof answerKeeper<ScopeAnswer>>>();

/**
 * The resolver's answer for the object, kept while its collections are unchanged
 * (ObjectResolver.collections); a kept answer is returned at once (no promise).
 */
function scopeOfObject(
  c: Context<AppEnv>,
  principal: Principal,
  resolver: ObjectResolver,
  id: string,
): ScopeAnswer | Promise<ScopeAnswer> {
  const collections = resolver.collections;
  if (!collections?.length) return resolver.scopeOf(tenantHandle(c), id);
  let keep = scopeKeepers.get(resolver);
  if (!keep) scopeKeepers.set(resolver, (keep = answerKeeper<ScopeAnswer>(collections)));
  // Per resolver: its answer for an id does not depend on the kind it is registered under.
  return keep(c.get('deps').store, principal.tenantId, id, () => resolver.scopeOf(tenantHandle(c), id));
}

export interface RouteInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  ctx: RequestContext;
}

export type RouteHandler<B, Q, P> = (c: Context<AppEnv>, input: RouteInput<B, Q, P>) => unknown;

export interface ModuleRouter {
  route<B = unknown, Q = Record<string, unknown>, P = Record<string, string>>(
    declaration: RouteDeclaration,
    handler: RouteHandler<B, Q, P>,
  ): void;
}

/** A mounted route: what the OpenAPI document is built from. */
export interface RouteRecord {
  module: string;
  /** Full path, Hono syntax, including /api. */
  path: string;
  declaration: RouteDeclaration;
}

export interface RouterOptions {
  jsonBodyLimit: number;
  uploadLimit: number;
  /** Object kinds routes may name in `object`, by kind (collected from the modules). */
  objects?: ReadonlyMap<string, ObjectResolver>;
}

/** A router that mounts routes on `app` under `base` and records them in `records`. */
export function createModuleRouter(
  app: Hono<AppEnv>,
  moduleName: string,
  base: string,
  records: RouteRecord[],
  options: RouterOptions,
): ModuleRouter {
  return {
    route(declaration, handler) {
      const path = `${base}${declaration.path === '/' ? '' : declaration.path}` || '/';
      if (records.some((r) => r.path === path && r.declaration.method === declaration.method)) {
        throw new Error(`route ${declaration.method.toUpperCase()} ${path} is declared twice`);
      }
      if (declaration.object && (!declaration.permission || !path.includes(`:${declaration.object.param}`))) {
        throw new Error(
          `route ${declaration.method.toUpperCase()} ${path}: object needs a permission and its path parameter`,
        );
      }
      if (declaration.bodyProject && declaration.body === undefined) {
        throw new Error(`route ${declaration.method.toUpperCase()} ${path}: bodyProject needs a body`);
      }
      records.push({ module: moduleName, path, declaration });
      const middleware: MiddlewareHandler<AppEnv>[] = [];
      if (declaration.method !== 'get' && declaration.method !== 'delete') {
        const limit = declaration.upload
          ? Math.min(declaration.upload.maxBytes ?? options.uploadLimit, options.uploadLimit)
          : (declaration.bodyLimit ?? options.jsonBodyLimit);
        middleware.push(
          limitBody(limit, declaration.upload ? 'server.uploadTooLarge' : 'common.payloadTooLarge'),
        );
      }
      app.on(
        [declaration.method.toUpperCase()],
        [path],
        ...middleware,
        routeHandler(declaration, handler, options.objects),
      );
    },
  };
}

function limitBody(maxSize: number, messageKey: string): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw new AppError(Code.payloadTooLarge, messageKey, { limit: formatBytes(maxSize) }, 413);
    },
  });
  return limit as unknown as MiddlewareHandler<AppEnv>;
}

/**
 * True when the caller holds the permission by the authenticator's `authorize` - in `scope`'s
 * project when given (the object's own), else in the request's context. Fails closed without an
 * authorizer. Route plumbing; services ask their `Caller` (`caller.authorize`).
 */
export async function callerMay(
  c: Context<AppEnv>,
  permission: string,
  scope?: AuthorizationScope,
): Promise<boolean> {
  return callerOf(c).authorize(permission, scope);
}

/** An object of no project at all: only tenant administrators. */
const NO_PROJECT: readonly AuthorizationScope[] = Object.freeze([Object.freeze({ projectId: null })]);

/**
 * Whether the authenticator's `authorize` lets the caller hold the permission, in `scope`'s project
 * when given, else in the request's context (as `Caller.authorize`, without building a Caller).
 * Fails closed without an authorizer. A boolean at once when the authorizer has one.
 */
function mayNow(
  c: Context<AppEnv>,
  principal: Principal,
  permission: string,
  scope: AuthorizationScope | undefined,
): boolean | Promise<boolean> {
  const authenticator = c.get('authenticator');
  if (!authenticator?.authorize) return false;
  const context: AuthorizationContext = { projectId: c.get('ctx').projectId };
  const held = scope
    ? authenticator.authorize(principal, permission, context, scope)
    : authenticator.authorize(principal, permission, context);
  return isPromiseLike(held) ? Promise.resolve(held).then((answer) => answer === true) : held === true;
}

/** Refuses (403) unless the caller holds the permission in every scope, in order. */
function requireInScopes(
  c: Context<AppEnv>,
  principal: Principal,
  permission: string,
  scopes: readonly AuthorizationScope[],
  from = 0,
): void | Promise<void> {
  for (let i = from; i < scopes.length; i++) {
    const held = mayNow(c, principal, permission, scopes[i]);
    if (held === true) continue;
    if (held === false) throw errors.forbidden();
    return held.then((answer) => {
      if (!answer) throw errors.forbidden();
      return requireInScopes(c, principal, permission, scopes, i + 1);
    });
  }
}

/**
 * A route's authorization, planned once when the route is mounted: the caller, then the
 * permission - in the project of the object the route names (404 when unknown), else in the
 * request's context. Runs without an await while the session, tenant, grants and object scope are
 * kept in memory; every check still runs on every request.
 */
function routeGuard(
  declaration: RouteDeclaration,
  objects: ReadonlyMap<string, ObjectResolver> | undefined,
): ((c: Context<AppEnv>) => void | Promise<void>) | null {
  const auth = declaration.auth ?? 'required';
  if (auth !== 'required') return null;
  const permission = declaration.permission;
  if (!permission) return (c) => void requirePrincipal(c);
  const object = declaration.object;
  if (!object) {
    return (c) => {
      const held = mayNow(c, requirePrincipal(c), permission, undefined);
      if (held === false) throw errors.forbidden();
      if (held !== true)
        return held.then((answer) => {
          if (!answer) throw errors.forbidden();
        });
    };
  }
  const resolver = objects?.get(object.kind);
  const checkScope = (c: Context<AppEnv>, principal: Principal, scope: ScopeAnswer, id: string) => {
    if (!scope) throw errors.notFound(resolver!.notFound, { id });
    if (!Array.isArray(scope)) return requireInScopes(c, principal, permission, [scope]);
    return requireInScopes(c, principal, permission, scope.length ? scope : NO_PROJECT);
  };
  return (c) => {
    const principal = requirePrincipal(c);
    // Fail closed: an object kind no mounted module resolves cannot be authorized.
    if (!resolver) throw errors.forbidden();
    const id = c.req.param(object.param) ?? '';
    if (!id) throw errors.notFound(resolver.notFound, { id });
    const scope = scopeOfObject(c, principal, resolver, id);
    return isPromiseLike(scope)
      ? Promise.resolve(scope).then((answer) => checkScope(c, principal, answer, id))
      : checkScope(c, principal, scope, id);
  };
}

/** RouteDeclaration.bodyProject's check, on the parsed (not yet validated) body. */
async function checkBodyProject(
  c: Context<AppEnv>,
  declared: BodyProject,
  body: unknown,
  objects: ReadonlyMap<string, ObjectResolver> | undefined,
): Promise<void> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const id = (body as Record<string, unknown>)[declared.property];
  if (typeof id !== 'string' || !id) return;
  const resolver = objects?.get(PROJECT_KIND);
  // Fail closed: without the project kind nobody can tell the project exists.
  if (!resolver) throw errors.forbidden();
  await requireInProject(callerOf(c), resolver, id, declared.permission, declared.membership);
}

/**
 * Refuses unless the project exists in the caller's tenant (the resolver's 404) and the caller
 * holds the permission in it (403, `refusal` its message key): a project a body or query names,
 * checked in that project, never in the projectId header's.
 */
export async function requireInProject(
  caller: Caller,
  resolver: ObjectResolver,
  projectId: string,
  permission: string,
  membership: 'required' | 'optional',
  refusal?: string,
): Promise<void> {
  if (!(await resolver.scopeOf(caller.tenant, projectId)))
    throw errors.notFound(resolver.notFound, { id: projectId });
  if (!(await caller.authorize(permission, { projectId, membership }))) throw errors.forbidden(refusal);
}

function routeHandler<B, Q, P>(
  declaration: RouteDeclaration,
  handler: RouteHandler<B, Q, P>,
  objects: ReadonlyMap<string, ObjectResolver> | undefined,
) {
  const validateBody: Validator | null =
    declaration.body !== undefined ? compileValidator(declaration.body, 'body') : null;
  const validateQuery: Validator | null =
    declaration.query !== undefined ? compileValidator(declaration.query, 'text') : null;
  const validateParams: Validator | null =
    declaration.params !== undefined ? compileValidator(declaration.params, 'text') : null;
  const auth = declaration.auth ?? 'required';
  const filterBody = takesFilterBody(declaration);
  const guard = routeGuard(declaration, objects);

  const answer = (c: Context<AppEnv>, result: unknown): Response =>
    result instanceof Response ? result : ok(c, result === undefined ? null : result);

  const respondWith = async (c: Context<AppEnv>, params: Record<string, string>, query: unknown) => {
    const body = await readJsonBody(c);
    if (filterBody) refuseOperatorKeys(body, 'body');
    if (declaration.bodyProject && auth === 'required')
      await checkBodyProject(c, declaration.bodyProject, body, objects);
    validateBody!(body);
    const ctx = c.get('ctx');
    return answer(c, await handler(c, { body: body as B, query: query as Q, params: params as P, ctx }));
  };

  // Without a body and with a handler that answers at once, no await is spent here.
  const respond = (c: Context<AppEnv>): Response | Promise<Response> => {
    const params: Record<string, string> = c.req.param() as Record<string, string>;
    validateParams?.(params);
    const query = parseQuery(new URL(c.req.url).searchParams);
    refuseOperatorKeys(query, 'query');
    validateQuery?.(query);
    if (validateBody) return respondWith(c, params, query);
    const ctx = c.get('ctx');
    const result = handler(c, { body: undefined as B, query: query as Q, params: params as P, ctx });
    return isPromiseLike(result)
      ? Promise.resolve(result).then((value) => answer(c, value))
      : answer(c, result);
  };

  return (c: Context<AppEnv>): Response | Promise<Response> => {
    const pending = guard?.(c);
    return pending ? pending.then(() => respond(c)) : respond(c);
  };
}

/** Reads and parses the JSON body; malformed JSON is a 400 with the parser's reason. */
export async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  const contentType = c.req.header('content-type');
  if (contentType && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    throw new AppError(Code.unsupportedMediaType, 'common.unsupportedMediaType', { type: contentType }, 415);
  }
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (error) {
    throw errors.badRequest('common.malformedJson', { detail: (error as Error).message });
  }
  // Validation, the store and audit walk documents recursively: a deep one would overflow the stack.
  if (jsonDepth(parsed) > MAX_JSON_DEPTH)
    throw errors.badRequest('common.malformedJson', { detail: `nested deeper than ${MAX_JSON_DEPTH}` });
  return parsed;
}

/** No document of the platform nests anywhere near this deep (a case is about 8 levels). */
export const MAX_JSON_DEPTH = 64;

/** How deep arrays and objects nest in a parsed value (iterative: safe on any input). */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, level]);
  }
  return deepest;
}
