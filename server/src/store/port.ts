/**
 * The store port: the only way services reach data. Shaped like a subset of the MongoDB
 * collection API so the embedded (SQLite + mingo) and MongoDB backends can both implement it
 * and be held to one conformance suite.
 *
 * Tenant scope is applied here, below the services: a TenantHandle can only ever see documents
 * whose tenantId is its own, whatever filter or pipeline it is given.
 */
import type { StoreCapabilities } from './capabilities';
import type { GroupCount, GroupCountSpec } from './group-count';

/** A MongoDB-style filter. Values are JSON. `$where` and server-side JavaScript are refused. */
export type Filter = Record<string, unknown>;
/** MongoDB-style update document with operators ($set, $unset, $push, $pull, $inc, $addToSet). */
export type Update = Record<string, Record<string, unknown>>;
export type SortSpec = Record<string, 1 | -1>;
export type Projection = Record<string, 0 | 1>;
export type Pipeline = Record<string, unknown>[];

/** Fields the store layer owns on every document. Services never set them directly. */
export interface StoredFields {
  _id: string;
  tenantId: string;
  rev: number;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
}

export type StoredDoc<T extends object = Record<string, unknown>> = T & StoredFields;

/** A document as a service hands it in: an optional _id, no store-owned fields. */
export type NewDoc<T extends object = Record<string, unknown>> = T & { _id?: string };

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface CountOptions {
  /**
   * Count at most this many matches (a positive integer; MongoDB's countDocuments limit): a list
   * asks for one more than the total it shows and says "N+" when it gets it (cappedTotal), so a
   * needle matching 40,000 cases is not counted to the last one before its first page shows.
   */
  limit?: number;
}

export interface WriteOptions {
  /** The revision the writer read. When given and the stored rev differs, RevisionConflictError. */
  expectedRev?: number;
  /** Why the change was made; kept in the audit trail. */
  reason?: string;
  /** Why each field changed, where each has its own reason (a QC correction); kept in the audit trail. */
  fieldReasons?: FieldReason[];
}

/** The reason given for changing one field of a document (a JSON pointer into it). */
export interface FieldReason {
  pointer: string;
  reason: string;
}

export interface IndexDeclaration {
  /** Ordered fields, dotted paths allowed; 1 ascending, -1 descending. */
  fields: SortSpec;
  unique?: boolean;
  name?: string;
  /**
   * A substring index over each path: literal contains/prefix/suffix matches (textMatch,
   * literalRegex) are narrowed through it instead of reading every value. Embedded: one FTS5
   * trigram table per collection. MongoDB has no substring index: one ascending index per path,
   * whose keys a regex scans instead of the documents.
   */
  text?: boolean;
}

export interface CollectionDefinition {
  name: string;
  /** 'tenant' collections are reached through a TenantHandle; 'platform' ones through the platform handle. */
  scope: 'tenant' | 'platform';
  indexes?: IndexDeclaration[];
  /** Arrays whose elements a grouped count reads (see ElementTableDeclaration). */
  elements?: ElementTableDeclaration[];
  /** When true every insert, update and delete writes an audit entry. */
  audited?: boolean;
}

/**
 * An array of the documents whose elements grouped counts read by these paths (a case's drugs by
 * name and role). The embedded store keeps one row per element with these values in columns, so a
 * count over the elements reads them there instead of parsing each document's JSON; MongoDB reads
 * the elements where they are and needs nothing.
 */
export interface ElementTableDeclaration {
  /** Dotted path of the array, through objects only. */
  each: string;
  /**
   * Dotted paths inside an element; `items[].path`: the least text at `path` among the element's
   * `items` (GroupDimension.least); `items{key}.path`: each text key's first item's value at `path`
   * (GroupDimension.match).
   */
  paths: string[];
}

export interface Actor {
  /** User id, or a system actor such as 'system:seed' or 'system:jobs'. */
  userId: string;
}

export interface Collection<T extends object = Record<string, unknown>> {
  find(filter?: Filter, options?: FindOptions): Promise<StoredDoc<T>[]>;
  findOne(filter?: Filter, options?: Omit<FindOptions, 'limit'>): Promise<StoredDoc<T> | null>;
  /** How many documents match; with `limit`, the smaller of that and the limit. */
  count(filter?: Filter, options?: CountOptions): Promise<number>;
  insertOne(doc: NewDoc<T>): Promise<StoredDoc<T>>;
  insertMany(docs: NewDoc<T>[]): Promise<StoredDoc<T>[]>;
  /** Updates the first matching document; returns it after the update, or null when none matched. */
  updateOne(filter: Filter, update: Update, options?: WriteOptions): Promise<StoredDoc<T> | null>;
  /** Returns the number of documents updated. */
  updateMany(filter: Filter, update: Update, options?: Omit<WriteOptions, 'expectedRev'>): Promise<number>;
  /** Returns true when a document was deleted. */
  deleteOne(filter: Filter, options?: WriteOptions): Promise<boolean>;
  aggregate<R = Record<string, unknown>>(pipeline: Pipeline): Promise<R[]>;
  /**
   * How many matching documents fall in each combination of the declared dimensions (array
   * elements included), computed by the backend (group-count.ts): largest count first.
   */
  groupCount(spec: GroupCountSpec): Promise<GroupCount[]>;
}

