import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store';
import type { OpenedStore } from '../store';
import { FileNotFoundError, FileTooLargeError, openFileStore } from './index';
import type { FileStore } from './index';

describe('file store (directory)', () => {
  let dataDir: string;
  let store: OpenedStore;
  let files: FileStore;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pv-files-'));
    store = await openStore({ dataDir });
    files = await openFileStore(store, { dataDir });
  });
  afterAll(async () => {
    await files.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const a = () => files.forTenant(store.tenant('A', { userId: 'alice' }));
  const b = () => files.forTenant(store.tenant('B', { userId: 'bob' }));
  const body = 'CIOMS I form body '.repeat(1000);
  const sha = createHash('sha256').update(body).digest('hex');
  const upload = { kind: 'upload', id: 'alice' };

  it('stores content-addressed by sha256 and streams it back', async () => {
    const info = await a().putStream(Readable.from([Buffer.from(body)]), {
      fileName: '报告.pdf',
      contentType: 'application/pdf',
      maxBytes: 1 << 20,
      owner: upload,
    });
    expect(info).toMatchObject({
      fileId: sha,
      size: body.length,
      fileName: '报告.pdf',
      contentType: 'application/pdf',
      tenantId: 'A',
      uploadedBy: 'alice',
      owners: [{ kind: 'upload', id: 'alice', addedBy: 'alice' }],
      ownersRecorded: true,
    });
    const { info: got, stream } = await a().getStream(sha);
    expect(got).toEqual(info);
    expect(await text(stream)).toBe(body);
    expect(await a().stat(sha)).toEqual(info);
  });

  it("keeps one tenant out of another tenant's files", async () => {
    expect(await b().stat(sha)).toBeNull();
    await expect(b().getStream(sha)).rejects.toBeInstanceOf(FileNotFoundError);
    expect(await b().delete(sha)).toBe(false);
    expect(await a().stat(sha)).not.toBeNull();
  });

  it('refuses past maxBytes and leaves no partial file', async () => {
    const big = Readable.from(
      (function* () {
        for (let i = 0; i < 10; i++) yield Buffer.alloc(1000, i);
      })(),
    );
    await expect(
      a().putStream(big, {
        fileName: 'big.bin',
        contentType: 'application/octet-stream',
        maxBytes: 5000,
        owner: upload,
      }),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect(readdirSync(join(dataDir, 'files', 'tmp'))).toEqual([]);
    const blobs: string[] = [];
    for await (const id of files.blobs.list()) blobs.push(id);
    expect(blobs).toEqual([sha]);
  });

  it('deletes the bytes only when no tenant refers to them', async () => {
    await b().putStream(Readable.from([Buffer.from(body)]), {
      fileName: 'copy.pdf',
      contentType: 'application/pdf',
      maxBytes: 1 << 20,
      owner: upload,
    });
    expect(await a().delete(sha)).toBe(true);
    expect(await a().stat(sha)).toBeNull();
    expect(await text((await b().getStream(sha)).stream)).toBe(body);
    expect(await b().delete(sha)).toBe(true);
    expect(await files.blobs.size(sha)).toBeNull();
    await expect(a().getStream('not-a-sha')).rejects.toBeInstanceOf(FileNotFoundError);
  });

  it('keeps one record per bytes with every owner; the last release removes record and bytes', async () => {
    const bytes = 'shared attachment and import '.repeat(50);
    const id = createHash('sha256').update(bytes).digest('hex');
    const put = (owner: { kind: string; id: string; projectId?: string }) =>
      a().putStream(Readable.from([Buffer.from(bytes)]), {
        fileName: 'first.xml',
        contentType: 'application/xml',
        maxBytes: 1 << 20,
        owner,
      });
    await put({ kind: 'import', id: 'rec-1', projectId: 'p1' });
    const second = await put({ kind: 'case-attachment', id: 'case-9' });
    await put({ kind: 'import', id: 'rec-1', projectId: 'p1' });
    expect(second.fileName).toBe('first.xml');
    expect(second.owners).toEqual([
      { kind: 'import', id: 'rec-1', projectId: 'p1', addedBy: 'alice' },
      { kind: 'case-attachment', id: 'case-9', addedBy: 'alice' },
    ]);
    expect(await a().release(id, { kind: 'import', id: 'rec-2' })).toBe(false);
    expect(await a().release(id, { kind: 'import', id: 'rec-1' })).toBe(true);
    expect((await a().stat(id))?.owners.map((o) => o.kind)).toEqual(['case-attachment']);
    expect(await files.blobs.size(id)).toBe(bytes.length);
    expect(await a().release(id, { kind: 'case-attachment', id: 'case-9' })).toBe(true);
    expect(await a().stat(id)).toBeNull();
    expect(await files.blobs.size(id)).toBeNull();
  });

  it("reads a record written before owners as its uploader's own upload", async () => {
    const bytes = 'old attachment';
    const id = createHash('sha256').update(bytes).digest('hex');
    await files.blobs.put(Readable.from([Buffer.from(bytes)]), 100);
    await store.tenant('A', { userId: 'carol' }).collection('files').insertOne({
      fileId: id,
      fileName: 'old.txt',
      contentType: 'text/plain',
      size: bytes.length,
      tenantId: 'A',
    });
    const info = await a().stat(id);
    expect(info).toMatchObject({ uploadedBy: 'carol', ownersRecorded: false });
    expect(info?.owners).toEqual([{ kind: 'upload', id: 'carol', addedBy: 'carol' }]);
    // A new owner keeps the uploader's hold beside it.
    const joined = await a().addOwner(id, { kind: 'case-attachment', id: 'case-1' });
    expect(joined?.owners.map((o) => `${o.kind}:${o.id}`)).toEqual([
      'upload:carol',
      'case-attachment:case-1',
    ]);
    expect(joined?.ownersRecorded).toBe(true);
  });
});
