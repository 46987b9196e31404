/**
 * The states of a background task: the server's job runner (server/src/jobs) moves a job through
 * them and the browser follows a task by them (the dictionaries' imports, the recode, the download
 * tasks). Declared once here so that neither side keeps its own copy.
 */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Whether a task has ended (succeeded, failed or canceled): its state no longer changes. */
export function jobEnded(status: JobStatus): boolean {
  return status !== 'queued' && status !== 'running';
}

/**
 * The states of a download task (server/src/downloads): its job's while it waits or runs, then
 * succeeded (the file is there) or failed; a task its owner cancels is removed, never shown canceled.
 */
export const DOWNLOAD_TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type DownloadTaskStatus = (typeof DOWNLOAD_TASK_STATUSES)[number];
