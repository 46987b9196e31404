/**
 * `data export --out <dir>` and `data import --from <dir>`: every collection (all tenants, the
 * audit trail included, revisions and store fields kept) as JSONL, and every file by sha256.
 * The store is the one DATA_DIR / MONGODB_URI select, so exporting from the embedded store and
 * importing with MONGODB_URI set moves a deployment to MongoDB.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openFileStore } from '../../../server/src/files';
import type { FileStore } from '../../../server/src/files';
import { AUDIT_COLLECTION, openStore } from '../../../server/src/store';
import type { CollectionDefinition, OpenedStore, StoredDoc } from '../../../server/src/store';

export const summary =
  'export --out <dir> | import --from <dir>: copy every collection and file of the store (DATA_DIR / MONGODB_URI)';

const FORMAT = 'pv-data-export';
const BATCH = 500;

interface Manifest {
  format: typeof FORMAT;
  version: 1;
  exportedAt: string;
  backend: string;
  collections: { definition: CollectionDefinition; count: number; file: string }[];
  files: { fileId: string; size: number }[];
}

type Env = Record<string, string | undefined>;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function openBoth(env: Env): Promise<{ store: OpenedStore; files: FileStore }> {
  const dataDir = env.DATA_DIR || './data';
  const mongodbUri = env.MONGODB_URI || undefined;
  const store = await openStore({ dataDir, mongodbUri });
  const files = await openFileStore(store, { dataDir, mongodbUri });
  return { store, files };
}

export async function run(args: string[], env: Env = process.env): Promise<number> {
  const [action] = args;
  if (action === 'export') {
    const out = option(args, '--out');
    if (!out) return usage('data export needs --out <dir>');
    if (existsSync(out) && readdirSync(out).length > 0)
      return usage(`${out} is not empty; export into a new directory`);
    await exportData(out, env);
    return 0;
  }
  if (action === 'import') {
    const from = option(args, '--from');
    if (!from) return usage('data import needs --from <dir>');
    await importData(from, env);
    return 0;
  }
  return usage('usage: data export --out <dir> | data import --from <dir>');
}

function usage(message: string): number {
  console.error(message);
  return 2;
}

export async function exportData(out: string, env: Env): Promise<Manifest> {
  const { store, files } = await openBoth(env);
  try {
    mkdirSync(join(out, 'collections'), { recursive: true });
    mkdirSync(join(out, 'files'), { recursive: true });
    const maintenance = store.maintenance();
    const manifest: Manifest = {
      format: FORMAT,
      version: 1,
      exportedAt: new Date().toISOString(),
      backend: store.backend,
      collections: [],
      files: [],
    };
    for (const definition of await maintenance.definitions()) {
      const file = `collections/${definition.name}.jsonl`;
      const stream = createWriteStream(join(out, file));
      let count = 0;
      for await (const doc of maintenance.scan(definition.name)) {
        if (!stream.write(`${JSON.stringify(doc)}\n`)) await once(stream, 'drain');
        count++;
      }
      stream.end();
      await once(stream, 'finish');
      manifest.collections.push({ definition, count, file });
      console.error(`exported ${definition.name}: ${count} documents`);
    }
    for await (const fileId of files.blobs.list()) {
      const target = createWriteStream(join(out, 'files', fileId));
      (await files.blobs.get(fileId)).pipe(target);
      await once(target, 'finish');
      manifest.files.push({ fileId, size: (await files.blobs.size(fileId)) ?? 0 });
    }
    console.error(`exported ${manifest.files.length} files`);
    // The manifest is written last: its presence marks a complete export.
    await writeFile(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    await files.close();
    await store.close();
  }
}

export async function importData(from: string, env: Env): Promise<void> {
  const manifest = JSON.parse(await readFile(join(from, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.format !== FORMAT || manifest.version !== 1)
    throw new Error(`${from} is not a data export (manifest.json format ${manifest.format})`);
  const { store, files } = await openBoth(env);
  try {
    const maintenance = store.maintenance();
    // Refuse to mix an export into a store that already holds data: nothing would be merged sanely.
    for (const { definition } of manifest.collections) {
      const existing = (await maintenance.definitions()).some((d) => d.name === definition.name);
      if (existing && (await maintenance.countAllTenants(definition.name)) > 0) {
        throw new Error(
          `the target store already holds documents in ${definition.name}; import into an empty store`,
        );
      }
    }
    for (const { definition, count, file } of manifest.collections) {
      if (definition.name !== AUDIT_COLLECTION) await store.define(definition);
      let batch: StoredDoc[] = [];
      let imported = 0;
      const lines = createInterface({ input: createReadStream(join(from, file)), crlfDelay: Infinity });
      for await (const line of lines) {
        if (!line) continue;
        batch.push(JSON.parse(line) as StoredDoc);
        if (batch.length >= BATCH) {
          await maintenance.restore(definition.name, batch);
          imported += batch.length;
          batch = [];
        }
      }
      if (batch.length) await maintenance.restore(definition.name, batch);
      imported += batch.length;
      if (imported !== count) throw new Error(`${file}: expected ${count} documents, read ${imported}`);
      console.error(`imported ${definition.name}: ${imported} documents`);
    }
    for (const { fileId, size } of manifest.files) {
      const stored = await files.blobs.put(createReadStream(join(from, 'files', fileId)), Math.max(size, 1));
      if (stored.sha256 !== fileId)
        throw new Error(`file ${fileId} is corrupt in the export (content hashes to ${stored.sha256})`);
    }
    console.error(`imported ${manifest.files.length} files`);
  } finally {
    await files.close();
    await store.close();
  }
}
