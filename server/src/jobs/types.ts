/** The job contract is declared in the HTTP layer beside ModuleDeps (http/jobs.ts); the jobs module's files read it here. */
export { defineJob } from '../http';
export type {
  JobStatus,
  JobProgress,
  JobRecord,
  JobContext,
  JobCallerOptions,
  JobDefinition,
  EnqueueOptions,
  JobListQuery,
  ScheduleDeclaration,
  ScheduleRecord,
  JobQueue,
} from '../http';
