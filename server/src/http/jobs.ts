/**
 * The job contract a module declares and a job receives (beside ModuleDeps, which carries the
 * queue): background jobs' records and leases live in the store (platform collections `jobs` and
 * `jobSchedules`), so any number of server processes sharing the store run each job once. The jobs
 * module (src/jobs) runs them.
 */
import type { TenantHandle } from '../store';
import type { ModuleDeps } from './module';
import type { Caller } from './caller';
import type { Principal } from './context';
import type { Lang } from '../i18n';
import type { JobStatus } from '@pv/engine';

// The states are declared once, in the engine (the browser follows tasks by them too).
export type { JobStatus } from '@pv/engine';

export interface JobProgress {
  /** 0-100. */
  percent: number;
  message?: string;
}

export interface JobRecord<P = unknown, R = unknown> {
  _id: string;
  /** Handler type, `<module>.<name>` (e.g. `reports.export`). */
  type: string;
  /** The tenant the job works for; null for platform work. */
  jobTenantId: string | null;
  payload: P;
  status: JobStatus;
  /** ISO instant from which the job may run (retries push it back). */
  runAt: string;
  attempts: number;
  maxAttempts: number;
  /** Runner holding the lease while running. */
  leaseOwner: string | null;
  leaseUntil: string | null;
  progress: JobProgress | null;
  result: R | null;
  lastError: string | null;
  requestedBy: string;
  cancelRequested: boolean;
  /** Schedule that fired the job, when a schedule did. */
  scheduleName: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  rev?: number;
  createdAt?: string;
}

export interface JobContext<P = unknown> {
  job: JobRecord<P>;
  payload: P;
  /** Aborted when the lease is lost, the job is canceled, or the runner stops. Long jobs check it. */
  signal: AbortSignal;
  /** Records progress for the caller to poll (GET /api/jobs/:jobId). */
  progress(percent: number, message?: string): Promise<void>;
  /** The job's tenant handle, acting as the requester; throws for platform jobs. */
  tenant(): TenantHandle;
  /**
   * The user who started the job, in the job's tenant, as a service caller (the same services a
   * route calls, with that user's permissions, no request context). The identity is the job
   * record's (`requestedBy`, `jobTenantId`); `principal` adds what the request knew of them (name
   * ...). Throws for platform jobs.
   */
  caller(options?: JobCallerOptions): Caller;
  deps: ModuleDeps;
}

export interface JobCallerOptions {
  /** The language the caller's messages are written in; default zh. */
  lang?: Lang;
  /** What the request knew of the user beyond their id and tenant (never a session). */
  principal?: Omit<Principal, 'userId' | 'tenantId' | 'sessionId'>;
}

export interface JobDefinition<P = unknown, R = unknown> {
  type: string;
  /** Returns the job's result (stored on the job, JSON). Throwing schedules a retry. */
  handler(ctx: JobContext<P>): Promise<R>;
  /** Attempts before the job is marked failed; default 5. */
  maxAttempts?: number;
  /** First retry delay in ms, doubled each attempt, capped at one hour; default 10 s. */
  backoffMs?: number;
  /** Lease length in ms, renewed every third of it while the handler runs; default 60 s. */
  leaseMs?: number;
  /**
   * The platform operator may schedule this job type on the scheduled tasks page: its zh/en name
   * and the JSON Schema (type object) of the payload a schedule gives it.
   */
  schedulable?: { label: { zh: string; en: string }; payload?: Record<string, unknown> };
}

export function defineJob<P, R>(definition: JobDefinition<P, R>): JobDefinition<P, R> {
  return definition;
}

export interface EnqueueOptions {
  tenantId?: string | null;
  /** Earliest start; default now. */
  runAt?: Date;
  /** User id or system actor; default 'system:jobs'. */
  requestedBy?: string;
  maxAttempts?: number;
  /** A caller-chosen id makes enqueueing idempotent: a second enqueue with it returns the first job. */
  jobId?: string;
}

export interface JobListQuery {
  tenantId: string;
  requestedBy?: string;
  status?: JobStatus;
  skip: number;
  limit: number;
}

export interface ScheduleDeclaration {
  /** Unique name, e.g. `submissions.deadlineReminders`. */
  name: string;
  /** 5 fields (minute hour day month weekday) or 6 with seconds first. */
  cron: string;
  type: string;
  payload?: unknown;
  tenantId?: string | null;
  /** IANA zone the expression is read in; default UTC. */
  timezone?: string;
  enabled?: boolean;
  /** module: declared by a module (put back at start when missing, so it is suspended, not deleted); operator: added on the scheduled tasks page. */
  origin?: 'module' | 'operator';
}

export interface ScheduleRecord extends Required<Omit<ScheduleDeclaration, 'payload' | 'tenantId'>> {
  _id: string;
  payload: unknown;
  scheduleTenantId: string | null;
  nextRunAt: string | null;
  lastRunAt: string | null;
  lastJobId: string | null;
  rev?: number;
}

export interface JobQueue {
  enqueue<P>(type: string, payload: P, options?: EnqueueOptions): Promise<JobRecord<P>>;
  get(jobId: string): Promise<JobRecord | null>;
  /** A tenant's jobs, newest first; only those one user started when `requestedBy` is given. */
  list(query: JobListQuery): Promise<{ total: number; items: JobRecord[] }>;
  /** A queued job is canceled at once; a running one is asked to stop (its signal aborts). */
  cancel(jobId: string): Promise<JobRecord>;
  /** Creates or replaces a cron schedule. */
  schedule(declaration: ScheduleDeclaration): Promise<ScheduleRecord>;
  unschedule(name: string): Promise<boolean>;
  listSchedules(): Promise<ScheduleRecord[]>;
  /** Every registered job type. */
  definitions(): JobDefinition[];
}
