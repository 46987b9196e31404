/**
 * The module system. A module is a folder `server/src/<module>/` whose index exports
 * `defineModule({...})`: its collections, its routes (mounted under `/api/<prefix>`), its seed
 * step and its job handlers. `server/src/modules.ts` lists the modules the server runs.
 */
import type { Translator } from '../i18n';
import type { CollectionDefinition, FileStore, Store } from '../store';
import type { JobDefinition, JobQueue, ScheduleDeclaration } from './jobs';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Authenticator } from './context';
import type { Logger } from './log';
import type { ModuleRouter, ObjectResolver } from './route';
import type { Clock } from '../clock';

// The clock lives in its own module (the only reader of the wall clock); re-exported for modules.
export type { Clock } from '../clock';
export { systemClock } from '../clock';

export interface AppConfig {
  /** Product version reported by /health and the OpenAPI document. */
  version: string;
  /** Largest JSON request body accepted, in bytes. */
  jsonBodyLimit: number;
  /** Largest upload accepted, in bytes (a route may declare a smaller one). */
  uploadLimit: number;
  /** Folder of the built web app (web/dist); null serves no web app. */
  webDist: string | null;
  /**
   * The address users reach the platform at (PV_PUBLIC_URL, no trailing slash): links in messages
   * are built from it, never from the request's Host header; https turns HSTS on.
   */
  publicUrl: string;
  /** Peers whose X-Forwarded-For is believed (PV_TRUSTED_PROXIES: IPs and CIDRs); none by default. */
  trustedProxies: string[];
}

/** What a module's routes, seed and jobs are given. */
export interface ModuleDeps {
  store: Store;
  files: FileStore | null;
  clock: Clock;
  config: AppConfig;
  jobs: JobQueue;
  translator: Translator;
  log: Logger;
  /**
   * The platform's authenticator, for callers outside a request (a job's caller asks it their
   * permissions, with no request context). Absent: such callers hold nothing (fail closed).
   */
  authenticator?: Authenticator | null;
  /**
   * Names of the modules this platform mounts (createPlatform's registry, the platform's own
   * modules and health included): a module asks here instead of importing the module list.
   */
  modules: readonly string[];
}

export interface ServerModule {
  /** Folder name; also the default URL prefix and the OpenAPI tag. */
  name: string;
  /**
   * The modules this one imports (their index.ts), by folder name: the module map of
   * server/README.md. server/src/modules.test.ts keeps it equal to the imports.
   */
  dependsOn?: readonly string[];
  /** URL prefix under /api; defaults to `/<name>`. Use '' to declare full paths (e.g. `/system/...`). */
  prefix?: string;
  /** Collections the module owns; declared in the store before the first request. */
  collections?: CollectionDefinition[];
  routes?(router: ModuleRouter, deps: ModuleDeps): void;
  /**
   * The kinds of object this module owns that routes may name in `object` (e.g. `case`): each
   * resolver answers the object's project, so permissions are checked in that project.
   */
  objects?: Record<string, ObjectResolver>;
  /** Idempotent: runs at every start (main.ts and `npm start`). */
  seed?(deps: ModuleDeps): Promise<void>;
  /** Job handlers this module registers with the runner. */
  jobs?: JobDefinition[];
  /** Cron schedules the module wants in place (created when missing, left alone when edited). */
  schedules?: ScheduleDeclaration[];
  /** The identity module supplies the authenticator; at most one module may. */
  authenticator?(deps: ModuleDeps): Authenticator;
  /** Middleware on every /api request, after authentication (e.g. the user operation log). */
  middleware?(deps: ModuleDeps): MiddlewareHandler<AppEnv>;
}

export function defineModule<M extends ServerModule>(module: M): M {
  if (!/^[a-z][a-zA-Z0-9-]*$/.test(module.name)) {
    throw new Error(`module name "${module.name}" must be a lower-case folder name`);
  }
  return module;
}

export function modulePrefix(module: ServerModule): string {
  const prefix = module.prefix ?? `/${module.name}`;
  return prefix === '/' ? '' : prefix.replace(/\/$/, '');
}
