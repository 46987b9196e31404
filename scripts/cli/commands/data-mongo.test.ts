/**
 * Moving a deployment between backends: a demo-seeded embedded store is exported with
 * `data export` and imported with `data import` into MongoDB (MONGODB_URI, a fresh database);
 * every collection is compared document by document and every file by its sha256. Runs when
 * MONGODB_URI is set (the test command sets it to its FerretDB peer).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileStore } from '../../../server/src/files';
import type { FileStore } from '../../../server/src/files';
import { silentLogger } from '../../../server/src/http/log';
import { startServer } from '../../../server/src/server';
import { openStore } from '../../../server/src/store';
import type { OpenedStore, StoredDoc } from '../../../server/src/store';
import { run } from './data';

const uri = process.env.MONGODB_URI;
const dirs: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `pv-move-${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function everything(store: OpenedStore): Promise<Record<string, StoredDoc[]>> {
  const out: Record<string, StoredDoc[]> = {};
  const maintenance = store.maintenance();
  for (const def of await maintenance.definitions()) {
    out[def.name] = [];
    for await (const doc of maintenance.scan(def.name, 200)) out[def.name]!.push(doc);
  }
  return out;
}

async function fileHashes(files: FileStore): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const fileId of files.blobs.list()) {
    const hash = createHash('sha256');
    for await (const chunk of await files.blobs.get(fileId)) hash.update(chunk as Buffer);
    out[fileId] = hash.digest('hex');
  }
  return out;
}

describe.skipIf(!uri)('data export from the embedded store, import into MongoDB', () => {
  it('carries every collection document by document and every file by sha256', async () => {
    const source = temp('source');
    // The demo seed: tenants, accounts, projects, cases with their audit trail, schedules.
    const server = await startServer({
      port: 0,
      dataDir: source,
      logger: silentLogger,
      jobs: { enabled: false },
      config: { webDist: null },
    });
    await server.close();
    const store = await openStore({ dataDir: source });
    const files = await openFileStore(store, { dataDir: source });
    const tenant = (await store.platform({ userId: 'test' }).collection('tenants').findOne({}))!;
    await files
      .forTenant(store.tenant(tenant._id, { userId: 'test' }))
      .putStream(Readable.from([Buffer.from('附件 attachment bytes\n'.repeat(1000))]), {
        fileName: 'a.txt',
        contentType: 'text/plain',
        maxBytes: 1 << 20,
        owner: { kind: 'upload', id: 'move-test' },
      });
    const before = await everything(store);
    const beforeFiles = await fileHashes(files);
    await files.close();
    await store.close();
    expect(Object.keys(before).length).toBeGreaterThan(10);
    expect(Object.keys(beforeFiles).length).toBeGreaterThan(0);

    const dump = join(temp('dump'), 'export');
    expect(await run(['export', '--out', dump], { DATA_DIR: source })).toBe(0);
    const target = new URL(uri!);
    target.pathname = `/pv_move_${randomUUID().replace(/-/g, '')}`;
    const env = { MONGODB_URI: target.toString(), DATA_DIR: temp('unused') };
    expect(await run(['import', '--from', dump], env)).toBe(0);

    const copy = await openStore({ dataDir: env.DATA_DIR, mongodbUri: env.MONGODB_URI });
    const copiedFiles = await openFileStore(copy, { dataDir: env.DATA_DIR, mongodbUri: env.MONGODB_URI });
    try {
      expect(copy.backend).toBe('mongodb');
      const after = await everything(copy);
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
      for (const name of Object.keys(before)) {
        expect({ name, count: after[name]!.length }).toEqual({ name, count: before[name]!.length });
        expect(after[name], name).toEqual(before[name]);
      }
      expect(await fileHashes(copiedFiles)).toEqual(beforeFiles);
      for (const [fileId, sha256] of Object.entries(beforeFiles)) expect(sha256).toBe(fileId);
    } finally {
      await copiedFiles.close();
      await copy.close();
    }
  }, 300_000);
});
