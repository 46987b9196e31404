/** A task's file in the file store: owned by the task, read by the task's owner alone. */
import { registerFileOwner } from '../files';
import type { FileOwner, TenantFiles } from '../files';
import type { TenantHandle } from '../store';
import { DOWNLOAD_TASKS } from './collections';
import type { DownloadTask } from './collections';

/** Owner kind of a task's file (owner id: the task): only the task's owner reads it. */
const DOWNLOAD_OWNER = 'download-task';
export const downloadOwner = (taskId: string): FileOwner => ({ kind: DOWNLOAD_OWNER, id: taskId });
registerFileOwner(DOWNLOAD_OWNER, async (caller, owner, action) => {
  if (action !== 'read') return false;
  const task = await caller.caller.tenant
    .collection<DownloadTask>(DOWNLOAD_TASKS)
    .findOne({ _id: owner.id }, { projection: { ownerId: 1 } });
  return task?.ownerId === caller.userId;
});

/**
 * Lets go of a task's file: the bytes stay while anything else holds them. A file stored before
 * files had owners goes unless another download task of the tenant refers to the same bytes.
 */
export async function releaseFile(
  handle: TenantHandle,
  taskId: string,
  fileId: string,
  files: TenantFiles,
): Promise<void> {
  if (await files.release(fileId, downloadOwner(taskId))) return;
  const info = await files.stat(fileId);
  if (!info || info.ownersRecorded) return;
  if (await handle.collection<DownloadTask>(DOWNLOAD_TASKS).count({ fileId })) return;
  await files.delete(fileId);
}
