import { newJobRecord } from './queue';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlatform } from '../app';
import { AppError } from '../http';
import { defineModule } from '../http';
import { silentLogger } from '../http';
import { testStore } from '../http/test-store';
import { JOBS } from './collections';
import { JobRunner, backoffDelay } from './runner';
import { defineJob } from './types';
import type { JobQueue } from './types';

let current = new Date('2026-03-01T10:02:00Z');
const clock = { now: () => new Date(current) };
const advance = (ms: number) => {
  current = new Date(current.getTime() + ms);
};

const runs: { jobId: string; payload: unknown; attempt: number }[] = [];
let failuresLeft = 0;
let release: (() => void) | null = null;

const probe = defineModule({
  name: 'probe',
  collections: [{ name: 'probeNotes', scope: 'tenant' }],
  jobs: [
    defineJob<{ n: number }, { doubled: number }>({
      type: 'probe.double',
      async handler({ job, payload }) {
        runs.push({ jobId: job._id, payload, attempt: job.attempts });
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('transient failure');
        }
        return { doubled: payload.n * 2 };
      },
      maxAttempts: 3,
      backoffMs: 1000,
    }),
    // Answers what its caller is: who, where, in which language, holding what.
    defineJob<{ principal?: Record<string, unknown> }, Record<string, unknown>>({
      type: 'probe.caller',
      async handler({ caller, payload }) {
        const who = caller({ lang: 'en', principal: payload.principal });
        const note = await who.tenant.collection('probeNotes').insertOne({ text: 'written by the job' });
        return {
          userId: who.userId,
          tenantId: who.principal.tenantId,
          name: who.principal.name ?? null,
          sessionId: who.principal.sessionId ?? null,
          lang: who.lang,
          text: who.t('common.forbidden'),
          requestId: who.requestId,
          projectId: who.projectId,
          may: await who.authorize('probe:run'),
          mayInP1: await who.authorize('probe:run', { projectId: 'p1' }),
          mayInP2: await who.authorize('probe:run', { projectId: 'p2' }),
          noteBy: (note as { createdBy?: string }).createdBy ?? null,
        };
      },
      maxAttempts: 1,
    }),
    defineJob({
      type: 'probe.slow',
      async handler({ progress, signal }) {
        await progress(40, 'reading');
        await new Promise<void>((resolve) => {
          release = resolve;
          signal.addEventListener('abort', () => resolve());
        });
        return 'done';
      },
      leaseMs: 300,
    }),
  ],
});

let store: Awaited<ReturnType<typeof testStore>>;
let platform: ReturnType<typeof createPlatform>;
let jobs: JobQueue;
const runner = (owner: string) =>
  new JobRunner(platform.deps, platform.jobDefinitions, { owner, concurrency: 4 });

/** One pass of every runner, then wait for the jobs they started. */
async function pass(...runners: JobRunner[]): Promise<void> {
  await Promise.all(runners.map((r) => r.tick()));
  await Promise.all(runners.map((r) => r.idle()));
}

// A fresh store per test: jobs left by one test must not run in the next.
beforeEach(async () => {
  runs.length = 0;
  failuresLeft = 0;
  current = new Date('2026-03-01T10:02:00Z');
  store = await testStore();
  platform = createPlatform({
    store,
    clock,
    modules: [probe],
    // Alice holds probe:run in her tenant and in p1 (the context project of a job is none).
    authenticator: {
      authenticate: async () => null,
      authorize: (principal, permission, context, scope) =>
        principal.userId === 'alice' &&
        permission === 'probe:run' &&
        context.projectId === null &&
        (!scope || scope.projectId === 'p1'),
    },
    logger: silentLogger,
    config: { webDist: null },
  });
  await platform.ready();
  jobs = platform.deps.jobs;
});
afterEach(() => store.close());

