/**
 * Starts a full server process: data directory, store, collections, seeds, schedules, job runner,
 * HTTP on one port; and stops it cleanly. main.ts calls it with the environment; tests call it
 * with a temporary data directory.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { createPlatform } from './app';
import type { Platform } from './app';
import { JobRunner } from './jobs';
import type { JobRunnerOptions } from './jobs';
import { openStore } from './store';
import { openFileStore } from './files';
import type { AppConfig, ModuleDeps, ServerModule } from './http';
import type { Logger } from './http';
import { stdoutLogger } from './http';
import { describeError } from './http';

export interface ServerOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  dataDir: string;
  mongodbUri?: string;
  modules?: ServerModule[];
  config?: Partial<AppConfig>;
  logger?: Logger;
  jobs?: JobRunnerOptions & { enabled?: boolean };
}

export interface RunningServer {
  url: string;
  port: number;
  platform: Platform;
  runner: JobRunner | null;
  close(): Promise<void>;
}

/** Seeds every module (idempotent by contract) and puts declared schedules in place when missing. */
export async function prepare(platform: Platform): Promise<void> {
  await platform.ready();
  for (const module of platform.modules) {
    if (!module.seed) continue;
    platform.deps.log({ level: 'info', msg: 'seed', module: module.name });
    await module.seed(platform.deps);
  }
  const existing = new Set((await platform.deps.jobs.listSchedules()).map((s) => s._id));
  for (const module of platform.modules) {
    for (const schedule of module.schedules ?? []) {
      if (!existing.has(schedule.name)) await platform.deps.jobs.schedule(schedule);
    }
  }
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const log = options.logger ?? stdoutLogger;
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const store = await openStore({ dataDir, mongodbUri: options.mongodbUri || undefined });
  const mongodbUri = options.mongodbUri || undefined;
  const files = await openFileStore(store, { dataDir, mongodbUri });
  const platform = createPlatform({
    store,
    files,
    modules: options.modules,
    config: options.config,
    logger: log,
  });
  await prepare(platform);

  const runner =
    options.jobs?.enabled === false
      ? null
      : new JobRunner(platform.deps as ModuleDeps, platform.jobDefinitions, options.jobs);
  runner?.start();

  const server: ServerType = await new Promise((resolveServer, reject) => {
    const s = serve({ fetch: platform.app.fetch, port: options.port, hostname: options.host }, () =>
      resolveServer(s),
    );
    s.once('error', reject);
  });
  // Node closes an idle kept-alive connection after 5 s; a client sending on it at that moment gets
  // ECONNRESET (browsers and API clients reuse connections for longer). Idle connections stay open
  // a minute, longer than the common proxies' and clients' idle limits; headers must outlast it.
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host && options.host !== '0.0.0.0' ? options.host : 'localhost'}:${port}`;
  // Without PV_PUBLIC_URL, links in messages point at this server as started (development).
  if (!options.config?.publicUrl) platform.deps.config.publicUrl = url;
  log({
    level: 'info',
    msg: 'listening',
    url,
    backend: store.backend,
    dataDir,
    version: platform.deps.config.version,
    store: store.capabilities,
  });
  if (!store.capabilities.transactions) {
    log({
      level: 'warn',
      msg: 'the store has no transactions: a write and its audit entry are not committed together (store/README.md)',
      server: `${store.capabilities.serverKind} ${store.capabilities.serverVersion}`,
    });
  }

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    platform,
    runner,
    close: () =>
      (closing ??= (async () => {
        // Stop taking requests first, then let running jobs finish, then close the store.
        await new Promise<void>((done) => server.close(() => done()));
        await runner?.stop();
        await files.close();
        await store.close();
        log({ level: 'info', msg: 'stopped' });
      })().catch((error: unknown) => {
        log({ level: 'error', msg: 'shutdown failed', error: describeError(error) });
        throw error;
      })),
  };
}
