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

  it('stores content-addressed by sha256 and streams it back', async () => {
    const info = await a().putStream(Readable.from([Buffer.from(body)]), {
      fileName: '报告.pdf',
      contentType: 'application/pdf',
      maxBytes: 1 << 20,
    });
    expect(info).toMatchObject({
      fileId: sha,
      size: body.length,
      fileName: '报告.pdf',
      contentType: 'application/pdf',
      tenantId: 'A',
      uploadedBy: 'alice',
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
      a().putStream(big, { fileName: 'big.bin', contentType: 'application/octet-stream', maxBytes: 5000 }),
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
    });
    expect(await a().delete(sha)).toBe(true);
    expect(await a().stat(sha)).toBeNull();
    expect(await text((await b().getStream(sha)).stream)).toBe(body);
    expect(await b().delete(sha)).toBe(true);
    expect(await files.blobs.size(sha)).toBeNull();
    await expect(a().getStream('not-a-sha')).rejects.toBeInstanceOf(FileNotFoundError);
  });
});
