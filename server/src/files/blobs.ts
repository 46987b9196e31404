/** Content-addressed blob storage (sha256): a directory by default, GridFS with MongoDB. */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Connection } from 'mongoose';
import type { GridFSBucket } from 'mongodb';
import { FileNotFoundError, FileTooLargeError, loadMongoSupport } from '../store';
import type { BlobStore } from '../store';

// Declared with the store's errors (the HTTP layer maps them without importing the file store).
export { FileNotFoundError, FileTooLargeError };
export type { BlobStore };

const SHA256 = /^[0-9a-f]{64}$/;

export function isFileId(value: unknown): value is string {
  return typeof value === 'string' && SHA256.test(value);
}

/** Hashes and counts what flows through, failing past maxBytes. */
function measuring(maxBytes: number): Transform & { result(): { sha256: string; size: number } } {
  const hash = createHash('sha256');
  let size = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) return callback(new FileTooLargeError(maxBytes));
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  return Object.assign(transform, { result: () => ({ sha256: hash.digest('hex'), size }) });
}

export class DirectoryBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private path(sha256: string): string {
    return join(this.root, sha256.slice(0, 2), sha256);
  }

  async put(readable: Readable, maxBytes: number): Promise<{ sha256: string; size: number }> {
    const tmpDir = join(this.root, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomUUID());
    const meter = measuring(maxBytes);
    try {
      await pipeline(readable, meter, createWriteStream(tmp, { flags: 'wx' }));
      const handle = await open(tmp, 'r');
      await handle.sync();
      await handle.close();
      const result = meter.result();
      const target = this.path(result.sha256);
      await mkdir(join(this.root, result.sha256.slice(0, 2)), { recursive: true });
      // Same content already stored: identical bytes, keep the existing file.
      if ((await this.size(result.sha256)) === null) await rename(tmp, target);
      return result;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async get(sha256: string): Promise<Readable> {
    if (!isFileId(sha256) || (await this.size(sha256)) === null) throw new FileNotFoundError(String(sha256));
    return createReadStream(this.path(sha256));
  }

  async size(sha256: string): Promise<number | null> {
    if (!isFileId(sha256)) return null;
    try {
      return (await stat(this.path(sha256))).size;
    } catch {
      return null;
    }
  }

  async delete(sha256: string): Promise<void> {
    if (isFileId(sha256)) await rm(this.path(sha256), { force: true });
  }

  async *list(): AsyncIterable<string> {
    let dirs: string[];
    try {
      dirs = (await readdir(this.root)).filter((d) => /^[0-9a-f]{2}$/.test(d)).sort();
    } catch {
      return;
    }
    for (const dir of dirs) {
      for (const name of (await readdir(join(this.root, dir))).sort()) if (isFileId(name)) yield name;
    }
  }

  async close(): Promise<void> {}
}

export class GridFsBlobStore implements BlobStore {
  private constructor(
    private readonly connection: Connection,
    private readonly bucket: GridFSBucket,
    /** The store's translation: a lost server becomes StoreUnavailableError (a clear 500). */
    private readonly translate: (error: unknown) => unknown,
  ) {}

  static async connect(uri: string): Promise<GridFsBlobStore> {
    const mongoose = (await import('mongoose')).default;
    const { openMongoConnection, translateError } = await loadMongoSupport();
    const connection = await openMongoConnection(uri);
    const bucket = new mongoose.mongo.GridFSBucket(connection.db!, { bucketName: 'files' });
    return new GridFsBlobStore(connection, bucket as unknown as GridFSBucket, translateError);
  }

  private async find(sha256: string) {
    try {
      return (await this.bucket.find({ filename: sha256 }).limit(1).toArray())[0];
    } catch (error) {
      throw this.translate(error);
    }
  }

  async put(readable: Readable, maxBytes: number): Promise<{ sha256: string; size: number }> {
    const meter = measuring(maxBytes);
    const upload = this.bucket.openUploadStream(`pending-${randomUUID()}`);
    try {
      await pipeline(readable, meter, upload);
    } catch (error) {
      await upload.abort().catch(() => undefined);
      await this.bucket.delete(upload.id).catch(() => undefined);
      throw this.translate(error);
    }
    const result = meter.result();
    if (await this.find(result.sha256)) await this.bucket.delete(upload.id);
    else await this.bucket.rename(upload.id, result.sha256);
    return result;
  }

  async get(sha256: string): Promise<Readable> {
    if (!isFileId(sha256) || !(await this.find(sha256))) throw new FileNotFoundError(String(sha256));
    return this.bucket.openDownloadStreamByName(sha256);
  }

  async size(sha256: string): Promise<number | null> {
    if (!isFileId(sha256)) return null;
    return (await this.find(sha256))?.length ?? null;
  }

  async delete(sha256: string): Promise<void> {
    const file = isFileId(sha256) ? await this.find(sha256) : undefined;
    if (file) await this.bucket.delete(file._id);
  }

  async *list(): AsyncIterable<string> {
    for await (const file of this.bucket.find({}, { sort: { filename: 1 } }))
      if (isFileId(file.filename)) yield file.filename;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}
