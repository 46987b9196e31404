/**
 * The file store's contract (server/src/files implements it): declared with the store, below the
 * HTTP layer, so that ModuleDeps can carry a file store without the HTTP layer importing the file
 * module (whose owner checks read the caller the HTTP layer builds).
 */
import type { Readable } from 'node:stream';
import type { TenantHandle } from './port';

/** Content-addressed blob storage (sha256). */
export interface BlobStore {
  /** Streams the content in; refuses (leaving nothing behind) past maxBytes. */
  put(readable: Readable, maxBytes: number): Promise<{ sha256: string; size: number }>;
  /** Throws FileNotFoundError when absent. */
  get(sha256: string): Promise<Readable>;
  size(sha256: string): Promise<number | null>;
  delete(sha256: string): Promise<void>;
  list(): AsyncIterable<string>;
  close(): Promise<void>;
}

/** What owns a file: a kind (`case-attachment`, `import` ...) and the owning record's id. */
export interface FileOwner {
  kind: string;
  id: string;
  /** The project the owner belongs to, when it has one (informative; checks read the owner itself). */
  projectId?: string;
}

/** An owner as recorded on the file, with the user who gave the file this owner. */
export interface FileOwnerEntry extends FileOwner {
  addedBy: string;
}

export interface FileInfo {
  /** sha256 of the content, hex. */
  fileId: string;
  fileName: string;
  contentType: string;
  size: number;
  tenantId: string;
  uploadedBy: string;
  uploadedAt: string;
  /** What holds the file (never empty for a stored record; see ownersOf for older records). */
  owners: FileOwnerEntry[];
  /** False for a record written before files had owners (its owners are the read-time rule's). */
  ownersRecorded: boolean;
}

export interface PutOptions {
  fileName: string;
  contentType: string;
  /** Refused past this many bytes (FileTooLargeError); nothing is kept then. */
  maxBytes: number;
  /** What the file is stored for; added to the record's owners when the bytes are already stored. */
  owner: FileOwner;
}

export interface TenantFiles {
  /**
   * Stores the stream for its owner. Uploading the same bytes again keeps the first record's name
   * and type, and adds the owner.
   */
  putStream(readable: Readable, options: PutOptions): Promise<FileInfo>;
  /** Adds an owner to a stored file; null when this tenant has no such file. */
  addOwner(fileId: string, owner: FileOwner): Promise<FileInfo | null>;
  /**
   * Removes one owner's hold; with the last owner the record goes, and the bytes when no tenant
   * refers to them any more. False when the owner did not hold the file.
   */
  release(fileId: string, owner: FileOwner): Promise<boolean>;
  /** Throws FileNotFoundError when this tenant has no such file. */
  getStream(fileId: string): Promise<{ info: FileInfo; stream: Readable }>;
  stat(fileId: string): Promise<FileInfo | null>;
  /** Removes this tenant's record whatever owns it; the bytes go when no tenant refers to them any more. */
  delete(fileId: string): Promise<boolean>;
}

export interface FileStore {
  forTenant(handle: TenantHandle): TenantFiles;
  /** Raw blob access for the data export/import command. */
  readonly blobs: BlobStore;
  close(): Promise<void>;
}
