/**
 * The job runner. Every server process runs one; they coordinate only through the store:
 * - a job is claimed by a compare-and-set on its revision (status queued, or running with an
 *   expired lease), so exactly one runner wins it;
 * - the winner holds a lease (leaseOwner, leaseUntil) renewed while the handler runs; a runner
 *   that dies lets the lease expire and another runner retries the job;
 * - a cron schedule fires by advancing its nextRunAt with the same compare-and-set, inserting the
 *   job in the same transaction, so one firing makes one job.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { describeError } from '../http';
import type { ModuleDeps } from '../http';
import { createCaller } from '../http';
import type { Principal } from '../http';
import type { Collection, StoredDoc } from '../store';
import { DuplicateKeyError, RevisionConflictError } from '../store';
import { JOB_SCHEDULES, JOBS } from './collections';
import { nextCronRun } from './cron';
import { newJobRecord } from './queue';
import type { JobContext, JobDefinition, JobRecord, ScheduleRecord } from './types';

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_BACKOFF_MS = 10_000;
const MAX_BACKOFF_MS = 60 * 60_000;

export interface JobRunnerOptions {
  /** Identifies this runner in leases; default host:pid:random. */
  owner?: string;
  /** How often to look for due jobs and schedules; default 1 s. */
  pollMs?: number;
  /** Jobs run at the same time by this runner; default 2. */
  concurrency?: number;
}

type JobDoc = StoredDoc<Omit<JobRecord, '_id'>>;
type ScheduleDoc = StoredDoc<Omit<ScheduleRecord, '_id'>>;

/** Delay before retry number `attempt` (1-based): base, 2x, 4x ... capped at one hour. */
export function backoffDelay(baseMs: number, attempt: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), MAX_BACKOFF_MS);
}

export class JobRunner {
  readonly owner: string;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private started = false;
  private stopped = false;

  constructor(
    private readonly deps: ModuleDeps,
    private readonly definitions: Map<string, JobDefinition>,
    options: JobRunnerOptions = {},
  ) {
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.pollMs = options.pollMs ?? 1000;
    this.concurrency = options.concurrency ?? 2;
  }

  private jobs(): Collection<Omit<JobRecord, '_id'>> {
    return this.deps.store.platform({ userId: 'system:jobs' }).collection(JOBS);
  }