describe('job runner', () => {
  it('runs an enqueued job once and keeps its result', async () => {
    const job = await jobs.enqueue('probe.double', { n: 21 }, { tenantId: 't1', requestedBy: 'alice' });
    expect(job.status).toBe('queued');
    const a = runner('a');
    await pass(a);
    await pass(a);
    expect(runs).toHaveLength(1);
    const done = await jobs.get(job._id);
    expect(done).toMatchObject({
      status: 'succeeded',
      result: { doubled: 42 },
      attempts: 1,
      leaseOwner: null,
    });
  });

  it('does not run a job before its runAt', async () => {
    const job = await jobs.enqueue('probe.double', { n: 1 }, { runAt: new Date(current.getTime() + 60_000) });
    const a = runner('a');
    await pass(a);
    expect((await jobs.get(job._id))?.status).toBe('queued');
    advance(60_000);
    await pass(a);
    expect((await jobs.get(job._id))?.status).toBe('succeeded');
  });

  it('gives a job to exactly one of several runners ticking together', async () => {
    const ids = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => jobs.enqueue('probe.double', { n }).then((j) => j._id)),
    );
    const runners = ['a', 'b', 'c'].map(runner);
    await pass(...runners);
    await pass(...runners);
    expect(runs.map((r) => r.jobId).sort()).toEqual([...ids].sort());
  });

  it('retries a failing job with exponential backoff, then marks it failed', async () => {
    failuresLeft = 10;
    const job = await jobs.enqueue('probe.double', { n: 1 });
    const a = runner('a');
    await pass(a);
    let state = await jobs.get(job._id);
    expect(state).toMatchObject({ status: 'queued', attempts: 1, lastError: 'transient failure' });
    expect(Date.parse(state!.runAt) - current.getTime()).toBe(1000);
    advance(999);
    await pass(a);
    expect(runs).toHaveLength(1);
    advance(1);
    await pass(a);
    state = await jobs.get(job._id);
    expect(Date.parse(state!.runAt) - current.getTime()).toBe(2000);
    advance(2000);
    await pass(a);
    expect(await jobs.get(job._id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastError: 'transient failure',
    });
    expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(backoffDelay(1000, 30)).toBe(60 * 60_000);
  });

  it('records progress while a long job runs, and the result when it ends', async () => {
    const job = await jobs.enqueue('probe.slow', {});
    const a = runner('a');
    await a.tick();
    await expect
      .poll(async () => (await jobs.get(job._id))?.progress)
      .toEqual({ percent: 40, message: 'reading' });
    expect((await jobs.get(job._id))?.status).toBe('running');
    release!();
    await a.idle();
    expect(await jobs.get(job._id)).toMatchObject({
      status: 'succeeded',
      result: 'done',
      progress: { percent: 100 },
    });
  });

  it('takes over a job whose runner died once its lease has expired', async () => {
    const platformJobs = store.platform({ userId: 'test' }).collection(JOBS);
    const orphan = await platformJobs.insertOne({
      ...newJobRecord('probe.double', { n: 5 }, current),
      status: 'running',
      attempts: 1,
      leaseOwner: 'dead-runner',
      leaseUntil: new Date(current.getTime() + 1000).toISOString(),
    });
    const a = runner('a');
    await pass(a);
    expect(runs).toHaveLength(0);
    advance(1001);
    await pass(a);
    expect(runs).toHaveLength(1);
    expect(await jobs.get(orphan._id)).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('cancels a queued job, and asks a running one to stop', async () => {
    const queued = await jobs.enqueue(
      'probe.double',
      { n: 1 },
      { runAt: new Date(current.getTime() + 5000) },
    );
    expect((await jobs.cancel(queued._id)).status).toBe('canceled');
    await expect(jobs.cancel(queued._id)).rejects.toMatchObject({ httpStatus: 409 });

    const slow = await jobs.enqueue('probe.slow', {});
    const a = runner('a');
    await a.tick();
    await expect.poll(async () => (await jobs.get(slow._id))?.status).toBe('running');
    await jobs.cancel(slow._id);
    await a.idle();
    expect((await jobs.get(slow._id))?.status).toBe('canceled');
  });

  it("gives a tenant job its starter as a service caller: the record's user and tenant, the platform's authorizer", async () => {
    // The payload may add what the request knew (a name), never change who acts.
    const payload = { principal: { userId: 'mallory', tenantId: 't2', name: 'Alice', sessionId: 's1' } };
    const alice = await jobs.enqueue('probe.caller', payload, { tenantId: 't1', requestedBy: 'alice' });
    const bob = await jobs.enqueue('probe.caller', {}, { tenantId: 't1', requestedBy: 'bob' });
    const platformJob = await jobs.enqueue('probe.caller', {}, { requestedBy: 'alice' });
    await pass(runner('a'));
    expect((await jobs.get(alice._id))?.result).toEqual({
      userId: 'alice',
      tenantId: 't1',
      name: 'Alice',
      sessionId: null,
      lang: 'en',
      text: platform.deps.translator.t('en', 'common.forbidden'),
      requestId: `job:${alice._id}`,
      projectId: null,
      may: true,
      mayInP1: true,
      mayInP2: false,
      noteBy: 'alice',
    });
    expect((await jobs.get(bob._id))?.result).toMatchObject({ userId: 'bob', may: false, mayInP1: false });
    // A platform job has no tenant to act in.
    expect(await jobs.get(platformJob._id)).toMatchObject({ status: 'failed' });
  });

  it('refuses a job type no module handles', async () => {
    await expect(jobs.enqueue('nobody.handles', {})).rejects.toBeInstanceOf(AppError);
  });

  it('makes enqueueing with a caller-chosen id idempotent', async () => {
    const first = await jobs.enqueue('probe.double', { n: 1 }, { jobId: 'export-42' });
    const second = await jobs.enqueue('probe.double', { n: 2 }, { jobId: 'export-42' });
    expect(second._id).toBe(first._id);
    expect(second.payload).toEqual({ n: 1 });
  });

  it('fires a cron schedule once per occurrence, whichever runners tick', async () => {
    const schedule = await jobs.schedule({
      name: 'probe.every5',
      cron: '*/5 * * * *',
      type: 'probe.double',
      payload: { n: 7 },
    });
    expect(schedule.nextRunAt).toBe('2026-03-01T10:05:00.000Z');
    const runners = ['a', 'b'].map(runner);
    const tickAll = async () => {
      await pass(...runners);
      await pass(...runners);
    };
    await tickAll();
    expect(runs).toHaveLength(0);
    advance(3 * 60_000);
    await tickAll();
    advance(5 * 60_000);
    await tickAll();
    expect(runs.map((r) => r.jobId)).toEqual([
      'schedule:probe.every5:2026-03-01T10:05:00.000Z',
      'schedule:probe.every5:2026-03-01T10:10:00.000Z',
    ]);
    const [after] = await jobs.listSchedules();
    expect(after).toMatchObject({
      nextRunAt: '2026-03-01T10:15:00.000Z',
      lastRunAt: '2026-03-01T10:10:00.000Z',
    });
    expect(await jobs.unschedule('probe.every5')).toBe(true);
  });

  it('refuses an invalid cron expression', async () => {
    await expect(
      jobs.schedule({ name: 'bad', cron: '99 * * * *', type: 'probe.double' }),
    ).rejects.toMatchObject({
      messageKey: 'server.cronInvalid',
    });
  });
});
