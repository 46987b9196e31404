/**
 * File store: blobs content-addressed by sha256 (directory or GridFS), metadata in the tenant
 * collection `files` so a tenant only ever reaches the files it uploaded. Each record lists its
 * owners (owners.ts): the same bytes stored for two purposes are one record with two owners, and
 * the record (and the bytes) go when the last owner lets go.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { FileNotFoundError, FileTooLargeError, isFileId } from './blobs';
export type { BlobStore } from './blobs';
export {
  CASE_ATTACHMENT_OWNER,
  callerHolds,
  ownerAllows,
  ownersOf,
  registerFileOwner,
  UPLOAD_OWNER,
} from './owners';
export type { FileAction, FileCaller, FileOwnerCheck } from './owners';
// The file store's contract lives with the store (below the HTTP layer's ModuleDeps).
export type { FileInfo, FileOwner, FileOwnerEntry, FileStore, PutOptions, TenantFiles } from '../store';

import { join } from 'node:path';
import { systemClock } from '../clock';
import type { Clock } from '../clock';
import { DuplicateKeyError, RevisionConflictError } from '../store';
import type {
  FileInfo,
  FileOwner,
  FileOwnerEntry,
  FileStore,
  OpenedStore,
  TenantFiles,
  TenantHandle,
} from '../store';
import { DirectoryBlobStore, FileNotFoundError, GridFsBlobStore, isFileId } from './blobs';
import type { BlobStore } from './blobs';
import { ownersOf, sameOwner } from './owners';

export const FILES_COLLECTION = 'files';

interface FileRecord extends Omit<FileInfo, 'owners' | 'ownersRecorded'> {
  /** Absent on records written before files had owners. */
  owners?: FileOwnerEntry[];
}

export interface OpenFileStoreOptions {
  dataDir: string;
  mongodbUri?: string;
  /** Stamps the upload time of new records; default the system clock. */
  clock?: Clock;
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
    forTenant: (handle) => tenantFiles(store, blobs, handle, options.clock ?? systemClock),
    close: () => blobs.close(),
  };
}

function tenantFiles(store: OpenedStore, blobs: BlobStore, handle: TenantHandle, clock: Clock): TenantFiles {
  const records = handle.collection<FileRecord>(FILES_COLLECTION);
  const stat = async (fileId: string): Promise<FileInfo | null> => {
    if (!isFileId(fileId)) return null;
    const doc = await records.findOne({ fileId });
    return doc ? toInfo(doc) : null;
  };
  const entryOf = (owner: FileOwner): FileOwnerEntry => ({
    kind: owner.kind,
    id: owner.id,
    ...(owner.projectId ? { projectId: owner.projectId } : {}),
    addedBy: handle.actor.userId,
  });
  /** Read, change the owner list, write back under the revision (a concurrent change: again). */
  const changeOwners = async (
    fileId: string,
    change: (owners: FileOwnerEntry[]) => FileOwnerEntry[] | null,
  ): Promise<{ doc: FileRecord; owners: FileOwnerEntry[]; changed: boolean } | null> => {
    for (;;) {
      const doc = await records.findOne({ fileId });
      if (!doc) return null;
      const { owners } = toInfo(doc);
      const next = change(owners);
      if (!next) return { doc, owners, changed: false };
      if (next.length === 0) {
        if (!(await records.deleteOne({ fileId }, { expectedRev: doc.rev }).catch(retryOnConflict))) continue;
      } else {
        const updated = await records
          .updateOne({ fileId }, { $set: { owners: next } }, { expectedRev: doc.rev })
          .catch(retryOnConflict);
        if (!updated) continue;
        return { doc: updated, owners: next, changed: true };
      }
      return { doc, owners: next, changed: true };
    }
  };
  const addOwner = async (fileId: string, owner: FileOwner): Promise<FileInfo | null> => {
    if (!isFileId(fileId)) return null;
    const result = await changeOwners(fileId, (owners) =>
      owners.some((held) => sameOwner(held, owner)) ? null : [...owners, entryOf(owner)],
    );
    return result ? toInfo(result.doc) : null;
  };
  const dropBlobIfUnused = async (fileId: string) => {
    if ((await store.maintenance().countAllTenants(FILES_COLLECTION, { fileId })) === 0)
      await blobs.delete(fileId);
  };
  return {
    async putStream(readable, { fileName, contentType, maxBytes, owner }) {
      const { sha256, size } = await blobs.put(readable, maxBytes);
      const existing = await addOwner(sha256, owner);
      if (existing) return existing;
      const doc = await records
        .insertOne({
          fileId: sha256,
          fileName,
          contentType,
          size,
          tenantId: handle.tenantId,
          uploadedBy: handle.actor.userId,
          uploadedAt: clock.now().toISOString(),
          owners: [entryOf(owner)],
        })
        .catch(async (error: unknown) => {
          // A concurrent upload of the same bytes by this tenant won the insert: join its owners.
          if (error instanceof DuplicateKeyError) return toRecord(await addOwner(sha256, owner));
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
    addOwner,
    async release(fileId, owner) {
      if (!isFileId(fileId)) return false;
      const result = await changeOwners(fileId, (owners) =>
        owners.some((held) => sameOwner(held, owner))
          ? owners.filter((held) => !sameOwner(held, owner))
          : null,
      );
      if (!result?.changed) return false;
      if (result.owners.length === 0) await dropBlobIfUnused(fileId);
      return true;
    },
    async delete(fileId) {
      if (!isFileId(fileId)) return false;
      const deleted = await records.deleteOne({ fileId });
      if (deleted) await dropBlobIfUnused(fileId);
      return deleted;
    },
  };
}

/** A lost revision race reads as "not written": the caller reads again. */
function retryOnConflict(error: unknown): null {
  if (error instanceof RevisionConflictError) return null;
  throw error;
}

function toRecord(info: FileInfo | null): FileRecord {
  if (!info) throw new Error('the file record vanished while it was being stored');
  return info;
}

function toInfo(doc: FileRecord & { createdBy?: string; createdAt?: string }): FileInfo {
  const uploadedBy = doc.createdBy ?? doc.uploadedBy;
  return {
    fileId: doc.fileId,
    fileName: doc.fileName,
    contentType: doc.contentType,
    size: doc.size,
    tenantId: doc.tenantId,
    uploadedBy,
    uploadedAt: doc.createdAt ?? doc.uploadedAt,
    owners: ownersOf({ owners: doc.owners, uploadedBy }),
    ownersRecorded: doc.owners !== undefined,
  };
}
