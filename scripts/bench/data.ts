/**
 * The large data sets the benchmarks measure on (queries, submissions, case-list): N cases' documents
 * spread over tenants, the first tenant holding a share of them, each tenant with its project and
 * its members, written into an embedded store that is kept under bench-data/ for the next run.
 *
 * The cache folder is bench-data/<name>-<total>-<key>/, the key a hash of what the builder makes:
 * the parameters, the projects and members, a sample of every tenant's documents generated with a
 * fixed day, and this file's own text. A change to a bench's generator, to the demo factories it
 * calls or to this builder gives another key, so the data is generated again instead of a stale
 * store being reused; the older folders of the same bench and size are then removed. A store is
 * built in a folder of its own and renamed into place when complete, so two runs at once do not
 * write into one file. Index declarations are not in the key: the store adds a declared index to
 * an existing file when it opens it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { createPlatform } from '../../server/src/app';
import type { Platform } from '../../server/src/app';
import { silentLogger } from '../../server/src/http/log';
import type { Authenticator, ServerModule } from '../../server/src/http';
import { openStore } from '../../server/src/store/index';
import type { CollectionDefinition, OpenedStore } from '../../server/src/store/index';
import { accessCollections } from '../../server/src/access';
import { tenancyCollections } from '../../server/src/tenancy';
import { usersCollections } from '../../server/src/users';
import { configurationCollections } from '../../server/src/configuration';
import { C, caseCollections } from '../../server/src/cases/collections';
import { demoProject, TENANT_PERMISSIONS } from '../../server/src/cases/testing';
import type { Project } from '../../server/src/cases/projects';

/** The benchmarks' pseudo-random numbers in [0, 1): a fixed sequence per seed. */
export const seededRandom = (seed: number) => () =>
  (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

/** Bearer `<tenant>:<user>` is that user with every tenant permission; project membership is read from the store. */
export const tokenAuthenticator: Authenticator = {
  authenticate: async (token) => {
    const [tenantId, userId] = token.split(':');
    return tenantId && userId ? { tenantId, userId, name: userId } : null;
  },
  authorize: (_principal, permission) => TENANT_PERMISSIONS.includes(permission),
};

/** Documents by collection name, written in this order. */
export type Documents = Record<string, readonly object[]>;

export interface TenantContext {
  tenant: string;
  tenantIndex: number;
  /** The tenant's number of cases. */
  count: number;
  project: Project & { _id: string };
  /** The day the data is generated on (a fixed day for the key's sample). */
  today: Date;
  /** The builder's one sequence, in the order the documents are generated. */
  random: () => number;
}

export interface BenchDataSpec {
  /** Names the cache folder. */
  name: string;
  /** Cases over all tenants. */
  total: number;
  /** The first one is the tenant the benchmark reads. */
  tenants: readonly string[];
  /** The first tenant's share of the cases; the others split the rest evenly. */
  share: number;
  projectOf: (tenant: string) => string;
  /** Users made members of each tenant's project (no roles: the token authenticator grants). */
  members: readonly string[];
  seed: number;
  /** The day the generated dates count from. */
  today: Date;
  /** The documents of case n of a tenant. */
  caseDocuments: (context: TenantContext & { n: number }) => Documents;
  /** Documents written after a tenant's cases. */
  tenantDocuments?: (context: TenantContext) => Documents;
  /** Cases per insertMany. */
  batch: number;
  /** Mounted on the platform; their collections are declared before the data is written. */
  modules: ServerModule[];
  /** Declared besides the modules' own and the cases' and identity collections (BASE_COLLECTIONS). */
  collections?: readonly CollectionDefinition[];
}

export interface BenchData {
  dataDir: string;
  store: OpenedStore;
  platform: Platform;
}

/** Cases, and what an authenticated request reads (tenants, users, access, configuration). */
const BASE_COLLECTIONS = [
  ...caseCollections,
  ...usersCollections,
  ...accessCollections,
  ...tenancyCollections,
  ...configurationCollections,
];
const BENCH_DATA = fileURLToPath(new URL('../../bench-data', import.meta.url));
/** The day the key's sample is generated on, so that the key does not change with the date. */
const SAMPLE_DAY = new Date('2026-01-01T00:00:00Z');
const SAMPLE_CASES = 20;

const countOf = (spec: BenchDataSpec, tenantIndex: number) =>
  tenantIndex === 0
    ? Math.round(spec.total * spec.share)
    : Math.round((spec.total * (1 - spec.share)) / (spec.tenants.length - 1));

const memberOf = (projectId: string, userId: string) => ({
  projectId,
  userId,
  roleIds: [],
  permissionKeys: [],
});

/** The cache key: a hash of the parameters, a sample of the documents and this builder's text. */
export function benchDataKey(spec: BenchDataSpec): string {
  const random = seededRandom(spec.seed);
  const sample = spec.tenants.map((tenant, tenantIndex) => {
    const project = demoProject(spec.projectOf(tenant));
    const context = {
      tenant,
      tenantIndex,
      count: countOf(spec, tenantIndex),
      project,
      today: SAMPLE_DAY,
      random,
    };
    return {
      project,
      members: spec.members.map((userId) => memberOf(project._id, userId)),
      cases: Array.from({ length: Math.min(SAMPLE_CASES, context.count) }, (_, n) =>
        spec.caseDocuments({ ...context, n }),
      ),
      tenant: spec.tenantDocuments?.(context) ?? {},
    };
  });
  const { name, total, tenants, share, seed } = spec;
  return createHash('sha256')
    .update(JSON.stringify({ name, total, tenants, share, seed, sample }))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex')
    .slice(0, 12);
}

async function openPlatform(spec: BenchDataSpec, dataDir: string): Promise<BenchData> {
  const store = await openStore({ dataDir });
  const platform = createPlatform({
    store,
    modules: spec.modules,
    authenticator: tokenAuthenticator,
    logger: silentLogger,
    config: { webDist: null },
  });
  await platform.ready();
  for (const definition of [...BASE_COLLECTIONS, ...(spec.collections ?? [])]) await store.define(definition);
  return { dataDir, store, platform };
}

async function write(spec: BenchDataSpec, store: OpenedStore): Promise<void> {
  const started = performance.now();
  const random = seededRandom(spec.seed);
  const insert = async (handle: ReturnType<OpenedStore['tenant']>, documents: Documents) => {
    for (const [name, docs] of Object.entries(documents))
      if (docs.length) await handle.collection(name).insertMany(docs as Record<string, unknown>[]);
  };
  for (const [tenantIndex, tenant] of spec.tenants.entries()) {
    const handle = store.tenant(tenant, { userId: 'system:bench' });
    const project = demoProject(spec.projectOf(tenant));
    await handle.collection<Project>(C.projects).insertOne(project);
    for (const userId of spec.members)
      await handle.collection('projectMembers').insertOne(memberOf(project._id, userId));
    const count = countOf(spec, tenantIndex);
    const context: TenantContext = { tenant, tenantIndex, count, project, today: spec.today, random };
    for (let from = 0; from < count; from += spec.batch) {
      const batch: Record<string, object[]> = {};
      for (let n = from; n < Math.min(count, from + spec.batch); n++)
        for (const [name, docs] of Object.entries(spec.caseDocuments({ ...context, n })))
          (batch[name] ??= []).push(...docs);
      await insert(handle, batch);
    }
    if (spec.tenantDocuments) await insert(handle, spec.tenantDocuments(context));
    console.log(`${tenant}: ${count} cases (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  console.log(`generated ${spec.total} cases in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The benchmark's store with its data (generated now unless the cache holds it) and a platform on
 * it with the spec's modules and the token authenticator.
 */
export async function openBenchData(spec: BenchDataSpec): Promise<BenchData> {
  const prefix = `${spec.name}-${spec.total}-`;
  const folder = `${prefix}${benchDataKey(spec)}`;
  const dataDir = join(BENCH_DATA, folder);
  if (existsSync(join(dataDir, 'complete'))) {
    console.log(`reusing ${dataDir}`);
    return openPlatform(spec, dataDir);
  }
  const building = `${dataDir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const built = await openPlatform(spec, building);
  await write(spec, built.store);
  await built.store.close();
  writeFileSync(join(building, 'complete'), `${folder}\n`);
  try {
    renameSync(building, dataDir);
  } catch (error) {
    // Another run finished the same data first: use its folder.
    if (!existsSync(join(dataDir, 'complete'))) throw error;
    rmSync(building, { recursive: true, force: true });
  }
  // The older data of this bench and size, and builds a run left behind when it stopped.
  for (const other of readdirSync(BENCH_DATA)) {
    const rest = other.startsWith(prefix) ? other.slice(prefix.length) : '';
    const left = /^[0-9a-f]{12}\.building-(\d+)$/.exec(rest);
    if ((/^[0-9a-f]{12}$/.test(rest) && other !== folder) || (left && !running(Number(left[1]))))
      rmSync(join(BENCH_DATA, other), { recursive: true, force: true });
  }
  return openPlatform(spec, dataDir);
}

/**
 * The floors' reads of a path of a stored collection: `column` is the store's generated column
 * (g_<path>_<hash>, made for a declared index path) and throws without one; `read` falls back to
 * the document's JSON value.
 */
export function storeColumns(
  db: Database.Database,
  table: string,
): { column: (path: string) => string; read: (path: string) => string } {
  const names = db
    .prepare<[], { name: string }>(`SELECT name FROM pragma_table_xinfo('${table}')`)
    .all()
    .map((c) => c.name);
  const generated = (path: string) => {
    const prefix = `g_${path.replace(/\./g, '_').slice(0, 40)}_`;
    const found = names.find((name) => name.startsWith(prefix));
    return found ? `"${found}"` : null;
  };
  return {
    column: (path) => {
      const found = generated(path);
      if (!found) throw new Error(`no column for ${path} in ${table}`);
      return found;
    },
    read: (path) => generated(path) ?? `json_extract(doc, '$.${path}')`,
  };
}
