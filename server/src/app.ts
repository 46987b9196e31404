/**
 * createApp: the Hono application with every module mounted under /api, the envelope and error
 * rules, the request context, /health, /api/openapi.json and the built web app.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import type { Translator } from './i18n';
import { createTranslator } from './i18n';
import type { AppEnv, Authenticator } from './http';
import { envelope, Code } from './http';
import { handleError } from './http';
import type { Logger } from './http';
import { stdoutLogger } from './http';
import { authenticationMiddleware, requestContextMiddleware, securityHeadersMiddleware } from './http';
import type { AppConfig, Clock, ModuleDeps, ServerModule } from './http';
import { beginMounting, modulePrefix, systemClock } from './http';
import type { ObjectResolver, RouteRecord } from './http';
import { PROJECT_KIND, createModuleRouter } from './http';
import { projectObject } from './projects';
import { serveWebApp } from './http';
import { healthRoutes } from './health';
import { buildOpenApi } from './openapi';
import { jobsModule } from './jobs';
import { uploadsModule } from './uploads';
import { createJobQueue } from './jobs';
import type { JobDefinition } from './jobs';
import { modules as registeredModules } from './modules';
import type { Store } from './store';
import type { FileStoreLike } from './uploads';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const VERSION: string = (
  JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string }
).version;

export const defaultConfig: AppConfig = {
  version: VERSION,
  jsonBodyLimit: 4 * 1024 * 1024,
  uploadLimit: 200 * 1024 * 1024,
  webDist: `${ROOT}web/dist`,
  publicUrl: 'http://localhost:3000',
  trustedProxies: [],
};

/** Modules every server runs, whatever the domain module list holds. */
export const platformModules: ServerModule[] = [jobsModule, uploadsModule];

export interface CreateAppOptions {
  store: Store;
  files?: FileStoreLike | null;
  clock?: Clock;
  config?: Partial<AppConfig>;
  /** Domain modules; defaults to server/src/modules.ts. The platform modules are always added. */
  modules?: ServerModule[];
  /** Overrides the authenticator a module supplies (tests). */
  authenticator?: Authenticator | null;
  logger?: Logger;
  translator?: Translator;
}

export interface Platform {
  app: Hono<AppEnv>;
  deps: ModuleDeps;
  modules: ServerModule[];
  routes: RouteRecord[];
  jobDefinitions: Map<string, JobDefinition>;
  /** Resolves once every module's collections are declared in the store. */
  ready(): Promise<void>;
}

export function createPlatform(options: CreateAppOptions): Platform {
  const config: AppConfig = { ...defaultConfig, ...options.config };
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? stdoutLogger;
  const translator = options.translator ?? createTranslator();
  const modules = [...platformModules, ...(options.modules ?? registeredModules)];
  beginMounting();
  const names = new Set<string>();
  for (const module of modules) {
    if (names.has(module.name)) throw new Error(`module ${module.name} is mounted twice`);
    names.add(module.name);
  }

  const jobDefinitions = new Map<string, JobDefinition>();
  for (const module of modules) {
    for (const job of module.jobs ?? []) {
      if (jobDefinitions.has(job.type)) throw new Error(`job type ${job.type} is registered twice`);
      jobDefinitions.set(job.type, job as JobDefinition);
    }
  }

  const deps: ModuleDeps = {
    store: options.store,
    files: options.files ?? null,
    clock,
    config,
    jobs: createJobQueue(
      options.store,
      clock,
      (type) => jobDefinitions.get(type),
      () => jobDefinitions.values(),
    ),
    translator,
    log,
    // health is mounted by createApp itself, beside the modules.
    modules: ['health', ...modules.map((module) => module.name)],
  };

  const suppliers = modules.filter((module) => module.authenticator);
  if (suppliers.length > 1)
    throw new Error(
      `only one module may supply the authenticator (${suppliers.map((m) => m.name).join(', ')})`,
    );
  const authenticator =
    options.authenticator !== undefined
      ? options.authenticator
      : (suppliers[0]?.authenticator?.(deps) ?? null);
  // Callers outside a request (a job's) ask the same authenticator, without a context project.
  deps.authenticator = authenticator;

  let declared: Promise<void> | null = null;
  const ready = () =>
    (declared ??= (async () => {
      for (const module of modules) {
        for (const collection of module.collections ?? []) await options.store.define(collection);
      }
    })().catch((error: unknown) => {
      declared = null;
      throw error;
    }));

  const app = new Hono<AppEnv>();
  app.use('*', requestContextMiddleware(deps, translator, log, authenticator));
  app.use('*', securityHeadersMiddleware());
  app.use('*', async (c, next) => {
    if (c.req.path.startsWith('/api/') || c.req.path === '/health') await ready();
    await next();
  });
  app.use('/api/*', authenticationMiddleware(authenticator));
  for (const module of modules) {
    const middleware = module.middleware?.(deps);
    if (middleware) app.use('/api/*', middleware);
  }

  // Projects are named by many modules' routes (`:projectId`): the platform resolves them.
  const objects = new Map<string, ObjectResolver>([[PROJECT_KIND, projectObject]]);
  for (const module of modules) {
    for (const [kind, resolver] of Object.entries(module.objects ?? {})) {
      if (objects.has(kind)) throw new Error(`object kind ${kind} is registered twice`);
      objects.set(kind, resolver);
    }
  }
  const records: RouteRecord[] = [];
  const routerOptions = { jsonBodyLimit: config.jsonBodyLimit, uploadLimit: config.uploadLimit, objects };
  healthRoutes(createModuleRouter(app, 'health', '', records, routerOptions), deps);
  for (const module of modules) {
    module.routes?.(
      createModuleRouter(app, module.name, `/api${modulePrefix(module)}`, records, routerOptions),
      deps,
    );
  }
  const openapi = buildOpenApi(records, { title: 'Pharmacovigilance platform API', version: config.version });
  createModuleRouter(app, 'platform', '/api', records, routerOptions).route(
    {
      method: 'get',
      path: '/openapi.json',
      summary: 'This OpenAPI 3.1 document',
      auth: 'none',
      download: true,
    },
    (c) => c.json(openapi),
  );

  const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/') || path === '/health';
  if (config.webDist) app.use('*', serveWebApp(config.webDist, isApiPath));

  app.notFound((c) =>
    envelope(c, Code.notFound, 'common.routeNotFound', null, {
      params: { method: c.req.method, path: c.req.path },
      status: 404,
    }),
  );
  app.onError(handleError);

  return { app, deps, modules, routes: records, jobDefinitions, ready };
}

/** The Hono app; tests drive it with `app.request(...)`. */
export function createApp(options: CreateAppOptions): Hono<AppEnv> {
  return createPlatform(options).app;
}
