import type { CollectionDefinition } from '../store';

export const DOWNLOAD_TASKS = 'downloadTasks';

/** Days a finished file stays downloadable before the housekeeping job removes it. */
export const RETENTION_DAYS = 7;

/** A kind declared by its producing module (kinds.ts): `caseLineListing`, `ciomsZip` ... */
export type DownloadKind = string;

/**
 * One download task of one user: the background job that builds the file, and the file once built.
 * Status and progress come from the job while it runs (server/src/jobs); the file's record here.
 */
export interface DownloadTask {
  _id: string;
  ownerId: string;
  kind: DownloadKind;
  jobId: string;
  /** The name the file is downloaded under (decided when the task starts, in the caller's language). */
  fileName: string;
  fileId: string | null;
  size: number | null;
  /** Rows written (cases of a line listing). */
  rows: number | null;
  requestedAt: string;
  finishedAt: string | null;
  /** After this the task and its file are purged (finish + retention; start + retention until then). */
  expiresAt: string;
}

export const downloadCollections: CollectionDefinition[] = [
  {
    name: DOWNLOAD_TASKS,
    scope: 'tenant',
    // Who exported which cases when: an export discloses case data.
    audited: true,
    indexes: [{ fields: { ownerId: 1, requestedAt: -1 } }, { fields: { expiresAt: 1 } }],
  },
];