export interface Handle {
  collection<T extends object = Record<string, unknown>>(name: string): Collection<T>;
  /** Runs fn so that all its writes land together or not at all. */
  transaction<R>(fn: (handle: Handle) => Promise<R>): Promise<R>;
}

export interface TenantHandle extends Handle {
  readonly tenantId: string;
  readonly actor: Actor;
}

export interface PlatformHandle extends Handle {
  readonly actor: Actor;
}

/** Bumped by every write this process makes to one of its collections (Store.writeCounter). */
export interface WriteCounter {
  readonly count: number;
}

export interface Store {
  readonly backend: 'embedded' | 'mongodb';
  /** What the server offers (transactions, aggregation stages), asked when the store opened. */
  readonly capabilities: StoreCapabilities;
  /** Declares a collection (idempotent); creates its table/collection and indexes. */
  define(definition: CollectionDefinition): Promise<void>;
  tenant(tenantId: string, actor: Actor): TenantHandle;
  platform(actor: Actor): PlatformHandle;
  /**
   * How many writes this process has made to a collection (any tenant) since the store opened: a
   * process cache of data derived from it (permissions) stays valid while the number is the same.
   * Writes by other processes are not counted (such caches also expire).
   */
  writeGeneration(collection: string): number;
  /**
   * One count of this process's writes to any of the collections (as writeGeneration, summed):
   * read once per lookup instead of one writeGeneration per collection. The same counter for the
   * same set of collections.
   */
  writeCounter(collections: readonly string[]): WriteCounter;
  close(): Promise<void>;
}

export class StoreError extends Error {
  constructor(
    /** Message key in the `store` i18n namespace. */
    readonly messageKey: string,
    readonly params: Record<string, string | number> = {},
    message?: string,
  ) {
    super(message ?? messageKey);
    this.name = new.target.name;
  }
}

/** A stale write: the document changed since the writer read it. Maps to HTTP 409. */
export class RevisionConflictError extends StoreError {
  constructor(
    readonly collectionName: string,
    readonly id: string,
    readonly expectedRev: number,
    readonly actualRev: number,
  ) {
    super('revisionConflict', { collection: collectionName, id, expectedRev, actualRev });
  }
}

/** A filter or pipeline the store refuses ($where, $function, $accumulator, cross-tenant $lookup ...). */
export class ForbiddenQueryError extends StoreError {
  constructor(readonly operator: string) {
    super('forbiddenOperator', { operator });
  }
}

export class DuplicateKeyError extends StoreError {
  constructor(
    readonly collectionName: string,
    readonly index: string,
  ) {
    super('duplicateKey', { collection: collectionName, index });
  }
}

/** Thrown for a bad request to the store: an unknown collection, a wrong scope, a store-owned field ... */
export class InvalidStoreRequestError extends StoreError {}

/**
 * The file store's errors (server/src/files keeps its records and blobs through the store): an
 * upload past its limit, a file id the tenant does not have. Declared here so that the HTTP layer
 * maps them to 413 and 404 without importing the file store.
 */
export class FileTooLargeError extends StoreError {
  constructor(readonly maxBytes: number) {
    super('fileTooLarge', { maxBytes });
  }
}

export class FileNotFoundError extends StoreError {
  constructor(readonly fileId: string) {
    super('fileNotFound', { fileId });
  }
}

/**
 * Whole-store access for the data export/import command and the file store's reference counting.
 * It sees every tenant: never hand it to a service.
 */
export interface StoreMaintenance {
  /** Every declared collection, including the audit trail. */
  definitions(): Promise<CollectionDefinition[]>;
  /** Every document of a collection, all tenants, in _id order, store fields included. */
  scan(collection: string, batchSize?: number): AsyncIterable<StoredDoc>;
  /** Inserts documents exactly as given (revisions and store fields kept), e.g. from an export. */
  restore(collection: string, docs: StoredDoc[]): Promise<void>;
  /** Counts matching documents across all tenants. */
  countAllTenants(collection: string, filter?: Filter): Promise<number>;
}

export interface StoreAdmin {
  maintenance(): StoreMaintenance;
}