  private schedules(): Collection<Omit<ScheduleRecord, '_id'>> {
    return this.deps.store.platform({ userId: 'system:jobs' }).collection(JOB_SCHEDULES);
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.tick()
        .catch((error: unknown) =>
          this.deps.log({ level: 'error', msg: 'job runner tick failed', error: describeError(error) }),
        )
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.pollMs);
        });
    };
    loop();
  }

  /** Stops claiming; running handlers get `graceMs` to finish, then their signal aborts. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    const all = [...this.running.values()];
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.all(all.map((r) => r.done)), grace]);
    for (const r of all) r.controller.abort(new Error('job runner stopped'));
    await Promise.all(all.map((r) => r.done));
  }

  /** One pass: fire due schedules, then claim and start due jobs up to the free slots. */
  async tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = (async () => {
      await this.fireSchedules();
      await this.claimJobs();
    })().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  /** Resolves when every job this runner has started has finished (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((r) => r.done));
  }

  private async fireSchedules(): Promise<void> {
    const now = this.now();
    const due = (await this.schedules().find(
      { enabled: true, nextRunAt: { $ne: null, $lte: now.toISOString() } },
      { sort: { nextRunAt: 1 }, limit: 50 },
    )) as ScheduleDoc[];
    for (const schedule of due) {
      if (!this.definitions.has(schedule.type)) continue;
      const firedAt = schedule.nextRunAt!;
      const next = nextCronRun(schedule.cron, now, schedule.timezone);
      const jobId = `schedule:${schedule._id}:${firedAt}`;
      try {
        await this.deps.store.platform({ userId: 'system:jobs' }).transaction(async (tx) => {
          await tx
            .collection(JOB_SCHEDULES)
            .updateOne(
              { _id: schedule._id },
              { $set: { nextRunAt: next ? next.toISOString() : null, lastRunAt: firedAt, lastJobId: jobId } },
              { expectedRev: schedule.rev },
            );
          await tx.collection(JOBS).insertOne({
            ...newJobRecord(schedule.type, schedule.payload, now, {
              jobId,
              tenantId: schedule.scheduleTenantId,
              maxAttempts: this.definitions.get(schedule.type)!.maxAttempts,
              requestedBy: `system:schedule:${schedule._id}`,
            }),
            scheduleName: schedule._id,
          });
        });
      } catch (error) {
        // Another runner fired this occurrence first.
        if (error instanceof RevisionConflictError || error instanceof DuplicateKeyError) continue;
        throw error;
      }
    }
  }

  private async claimJobs(): Promise<void> {
    const free = this.concurrency - this.running.size;
    if (free <= 0 || this.stopped) return;
    const now = this.now().toISOString();
    const types = [...this.definitions.keys()];
    if (types.length === 0) return;
    const queued = (await this.jobs().find(
      { status: 'queued', runAt: { $lte: now }, type: { $in: types } },
      { sort: { runAt: 1 }, limit: free * 2 },
    )) as JobDoc[];
    const orphaned = (await this.jobs().find(
      { status: 'running', leaseUntil: { $lt: now }, type: { $in: types } },
      { sort: { leaseUntil: 1 }, limit: free },
    )) as JobDoc[];
    for (const candidate of [...orphaned, ...queued]) {
      if (this.running.size >= this.concurrency || this.stopped) return;
      const claimed = await this.claim(candidate);
      if (claimed) this.launch(claimed);
    }
  }

  private async claim(job: JobDoc): Promise<JobDoc | null> {
    const definition = this.definitions.get(job.type)!;
    const now = this.now();
    const orphaned = job.status === 'running';
    // A job whose runner died has used its attempt; give up when none are left.
    if (orphaned && job.attempts >= job.maxAttempts) {
      await this.settle(
        job,
        { status: 'failed', lastError: 'lease expired: the runner stopped while running it' },
        job.rev,
      );
      return null;
    }
    if (job.cancelRequested) {
      await this.settle(job, { status: 'canceled' }, job.rev);
      return null;
    }
    try {
      return (await this.jobs().updateOne(
        { _id: job._id },
        {
          $set: {
            status: 'running',
            leaseOwner: this.owner,
            leaseUntil: new Date(now.getTime() + (definition.leaseMs ?? DEFAULT_LEASE_MS)).toISOString(),
            startedAt: now.toISOString(),
          },
          $inc: { attempts: 1 },
        },
        { expectedRev: job.rev },
      )) as JobDoc | null;
    } catch (error) {
      if (error instanceof RevisionConflictError) return null;
      throw error;
    }
  }

  /** Writes a final state, when the job is still as we read it (expectedRev) or still ours. */
  private async settle(job: JobDoc, fields: Partial<JobRecord>, expectedRev?: number): Promise<boolean> {
    const filter =
      expectedRev === undefined
        ? { _id: job._id, leaseOwner: this.owner, status: 'running' }
        : { _id: job._id };
    try {
      const updated = await this.jobs().updateOne(
        filter,
        { $set: { ...fields, leaseOwner: null, leaseUntil: null, finishedAt: this.now().toISOString() } },
        expectedRev === undefined ? {} : { expectedRev },
      );
      return updated !== null;
    } catch (error) {
      if (error instanceof RevisionConflictError) return false;
      throw error;
    }
  }

  private launch(job: JobDoc): void {
    const controller = new AbortController();
    const done = this.execute(job, controller)
      .catch((error: unknown) =>
        this.deps.log({
          level: 'error',
          msg: 'job bookkeeping failed',
          jobId: job._id,
          error: describeError(error),
        }),
      )
      .finally(() => this.running.delete(job._id));
    this.running.set(job._id, { controller, done });
  }

  private async execute(job: JobDoc, controller: AbortController): Promise<void> {
    const definition = this.definitions.get(job.type)!;
    const leaseMs = definition.leaseMs ?? DEFAULT_LEASE_MS;
    const ours = { _id: job._id, leaseOwner: this.owner, status: 'running' };
    let cancelRequested = false;
    const renew = setInterval(
      () => {
        this.jobs()
          .updateOne(ours, { $set: { leaseUntil: new Date(this.now().getTime() + leaseMs).toISOString() } })
          .then((updated) => {
            if (!updated) controller.abort(new Error('lease lost'));
            else if (updated.cancelRequested) {
              cancelRequested = true;
              controller.abort(new Error('canceled'));
            }
          })
          .catch((error: unknown) =>
            this.deps.log({
              level: 'warn',
              msg: 'lease renewal failed',
              jobId: job._id,
              error: describeError(error),
            }),
          );
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );

    const record = { ...job } as unknown as JobRecord;
    const context: JobContext = {
      job: record,
      payload: job.payload,
      signal: controller.signal,
      progress: async (percent, message) => {
        const progress = { percent: Math.max(0, Math.min(100, percent)), ...(message ? { message } : {}) };
        const updated = await this.jobs().updateOne(ours, { $set: { progress } });
        if (!updated) controller.abort(new Error('lease lost'));
      },
      tenant: () => {
        if (!job.jobTenantId) throw new Error(`job ${job._id} works for the platform, not a tenant`);
        return this.deps.store.tenant(job.jobTenantId, { userId: job.requestedBy });
      },
      caller: (options = {}) => {
        if (!job.jobTenantId) throw new Error(`job ${job._id} works for the platform, not a tenant`);
        // The record decides who acts: extras in the options never change the user or the tenant.
        const { sessionId: _session, ...extras } = { ...options.principal } as Partial<Principal>;
        return createCaller({
          deps: this.deps,
          principal: { ...extras, userId: job.requestedBy, tenantId: job.jobTenantId },
          lang: options.lang ?? 'zh',
          requestId: `job:${job._id}`,
          authenticator: this.deps.authenticator ?? null,
        });
      },
      deps: this.deps,
    };

    const started = performance.now();
    try {
      const result = await definition.handler(context);
      if (controller.signal.aborted && !cancelRequested) return; // lease lost: the new holder decides
      await this.settle(
        job,
        cancelRequested
          ? { status: 'canceled' }
          : { status: 'succeeded', result: (result ?? null) as unknown, progress: { percent: 100 } },
      );
      this.deps.log({
        level: 'info',
        msg: 'job succeeded',
        jobId: job._id,
        type: job.type,
        attempt: job.attempts,
        ms: Math.round(performance.now() - started),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.log({
        level: 'warn',
        msg: 'job attempt failed',
        jobId: job._id,
        type: job.type,
        attempt: job.attempts,
        error: describeError(error),
      });
      if (cancelRequested) {
        await this.settle(job, { status: 'canceled', lastError: message });
      } else if (controller.signal.aborted) {
        return;
      } else if (job.attempts < job.maxAttempts) {
        const delay = backoffDelay(definition.backoffMs ?? DEFAULT_BACKOFF_MS, job.attempts);
        await this.jobs().updateOne(ours, {
          $set: {
            status: 'queued',
            runAt: new Date(this.now().getTime() + delay).toISOString(),
            lastError: message,
            leaseOwner: null,
            leaseUntil: null,
          },
        });
      } else {
        await this.settle(job, { status: 'failed', lastError: message });
      }
    } finally {
      clearInterval(renew);
    }
  }
}
