/**
 * Download tasks of the caller: start (a job on the runner), list with the job's status and
 * progress, the file, and removal. A task is its owner's alone: another user of the tenant gets
 * "not found", another tenant cannot reach the collection at all.
 */
import { randomUUID } from 'node:crypto';
import type { DownloadTaskStatus } from '@pv/engine';
import type { Caller } from '../http';
import { errors } from '../http';
import type { ModuleDeps } from '../http';
import type { JobRecord } from '../jobs';
import type { Lang, Translator } from '../i18n';
import type { StoredDoc, TenantHandle } from '../store';
import { DOWNLOAD_TASKS, RETENTION_DAYS } from './collections';
import type { DownloadKind, DownloadTask } from './collections';
import { releaseFile } from './files';
import { downloadKind, jobTypeOf } from './kinds';

export interface TaskView {
  taskId: string;
  kind: DownloadKind;
  /** The kind's name in both languages (its declaration's label key). */
  label: { zh: string; en: string };
  status: DownloadTaskStatus;
  /** 0-100. */
  percent: number;
  fileName: string;
  size: number | null;
  rows: number | null;
  requestedAt: string;
  finishedAt: string | null;
  expiresAt: string;
  error: string | null;
}

const tasksOf = (handle: TenantHandle) => handle.collection<DownloadTask>(DOWNLOAD_TASKS);

/** The task as its owner sees it: a finished file, or the job's state while it is built. */
export function taskView(
  task: DownloadTask,
  job: JobRecord | null,
  translate: (key: string, params?: Record<string, string>) => string,
  translator: Translator,
): TaskView {
  const labelKey = kindLabelKey(task.kind);
  const base = {
    taskId: task._id,
    kind: task.kind,
    label: { zh: translator.t('zh', labelKey), en: translator.t('en', labelKey) },
    fileName: task.fileName,
    size: task.size,
    rows: task.rows,
    requestedAt: task.requestedAt,
    finishedAt: task.finishedAt,
    expiresAt: task.expiresAt,
  };
  if (task.fileId) return { ...base, status: 'succeeded', percent: 100, error: null };
  if (job && (job.status === 'queued' || job.status === 'running'))
    return { ...base, status: job.status, percent: job.progress?.percent ?? 0, error: null };
  // Failed after its retries, canceled, or succeeded without a file (deleted meanwhile): failed.
  const reason = job?.lastError ?? '';
  return {
    ...base,
    status: 'failed',
    percent: job?.progress?.percent ?? 0,
    finishedAt: task.finishedAt ?? job?.finishedAt ?? null,
    error: translate(reason ? 'downloads.failedBecause' : 'downloads.failed', { reason }),
  };
}

/** A task of a kind no module declares any more still lists, under its stored kind. */
function kindLabelKey(kind: string): string {
  try {
    return downloadKind(kind).labelKey;
  } catch {
    return kind;
  }
}

/** Tasks one user may have queued or running at once: a long export is not started twice by a double click. */
export const MAX_UNFINISHED_TASKS = 3;

async function unfinishedCount(handle: TenantHandle, deps: ModuleDeps, ownerId: string): Promise<number> {
  const pending = await tasksOf(handle).find(
    { ownerId, fileId: null },
    { sort: { requestedAt: -1 }, limit: 50, projection: { jobId: 1 } },
  );
  const jobs = await Promise.all(pending.map((task) => deps.jobs.get(task.jobId)));
  return jobs.filter((job) => job && (job.status === 'queued' || job.status === 'running')).length;
}

/**
 * Creates a task of a declared kind and enqueues its job; the file name is the kind's stem in the
 * caller's language, stamped with the start time. The owning route has checked the kind's permission.
 */
export async function startTask<P extends object>(
  caller: Caller,
  deps: ModuleDeps,
  kind: DownloadKind,
  payload: P,
): Promise<TaskView> {
  const declaration = downloadKind(kind);
  const principal = caller.principal;
  const handle = caller.tenant;
  const lang: Lang = caller.lang;
  if ((await unfinishedCount(handle, deps, principal.userId)) >= MAX_UNFINISHED_TASKS)
    throw errors.badRequest('downloads.tooManyUnfinished', { limit: MAX_UNFINISHED_TASKS });
  const now = deps.clock.now();
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15).replace('T', '-');
  const taskId = randomUUID();
  const jobId = `download-${taskId}`;
  const task = await tasksOf(handle).insertOne({
    _id: taskId,
    ownerId: principal.userId,
    kind,
    jobId,
    fileName: `${deps.translator.t(lang, declaration.fileNameKey)}_${stamp}.${declaration.extension}`,
    fileId: null,
    size: null,
    rows: null,
    requestedAt: now.toISOString(),
    finishedAt: null,
    expiresAt: new Date(now.getTime() + RETENTION_DAYS * 86_400_000).toISOString(),
  });
  const job = await deps.jobs.enqueue(
    jobTypeOf(kind),
    { ...payload, taskId, lang },
    { tenantId: principal.tenantId, requestedBy: principal.userId, jobId },
  );
  return taskView(task, job, caller.t, deps.translator);
}

/** The caller's tasks, newest first. */
export async function listTasks(
  caller: Caller,
  deps: ModuleDeps,
  page: { page: number; size: number },
): Promise<{ total: number; page: number; size: number; items: TaskView[] }> {
  const filter = { ownerId: caller.userId };
  const tasks = tasksOf(caller.tenant);
  const [total, docs] = await Promise.all([
    tasks.count(filter),
    tasks.find(filter, {
      sort: { requestedAt: -1, _id: -1 },
      skip: (page.page - 1) * page.size,
      limit: page.size,
    }),
  ]);
  const items = await Promise.all(
    docs.map(async (task) =>
      taskView(task, task.fileId ? null : await deps.jobs.get(task.jobId), caller.t, deps.translator),
    ),
  );
  return { total, page: page.page, size: page.size, items };
}

/** The caller's own task; anyone else's (or none) is "not found". */
export async function ownTask(caller: Caller, taskId: string): Promise<StoredDoc<DownloadTask>> {
  const task = await tasksOf(caller.tenant).findOne({ _id: taskId });
  if (!task || task.ownerId !== caller.userId) throw errors.notFound('downloads.taskNotFound');
  return task;
}

/** Removes the task and its file; a task still being built is stopped first. */
export async function deleteTask(caller: Caller, deps: ModuleDeps, taskId: string): Promise<void> {
  const task = await ownTask(caller, taskId);
  const handle = caller.tenant;
  if (!task.fileId) {
    const job = await deps.jobs.get(task.jobId);
    if (job && (job.status === 'queued' || job.status === 'running')) await deps.jobs.cancel(task.jobId);
  }
  await removeTask(handle, deps, task);
}

/** Deletes a task record, then its file (kept while another task refers to the same bytes). */
export async function removeTask(handle: TenantHandle, deps: ModuleDeps, task: DownloadTask): Promise<void> {
  await tasksOf(handle).deleteOne({ _id: task._id });
  if (task.fileId && deps.files)
    await releaseFile(handle, task._id, task.fileId, deps.files.forTenant(handle));
}
