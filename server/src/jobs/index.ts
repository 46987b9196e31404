// The public surface first: other modules read these while this module's routes may still be loading.
export { defineJob } from './types';
export type {
  EnqueueOptions,
  JobCallerOptions,
  JobContext,
  JobDefinition,
  JobListQuery,
  JobProgress,
  JobQueue,
  JobRecord,
  JobStatus,
  ScheduleDeclaration,
  ScheduleRecord,
} from './types';
export { createJobQueue } from './queue';
export { nextCronRun } from './cron';
export { JOBS } from './collections';
export { viewJob } from './routes';
export { JobRunner } from './runner';
export type { JobRunnerOptions } from './runner';

import { defineModule } from '../http';
import { jobCollections } from './collections';
import { housekeepingSchedules, purgeFinishedJobs } from './housekeeping';
import { jobRoutes } from './routes';
import { scheduleRoutes } from './schedules';

export const jobsModule = defineModule({
  name: 'jobs',
  dependsOn: [],
  collections: jobCollections,
  // The operator's schedule routes first: `/schedules` must not be read as a job id.
  routes: (router, deps) => {
    scheduleRoutes(router, deps);
    jobRoutes(router, deps);
  },
  jobs: [purgeFinishedJobs],
  schedules: housekeepingSchedules,
});
