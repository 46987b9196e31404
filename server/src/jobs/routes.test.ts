import { afterAll, describe, expect, it } from 'vitest';
import type { Authenticator } from '../http';
import { defineModule } from '../http';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { JobRunner } from './runner';
import { defineJob } from './types';

const store = await testStore();
afterAll(() => store.close());

const exportsModule = defineModule({
  name: 'probe',
  jobs: [
    defineJob<{ rows: number }, { fileName: string }>({
      type: 'probe.export',
      async handler({ payload, progress, tenant }) {
        await progress(50, 'writing');
        expect(tenant().tenantId).toBe('t1');
        return { fileName: `export-${payload.rows}.xlsx` };
      },
    }),
  ],
});
const authenticator: Authenticator = {
  authenticate: async (token) => ({ userId: token, tenantId: token === 'eve' ? 't2' : 't1' }),
};
const platform = testPlatform({ store, modules: [exportsModule], authenticator });
await platform.ready();

describe('job routes', () => {
  it('shows a tenant its job status, progress and result, and nothing of other tenants', async () => {
    const job = await platform.deps.jobs.enqueue(
      'probe.export',
      { rows: 3 },
      { tenantId: 't1', requestedBy: 'alice' },
    );
    const queued = await call(platform.app, 'GET', `/api/jobs/${job._id}`, { token: 'alice' });
    expect(queued.body.data).toMatchObject({
      jobId: job._id,
      type: 'probe.export',
      status: 'queued',
      progress: null,
    });
    expect(queued.body.data).not.toHaveProperty('payload');

    const runner = new JobRunner(platform.deps, platform.jobDefinitions, { owner: 'test' });
    await runner.tick();
    await runner.idle();
    const done = await call(platform.app, 'GET', `/api/jobs/${job._id}`, { token: 'alice' });
    expect(done.body.data).toMatchObject({
      status: 'succeeded',
      result: { fileName: 'export-3.xlsx' },
      progress: { percent: 100 },
    });

    const other = await call(platform.app, 'GET', `/api/jobs/${job._id}`, { token: 'eve' });
    expect(other.status).toBe(404);
    expect((await call(platform.app, 'POST', `/api/jobs/${job._id}/cancel`, { token: 'eve' })).status).toBe(
      404,
    );
  });

  it('cancels a queued job through the API', async () => {
    const job = await platform.deps.jobs.enqueue(
      'probe.export',
      { rows: 1 },
      { tenantId: 't1', requestedBy: 'alice', runAt: new Date(platform.deps.clock.now().getTime() + 60_000) },
    );
    const res = await call(platform.app, 'POST', `/api/jobs/${job._id}/cancel`, {
      token: 'alice',
      lang: 'en',
    });
    expect(res.body.data).toMatchObject({ status: 'canceled' });
    const again = await call(platform.app, 'POST', `/api/jobs/${job._id}/cancel`, {
      token: 'alice',
      lang: 'en',
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('The task has already ended and cannot be canceled');
  });

  it('shows and cancels a job only for the user who started it; lists only their own', async () => {
    const later = () => new Date(platform.deps.clock.now().getTime() + 60_000);
    const mine = await platform.deps.jobs.enqueue(
      'probe.export',
      { rows: 2 },
      { tenantId: 't1', requestedBy: 'alice', runAt: later() },
    );
    const theirs = await platform.deps.jobs.enqueue(
      'probe.export',
      { rows: 2 },
      { tenantId: 't1', requestedBy: 'bob', runAt: later() },
    );
    const read = await call(platform.app, 'GET', `/api/jobs/${mine._id}`, { token: 'bob', lang: 'en' });
    expect(read.status).toBe(403);
    expect(read.body.msg).toBe(
      'Only the user who started this task or an administrator may see or cancel it',
    );
    expect((await call(platform.app, 'POST', `/api/jobs/${mine._id}/cancel`, { token: 'bob' })).status).toBe(
      403,
    );
    expect((await platform.deps.jobs.get(mine._id))?.status).toBe('queued');
    const list = await call(platform.app, 'GET', '/api/jobs?status=queued&size=100', { token: 'bob' });
    const ids = (list.body.data as { items: { jobId: string }[] }).items.map((item) => item.jobId);
    expect(ids).toContain(theirs._id);
    expect(ids).not.toContain(mine._id);
    expect(
      (await call(platform.app, 'POST', `/api/jobs/${mine._id}/cancel`, { token: 'alice' })).status,
    ).toBe(200);
  });
});
