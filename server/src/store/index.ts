/** The store: openStore picks the backend (embedded SQLite by default, MongoDB with a URI). */
// The public surface first: other modules read these while this module's routes may still be loading.
export * from './port';
export { StoreUnavailableError, UnsupportedFeatureError } from './capabilities';
export type { StoreCapabilities } from './capabilities';
export { PLATFORM_TENANT, AUDIT_COLLECTION, STORE_FIELDS, orderedId } from './core';
export type { AuditEntry } from './core';
export type { PathChange } from './diff';
export type { GroupCount, GroupCountSpec, GroupDimension, GroupScalar } from './group-count';
export { textMatch } from './guard';
export { cappedTotal } from './capped-total';
export type { CappedTotal } from './capped-total';
export {
  DuplicateKeyError,
  ForbiddenQueryError,
  InvalidStoreRequestError,
  RevisionConflictError,
  StoreError,
} from './port';
export type {
  BlobStore,
  FileInfo,
  FileOwner,
  FileOwnerEntry,
  FileStore,
  PutOptions,
  TenantFiles,
} from './files';
export type {
  Collection,
  CollectionDefinition,
  FieldReason,
  Filter,
  Handle,
  ElementTableDeclaration,
  IndexDeclaration,
  PlatformHandle,
  SortSpec,
  Store,
  StoredDoc,
  TenantHandle,
  Update,
  WriteCounter,
} from './port';

import type { Connection } from 'mongoose';
import { CoreStore } from './core';
import { EmbeddedDriver } from './embedded';
import type { Clock } from '../clock';
import type { Store, StoreAdmin } from './port';

export interface OpenStoreOptions {
  /** Data directory of the embedded backend (store.sqlite lives there). */
  dataDir: string;
  /** When given, the MongoDB backend is used instead. */
  mongodbUri?: string;
  /** Stamps the documents' and audit entries' times; default: the system clock. */
  clock?: Clock;
}

export type OpenedStore = Store & StoreAdmin;

export async function openStore(options: OpenStoreOptions): Promise<OpenedStore> {
  let store: CoreStore;
  if (options.mongodbUri) {
    const { MongoDriver } = await import('./mongo');
    store = new CoreStore(await MongoDriver.connect(options.mongodbUri), options.clock);
  } else {
    store = new CoreStore(EmbeddedDriver.open(options.dataDir), options.clock);
  }
  await store.init();
  return store;
}

/**
 * The MongoDB backend's connection and error translation, loaded on demand (mongoose only when
 * used): the file store's GridFS blobs share them.
 */
export async function loadMongoSupport(): Promise<{
  openMongoConnection: (uri: string) => Promise<Connection>;
  translateError: (error: unknown) => unknown;
}> {
  const { openMongoConnection, translateError } = await import('./mongo');
  return { openMongoConnection, translateError };
}
