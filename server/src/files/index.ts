/**
 * File store: blobs content-addressed by sha256 (directory or GridFS), metadata in the tenant
 * collection `files` so a tenant only ever reaches the files it uploaded.
 */
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DuplicateKeyError } from '../store';
import type { OpenedStore, TenantHandle } from '../store';
import { DirectoryBlobStore, FileNotFoundError, GridFsBlobStore, isFileId } from './blobs';
import type { BlobStore } from './blobs';

export { FileNotFoundError, FileTooLargeError, isFileId } from './blobs';
export type { BlobStore } from './blobs';

export const FILES_COLLECTION = 'files';

export interface FileInfo {
  /** sha256 of the content, hex. */
  fileId: string;
  fileName: string;
  contentType: string;
  size: number;
  tenantId: string;
  uploadedBy: string;
  uploadedAt: string;
}

export interface PutOptions {
  fileName: string;
  contentType: string;
  /** Refused past this many bytes (FileTooLargeError); nothing is kept then. */
  maxBytes: number;
}

export interface TenantFiles {
  /** Stores the stream. Uploading the same bytes again keeps the first record's name and type. */
  putStream(readable: Readable, options: PutOptions): Promise<FileInfo>;
  /** Throws FileNotFoundError when this tenant has no such file. */
  getStream(fileId: string): Promise<{ info: FileInfo; stream: Readable }>;
  stat(fileId: string): Promise<FileInfo | null>;
  /** Removes this tenant's record; the bytes go when no tenant refers to them any more. */
  delete(fileId: string): Promise<boolean>;
}

export interface FileStore {
  forTenant(handle: TenantHandle): TenantFiles;
  /** Raw blob access for the data export/import command. */
  readonly blobs: BlobStore;
  close(): Promise<void>;
}

export interface OpenFileStoreOptions {
  dataDir: string;
  mongodbUri?: string;
}

export async function openFileStore(store: OpenedStore, options: OpenFileStoreOptions): Promise<FileStore> {
  await store.define({
    name: FILES_COLLECTION,
    scope: 'tenant',
    audited: true,
    indexes: [{ name: 'byFileId', fields: { fileId: 1 }, unique: true }],
  });
  const blobs: BlobStore = options.mongodbUri
    ? await GridFsBlobStore.connect(options.mongodbUri)
    : new DirectoryBlobStore(join(options.dataDir, 'files'));
  return {
    blobs,
    forTenant: (handle) => tenantFiles(store, blobs, handle),
    close: () => blobs.close(),
  };
}

function tenantFiles(store: OpenedStore, blobs: BlobStore, handle: TenantHandle): TenantFiles {
  const records = handle.collection<FileInfo>(FILES_COLLECTION);
  const stat = async (fileId: string): Promise<FileInfo | null> => {
    if (!isFileId(fileId)) return null;
    const doc = await records.findOne({ fileId });
    return doc ? toInfo(doc) : null;
  };
  return {
    async putStream(readable, { fileName, contentType, maxBytes }) {
      const { sha256, size } = await blobs.put(readable, maxBytes);
      const existing = await stat(sha256);
      if (existing) return existing;
      const doc = await records
        .insertOne({
          fileId: sha256,
          fileName,
          contentType,
          size,
          tenantId: handle.tenantId,
          uploadedBy: handle.actor.userId,
          uploadedAt: new Date().toISOString(),
        })
        .catch(async (error: unknown) => {
          // A concurrent upload of the same bytes by this tenant won the insert.
          if (error instanceof DuplicateKeyError) return (await records.findOne({ fileId: sha256 }))!;
          throw error;
        });
      return toInfo(doc);
    },
    async getStream(fileId) {
      const info = await stat(fileId);
      if (!info) throw new FileNotFoundError(String(fileId));
      return { info, stream: await blobs.get(fileId) };
    },
    stat,
    async delete(fileId) {
      if (!isFileId(fileId)) return false;
      const deleted = await records.deleteOne({ fileId });
      if (deleted && (await store.maintenance().countAllTenants(FILES_COLLECTION, { fileId })) === 0) {
        await blobs.delete(fileId);
      }
      return deleted;
    },
  };
}

function toInfo(doc: FileInfo & { createdBy?: string; createdAt?: string }): FileInfo {
  return {
    fileId: doc.fileId,
    fileName: doc.fileName,
    contentType: doc.contentType,
    size: doc.size,
    tenantId: doc.tenantId,
    uploadedBy: doc.createdBy ?? doc.uploadedBy,
    uploadedAt: doc.createdAt ?? doc.uploadedAt,
  };
}
