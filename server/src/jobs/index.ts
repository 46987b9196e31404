import { defineModule } from '../http/module';
import { jobCollections } from './collections';
import { jobRoutes } from './routes';

export const jobsModule = defineModule({
  name: 'jobs',
  collections: jobCollections,
  routes: jobRoutes,
});

export { defineJob } from './types';
export type {
  EnqueueOptions,
  JobContext,
  JobDefinition,
  JobProgress,
  JobQueue,
  JobRecord,
  JobStatus,
  ScheduleDeclaration,
  ScheduleRecord,
} from './types';
export { createJobQueue } from './queue';
export { nextCronRun } from './cron';
