/**
 * The job runner's own housekeeping: finished job records (succeeded or canceled) older than a
 * number of days are removed so the jobs collection does not grow without bound. Failed jobs stay
 * for review. A schedule runs it nightly; the operator can change or suspend it.
 */
import { defineJob } from './types';
import type { ScheduleDeclaration } from './types';
import { JOBS } from './collections';

export const purgeFinishedJobs = defineJob<{ olderThanDays?: number }, { removed: number }>({
  type: 'jobs.purgeFinished',
  maxAttempts: 3,
  schedulable: {
    label: { zh: '清理已完成的后台任务记录', en: 'Remove finished background task records' },
    payload: {
      type: 'object',
      additionalProperties: false,
      properties: {
        olderThanDays: {
          type: 'integer',
          minimum: 7,
          maximum: 3650,
          'x-label': { zh: '保留天数', en: 'Keep for days' },
        },
      },
    },
  },
  async handler({ payload, deps }) {
    const days = payload?.olderThanDays ?? 30;
    const before = new Date(deps.clock.now().getTime() - days * 86_400_000).toISOString();
    const jobs = deps.store.platform({ userId: 'system:jobs' }).collection(JOBS);
    const filter = { status: { $in: ['succeeded', 'canceled'] }, finishedAt: { $lt: before } };
    let removed = 0;
    // The store deletes one document at a time; batches keep each pass short.
    for (;;) {
      const batch = await jobs.find(filter, { limit: 500, projection: { _id: 1 } });
      if (!batch.length) break;
      for (const job of batch) if (await jobs.deleteOne({ _id: job._id })) removed += 1;
    }
    return { removed };
  },
});

export const housekeepingSchedules: ScheduleDeclaration[] = [
  {
    name: 'jobs.purgeFinished',
    cron: '30 3 * * *',
    type: 'jobs.purgeFinished',
    payload: { olderThanDays: 30 },
  },
];
