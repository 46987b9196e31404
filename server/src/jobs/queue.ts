import { AppError, errors } from '../http';
import { Code } from '../http';
import type { Clock } from '../http';
import type { PlatformHandle, Store } from '../store';
import { DuplicateKeyError, RevisionConflictError } from '../store';
import { JOB_SCHEDULES, JOBS } from './collections';
import { nextCronRun } from './cron';
import type {
  EnqueueOptions,
  JobDefinition,
  JobQueue,
  JobRecord,
  ScheduleDeclaration,
  ScheduleRecord,
} from './types';

export const DEFAULT_MAX_ATTEMPTS = 5;

export function newJobRecord<P>(
  type: string,
  payload: P,
  now: Date,
  options: EnqueueOptions = {},
): Omit<JobRecord<P>, '_id'> & { _id?: string } {
  return {
    ...(options.jobId ? { _id: options.jobId } : {}),
    type,
    jobTenantId: options.tenantId ?? null,
    payload,
    status: 'queued',
    runAt: (options.runAt ?? now).toISOString(),
    attempts: 0,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    leaseOwner: null,
    leaseUntil: null,
    progress: null,
    result: null,
    lastError: null,
    requestedBy: options.requestedBy ?? 'system:jobs',
    cancelRequested: false,
    scheduleName: null,
    startedAt: null,
    finishedAt: null,
  };
}

/**
 * The queue side of the job runner: what modules and routes use to start work, look at it and
 * schedule it. `definitionOf` rejects jobs no module handles, so a typo fails at the call, not later.
 */
export function createJobQueue(
  store: Store,
  clock: Clock,
  definitionOf: (type: string) => JobDefinition | undefined,
  allDefinitions: () => Iterable<JobDefinition> = () => [],
): JobQueue {
  const platform = (): PlatformHandle => store.platform({ userId: 'system:jobs' });
  const jobs = () => platform().collection<Omit<JobRecord, '_id'>>(JOBS);
  const schedules = () => platform().collection<Omit<ScheduleRecord, '_id'>>(JOB_SCHEDULES);
  const requireType = (type: string) => {
    const definition = definitionOf(type);
    if (!definition) throw new AppError(Code.badRequest, 'server.jobTypeUnknown', { type }, 400);
    return definition;
  };

  return {
    async enqueue(type, payload, options = {}) {
      const definition = requireType(type);
      const record = newJobRecord(type, payload, clock.now(), {
        maxAttempts: definition.maxAttempts,
        ...options,
      });
      try {
        return (await jobs().insertOne(record)) as unknown as JobRecord<typeof payload>;
      } catch (error) {
        if (error instanceof DuplicateKeyError && options.jobId) {
          const existing = await jobs().findOne({ _id: options.jobId });
          if (existing) return existing as unknown as JobRecord<typeof payload>;
        }
        throw error;
      }
    },

    async get(jobId) {
      return (await jobs().findOne({ _id: jobId })) as JobRecord | null;
    },

    async list({ tenantId, requestedBy, status, skip, limit }) {
      const filter: Record<string, unknown> = { jobTenantId: tenantId };
      if (requestedBy !== undefined) filter.requestedBy = requestedBy;
      if (status !== undefined) filter.status = status;
      const [total, items] = await Promise.all([
        jobs().count(filter),
        jobs().find(filter, { sort: { createdAt: -1 }, skip, limit }),
      ]);
      return { total, items: items as unknown as JobRecord[] };
    },

    async cancel(jobId) {
      for (;;) {
        const job = (await jobs().findOne({ _id: jobId })) as JobRecord | null;
        if (!job) throw errors.notFound('server.jobNotFound');
        const now = clock.now().toISOString();
        let update: Record<string, Record<string, unknown>>;
        if (job.status === 'queued') update = { $set: { status: 'canceled', finishedAt: now } };
        else if (job.status === 'running') update = { $set: { cancelRequested: true } };
        else throw errors.conflict('server.jobNotCancelable', { status: job.status }, { status: job.status });
        try {
          const updated = await jobs().updateOne({ _id: jobId }, update, { expectedRev: job.rev });
          if (updated) return updated as unknown as JobRecord;
        } catch (error) {
          // The runner claimed or finished it meanwhile: look again.
          if (!(error instanceof RevisionConflictError)) throw error;
        }
      }
    },

    async schedule(declaration: ScheduleDeclaration) {
      requireType(declaration.type);
      const timezone = declaration.timezone ?? 'UTC';
      const next = nextCronRun(declaration.cron, clock.now(), timezone);
      const fields = {
        name: declaration.name,
        cron: declaration.cron.trim(),
        type: declaration.type,
        payload: declaration.payload ?? null,
        scheduleTenantId: declaration.tenantId ?? null,
        timezone,
        enabled: declaration.enabled ?? true,
        origin: declaration.origin ?? 'module',
        nextRunAt: next ? next.toISOString() : null,
      };
      // Two processes starting on one store both declare their module schedules: the loser of
      // the insert race (or of the update race) reads again and updates what the winner wrote.
      for (let attempt = 0; ; attempt += 1) {
        try {
          const existing = await schedules().findOne({ _id: declaration.name });
          if (existing) {
            const updated = await schedules().updateOne(
              { _id: declaration.name },
              { $set: fields },
              { expectedRev: existing.rev },
            );
            return updated as unknown as ScheduleRecord;
          }
          return (await schedules().insertOne({
            _id: declaration.name,
            ...fields,
            lastRunAt: null,
            lastJobId: null,
          })) as unknown as ScheduleRecord;
        } catch (error) {
          const raced = error instanceof DuplicateKeyError || error instanceof RevisionConflictError;
          if (!raced || attempt >= 4) throw error;
        }
      }
    },

    async unschedule(name) {
      return schedules().deleteOne({ _id: name });
    },

    async listSchedules() {
      return (await schedules().find({}, { sort: { _id: 1 } })) as unknown as ScheduleRecord[];
    },

    definitions() {
      return [...allDefinitions()];
    },
  };
}
