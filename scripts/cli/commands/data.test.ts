import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileStore } from '../../../server/src/files';
import { openStore } from '../../../server/src/store';
import type { OpenedStore, StoredDoc } from '../../../server/src/store';
import { run } from './data';

const dirs: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `pv-data-${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function everything(store: OpenedStore): Promise<Record<string, StoredDoc[]>> {
  const out: Record<string, StoredDoc[]> = {};
  const maintenance = store.maintenance();
  for (const def of await maintenance.definitions()) {
    out[def.name] = [];
    for await (const doc of maintenance.scan(def.name, 3)) out[def.name]!.push(doc);
  }
  return out;
}

describe('data export / import', () => {
  it('carries every collection, revision, audit entry and file from one data directory to another', async () => {
    const source = temp('source');
    const store = await openStore({ dataDir: source });
    await store.define({
      name: 'cases',
      scope: 'tenant',
      audited: true,
      indexes: [{ fields: { 'drugs.name': 1 } }],
    });
    await store.define({ name: 'tenants', scope: 'platform' });
    await store
      .platform({ userId: 'root' })
      .collection('tenants')
      .insertMany([{ _id: 'A' }, { _id: 'B' }]);
    for (const tenant of ['A', 'B']) {
      const cases = store.tenant(tenant, { userId: `user-${tenant}` }).collection('cases');
      const docs = await cases.insertMany(
        Array.from({ length: 7 }, (_, i) => ({
          reportCode: `${tenant}-${i}`,
          drugs: [{ name: `Drug ${i}` }],
        })),
      );
      await cases.updateOne(
        { _id: docs[0]!._id },
        { $set: { narrative: '叙述 text' } },
        { expectedRev: 1, reason: 'follow-up' },
      );
    }
    const files = await openFileStore(store, { dataDir: source });
    const info = await files
      .forTenant(store.tenant('A', { userId: 'user-A' }))
      .putStream(Readable.from([Buffer.from('attachment bytes')]), {
        fileName: 'a.txt',
        contentType: 'text/plain',
        maxBytes: 1000,
        owner: { kind: 'upload', id: 'user-A' },
      });
    await files.close();
    const before = await everything(store);
    await store.close();

    const dump = join(temp('dump'), 'export');
    expect(await run(['export', '--out', dump], { DATA_DIR: source })).toBe(0);
    expect(await run(['export', '--out', dump], { DATA_DIR: source })).toBe(2);
    const target = temp('target');
    expect(await run(['import', '--from', dump], { DATA_DIR: target })).toBe(0);

    const copy = await openStore({ dataDir: target });
    const after = await everything(copy);
    expect(after).toEqual(before);
    expect(after.audit!.length).toBeGreaterThanOrEqual(17);
    // The copy is a working store: indexes declared, revisions continue.
    const cases = copy.tenant('A', { userId: 'user-A' }).collection('cases');
    expect(await cases.count({ 'drugs.name': 'Drug 3' })).toBe(1);
    const updated = await cases.updateOne(
      { reportCode: 'A-0' },
      { $set: { narrative: 'again' } },
      { expectedRev: 2 },
    );
    expect(updated?.rev).toBe(3);
    const copiedFiles = await openFileStore(copy, { dataDir: target });
    const { stream } = await copiedFiles
      .forTenant(copy.tenant('A', { userId: 'user-A' }))
      .getStream(info.fileId);
    expect(await text(stream)).toBe('attachment bytes');
    await copiedFiles.close();
    await copy.close();

    // Importing twice would mix data: refused, nothing changed.
    await expect(run(['import', '--from', dump], { DATA_DIR: target })).rejects.toThrow(
      /already holds documents/,
    );
    expect(await run(['frobnicate'], {})).toBe(2);
  });
});
