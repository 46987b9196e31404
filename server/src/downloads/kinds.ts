/**
 * Download task kinds are declared by the modules that produce them: the kind, the file's extension
 * and media type, its label and file-name keys (any i18n namespace), the permission that starts it
 * and the producer that writes the file. This module runs every kind the same way (the job, the file
 * store, progress, retention, the owner-only file) and imports none of the producing modules: they
 * import `declareDownload` from here and list the job it returns in their own module's `jobs`.
 */
import { PassThrough } from 'node:stream';
import type { Writable } from 'node:stream';
import type { Caller, JobDefinition, ModuleDeps } from '../http';
import { AppError } from '../http';
import type { Lang } from '../i18n';
import { defineJob } from '../jobs';
import type { JobContext } from '../jobs';
import type { TenantHandle } from '../store';
import { DOWNLOAD_TASKS, RETENTION_DAYS } from './collections';
import type { DownloadTask } from './collections';
import { downloadOwner, releaseFile } from './files';

/** What every task's job payload holds besides the kind's own: the task and the requester's language. */
export interface TaskPayload {
  taskId: string;
  lang: Lang;
}

export interface DownloadProduction<P> {
  payload: P & TaskPayload;
  task: DownloadTask;
  /** The file's bytes go here; the producer ends it (or throws). */
  out: Writable;
  /** 0-99: the task shows 100 once the file is stored. */
  progress(percent: number, message?: string): Promise<void>;
  /** Aborted when the task is deleted or the job stopped: long producers check it between steps. */
  signal: AbortSignal;
  /** The requester as a service caller (their permissions, the request's language). */
  caller: Caller;
  tenant: TenantHandle;
  deps: ModuleDeps;
}

export interface DownloadKindDeclaration<P = unknown> {
  /** Stable id stored on the task (`caseLineListing`, `ciomsZip` ...); the job type is `downloads.<kind>`. */
  kind: string;
  extension: string;
  mediaType: string;
  /** i18n key of the kind's name in the task list. */
  labelKey: string;
  /** i18n key of the file name's stem (the start time is added). */
  fileNameKey: string;
  /** The permission a caller needs to start it (the owning route's permission). */
  permission: string;
  /** Largest file kept (bytes). */
  maxBytes: number;
  /** Writes the file into `out`; answers the rows (cases ...) written. */
  produce(production: DownloadProduction<P>): Promise<{ rows: number }>;
}

export interface DownloadResult {
  rows: number;
  fileName: string;
  size: number;
}

const declared = new Map<string, DownloadKindDeclaration>();

export const jobTypeOf = (kind: string): string => `downloads.${kind}`;

/** The declaration of a kind; throws for a kind nobody declared (a task record of a removed module). */
export function downloadKind(kind: string): DownloadKindDeclaration {
  const found = declared.get(kind);
  if (!found) throw new Error(`download kind '${kind}' is not declared`);
  return found;
}

/** Every declared kind (the task list's kind labels). */
export const downloadKinds = (): DownloadKindDeclaration[] => [...declared.values()];

/**
 * Declares a download kind and answers the job that builds its files, for the owning module's `jobs`.
 * Declaring a kind again replaces it (a module loaded twice in tests).
 */
export function declareDownload<P>(
  declaration: DownloadKindDeclaration<P>,
): JobDefinition<P & TaskPayload, DownloadResult> {
  declared.set(declaration.kind, declaration as DownloadKindDeclaration);
  return defineJob<P & TaskPayload, DownloadResult>({
    type: jobTypeOf(declaration.kind),
    maxAttempts: 3,
    async handler(context) {
      try {
        return await produceFile(declaration, context);
      } catch (error) {
        // The task list shows the reason: a refusal in the requester's words, not its message key.
        if (error instanceof AppError)
          throw new Error(context.deps.translator.t(context.payload.lang, error.messageKey, error.params), {
            cause: error,
          });
        throw error;
      }
    },
  });
}

/** Streams the producer's file into the file store and records it on the task. */
async function produceFile<P>(
  declaration: DownloadKindDeclaration<P>,
  { payload, tenant, progress, signal, deps, caller }: JobContext<P & TaskPayload>,
): Promise<DownloadResult> {
  if (!deps.files) throw new Error('the file store is not configured');
  const handle = tenant();
  const tasks = handle.collection<DownloadTask>(DOWNLOAD_TASKS);
  const task = await tasks.findOne({ _id: payload.taskId });
  // Deleted before it ran: nothing to build.
  if (!task) return { rows: 0, fileName: '', size: 0 };
  const out = new PassThrough();
  const files = deps.files.forTenant(handle);
  const stored = files.putStream(out, {
    fileName: task.fileName,
    contentType: declaration.mediaType,
    maxBytes: declaration.maxBytes,
    owner: downloadOwner(payload.taskId),
  });
  let rows: number;
  let info;
  try {
    const produced = declaration.produce({
      payload,
      task,
      out,
      progress: (percent, message) => progress(Math.min(99, Math.max(0, Math.floor(percent))), message),
      signal,
      caller: caller({ lang: payload.lang }),
      tenant: handle,
      deps,
    });
    [{ rows }, info] = await Promise.all([produced, stored]);
  } catch (error) {
    // Without an error: the store may not be reading yet, and an 'error' nobody listens to would crash.
    out.destroy();
    await stored.catch(() => undefined);
    throw error;
  }
  const finishedAt = deps.clock.now();
  const expiresAt = new Date(finishedAt.getTime() + RETENTION_DAYS * 86_400_000).toISOString();
  const updated = await tasks.updateOne(
    { _id: payload.taskId },
    { $set: { fileId: info.fileId, size: info.size, rows, finishedAt: finishedAt.toISOString(), expiresAt } },
  );
  // Deleted while it ran: the file goes too, unless another task holds the same bytes.
  if (!updated) await releaseFile(handle, payload.taskId, info.fileId, files);
  return { rows, fileName: task.fileName, size: info.size };
}
