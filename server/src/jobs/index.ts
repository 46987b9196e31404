import { defineModule } from '../http/module';
import { jobCollections } from './collections';
import { housekeepingSchedules, purgeFinishedJobs } from './housekeeping';
import { jobRoutes } from './routes';
import { scheduleRoutes } from './schedules';

export const jobsModule = defineModule({
  name: 'jobs',
  collections: jobCollections,
  // The operator's schedule routes first: `/schedules` must not be read as a job id.
  routes: (router, deps) => {
    scheduleRoutes(router, deps);
    jobRoutes(router, deps);
  },
  jobs: [purgeFinishedJobs],
  schedules: housekeepingSchedules,
});

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
