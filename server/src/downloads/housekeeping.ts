/**
 * Expired download tasks go, with their files: a nightly schedule walks every tenant and removes
 * the tasks whose expiry (finish + retention, or start + retention for a task that never
 * finished) has passed. The download route already refuses an expired file before this runs.
 */
import { allTenantIds } from '../auth';
import { defineJob } from '../jobs';
import type { ScheduleDeclaration } from '../jobs';
import { DOWNLOAD_TASKS } from './collections';
import type { DownloadTask } from './collections';
import { removeTask } from './service';

const ACTOR = 'system:downloads';
export const PURGE_JOB = 'downloads.purgeExpired';

export const purgeExpiredDownloads = defineJob<Record<string, never> | null, { removed: number }>({
  type: PURGE_JOB,
  maxAttempts: 3,
  schedulable: {
    label: { zh: '清理过期的下载任务及文件', en: 'Remove expired download tasks and their files' },
  },
  async handler({ deps }) {
    const now = deps.clock.now().toISOString();
    const tenantIds = await allTenantIds(deps.store, ACTOR);
    let removed = 0;
    for (const tenantId of tenantIds) {
      const handle = deps.store.tenant(tenantId, { userId: ACTOR });
      const tasks = handle.collection<DownloadTask>(DOWNLOAD_TASKS);
      // Batches keep each pass short; removed tasks no longer match.
      for (;;) {
        const batch = await tasks.find({ expiresAt: { $lte: now } }, { limit: 200 });
        if (!batch.length) break;
        for (const task of batch) {
          await removeTask(handle, deps, task);
          removed += 1;
        }
      }
    }
    return { removed };
  },
});

export const downloadSchedules: ScheduleDeclaration[] = [
  { name: PURGE_JOB, cron: '45 3 * * *', type: PURGE_JOB },
];
