import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';
import { call } from '../testing';
import { prepare } from '../server';
import { JOBS } from './collections';
import { JobRunner } from './runner';

describe('scheduled tasks (operator)', () => {
  let fx: IdentityFixture;
  let operator: string;
  const api = (method: string, path: string, body?: unknown, token = operator) =>
    call(fx.platform.app, method, `/api/jobs${path}`, { token, body, lang: 'en' });
  type Row = {
    name: string;
    enabled: boolean;
    nextRunAt: string | null;
    lastStatus: string | null;
    origin: string;
    rev: number;
    typeLabel: { en: string };
  };
  const schedules = async () => ((await api('GET', '/schedules')).body.data as { items: Row[] }).items;

  beforeAll(async () => {
    fx = await identityFixture();
    await prepare(fx.platform);
    operator = await fx.login('operator');
  });
  afterAll(() => fx.close());

  it('lists the built-in nightly purge, previews expressions, refuses bad ones in the operator’s words', async () => {
    const [purge] = await schedules();
    expect(purge).toMatchObject({ name: 'jobs.purgeFinished', origin: 'module', enabled: true });
    expect(purge!.typeLabel.en).toBe('Remove finished background task records');
    expect(purge!.nextRunAt).toBe('2026-03-03T03:30:00.000Z');

    const preview = await api('POST', '/cron-preview', { cron: '0 9 * * 1', timezone: 'Asia/Shanghai' });
    expect((preview.body.data as { runs: string[] }).runs.slice(0, 2)).toEqual([
      '2026-03-09T01:00:00.000Z',
      '2026-03-16T01:00:00.000Z',
    ]);
    const bad = await api('POST', '/cron-preview', { cron: '61 * * * *', timezone: 'UTC' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('Invalid schedule expression: 61 * * * *');
    const zone = await api('POST', '/cron-preview', { cron: '0 9 * * *', timezone: 'Mars/Olympus' });
    expect(zone.body.msg).toBe('Invalid time zone: Mars/Olympus');

    const admin = await fx.login('demoadmin');
    expect((await api('GET', '/schedules', undefined, admin)).status).toBe(403);
  });

  it('adds, edits, suspends, resumes, runs once with a log, and deletes only what the operator added', async () => {
    expect(
      (await api('POST', '/schedules', { name: 'weekly.purge', type: 'nope.job', cron: '0 2 * * 0' })).body
        .msg,
    ).toBe('This task type cannot be scheduled: nope.job');
    const badPayload = await api('POST', '/schedules', {
      name: 'weekly.purge',
      type: 'jobs.purgeFinished',
      cron: '0 2 * * 0',
      payload: { olderThanDays: 1 },
    });
    expect(badPayload.status).toBe(400);
    const added = await api('POST', '/schedules', {
      name: 'weekly.purge',
      type: 'jobs.purgeFinished',
      cron: '0 2 * * 0',
      timezone: 'Asia/Shanghai',
      payload: { olderThanDays: 90 },
    });
    expect(added.body.code).toBe(200);
    expect(
      (
        await api('POST', '/schedules', {
          name: 'weekly.purge',
          type: 'jobs.purgeFinished',
          cron: '0 2 * * 0',
        })
      ).body.msg,
    ).toBe('A scheduled task named weekly.purge exists already');

    let row = (await schedules()).find((s) => s.name === 'weekly.purge')!;
    const edited = await api('PUT', '/schedules/weekly.purge', {
      cron: '15 4 * * *',
      timezone: 'UTC',
      rev: row.rev,
    });
    expect(edited.body.code).toBe(200);
    row = (await schedules()).find((s) => s.name === 'weekly.purge')!;
    expect(row.nextRunAt).toBe('2026-03-03T04:15:00.000Z');
    expect(
      (await api('PUT', '/schedules/weekly.purge', { cron: '15 4 * * *', timezone: 'UTC', rev: 1 })).status,
    ).toBe(409);

    await api('POST', '/schedules/weekly.purge/suspend');
    row = (await schedules()).find((s) => s.name === 'weekly.purge')!;
    expect(row).toMatchObject({ enabled: false, nextRunAt: null });
    // A suspended schedule does not fire, however late it is.
    fx.clock.advance(2 * 86_400_000);
    operator = await fx.login('operator');
    const runner = new JobRunner(fx.platform.deps, fx.platform.jobDefinitions, { owner: 'test' });
    await runner.tick();
    await runner.idle();
    expect((await api('GET', '/schedules/weekly.purge/log')).body.data).toMatchObject({ total: 0 });
    await api('POST', '/schedules/weekly.purge/resume');
    row = (await schedules()).find((s) => s.name === 'weekly.purge')!;
    expect(row).toMatchObject({ enabled: true, nextRunAt: '2026-03-05T04:15:00.000Z' });

    // Run once: an old finished job is removed, a failed one kept, the run is in the log.
    const jobs = fx.platform.deps.store.platform({ userId: 'test' }).collection(JOBS);
    const old = new Date(fx.clock.now().getTime() - 100 * 86_400_000).toISOString();
    await jobs.insertOne({
      _id: 'old-done',
      type: 'jobs.purgeFinished',
      status: 'succeeded',
      finishedAt: old,
    });
    await jobs.insertOne({
      _id: 'old-failed',
      type: 'jobs.purgeFinished',
      status: 'failed',
      finishedAt: old,
    });
    const run = await api('POST', '/schedules/weekly.purge/run');
    expect(run.body.code).toBe(200);
    await runner.tick();
    await runner.idle();
    const log = (await api('GET', '/schedules/weekly.purge/log')).body.data as {
      total: number;
      items: { status: string; result: { removed: number } }[];
    };
    expect(log.total).toBe(1);
    expect(log.items[0]).toMatchObject({ status: 'succeeded', result: { removed: 1 } });
    expect(await jobs.findOne({ _id: 'old-done' })).toBeNull();
    expect(await jobs.findOne({ _id: 'old-failed' })).not.toBeNull();

    expect((await api('DELETE', '/schedules/jobs.purgeFinished')).body.msg).toBe(
      'A built-in scheduled task cannot be deleted; suspend it instead',
    );
    expect((await api('DELETE', '/schedules/weekly.purge')).body.code).toBe(200);
    expect((await schedules()).map((s) => s.name)).toEqual(['jobs.purgeFinished']);
  });
});
