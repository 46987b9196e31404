import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineJob } from './jobs';
import { defineModule } from './http';
import { silentLogger } from './http';
import { startServer } from './server';

const dir = mkdtempSync(join(tmpdir(), 'pv-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seeded = defineModule({
  name: 'seeded',
  collections: [{ name: 'greetings', scope: 'platform' }],
  async seed({ store }) {
    const greetings = store.platform({ userId: 'system:seed' }).collection('greetings');
    if (!(await greetings.findOne({ _id: 'hello' })))
      await greetings.insertOne({ _id: 'hello', text: '你好' });
  },
  jobs: [defineJob({ type: 'seeded.nightly', handler: async () => null })],
  schedules: [
    { name: 'seeded.nightly', cron: '0 2 * * *', type: 'seeded.nightly', timezone: 'Asia/Shanghai' },
  ],
});

describe('startServer', () => {
  it('creates the data directory, seeds idempotently, keeps edited schedules, serves on a free port', async () => {
    const dataDir = join(dir, 'nested', 'data');
    const options = { port: 0, dataDir, modules: [seeded], logger: silentLogger, config: { webDist: null } };

    const first = await startServer(options);
    expect(existsSync(join(dataDir, 'store.sqlite'))).toBe(true);
    const health = (await (await fetch(`${first.url}/health`)).json()) as {
      code: number;
      data: { backend: string };
    };
    expect(health).toMatchObject({
      code: 200,
      data: { backend: 'embedded', store: { kind: 'sqlite', transactions: true, missing: [] }, warnings: [] },
    });
    // The job runner's own housekeeping schedule sits beside the module's.
    const seededSchedule = async (server: typeof first) =>
      (await server.platform.deps.jobs.listSchedules()).find((s) => s._id === 'seeded.nightly');
    expect(await seededSchedule(first)).toMatchObject({ cron: '0 2 * * *', timezone: 'Asia/Shanghai' });
    // An administrator changes the schedule; a restart must not put the declared one back.
    await first.platform.deps.jobs.schedule({
      name: 'seeded.nightly',
      cron: '30 3 * * *',
      type: 'seeded.nightly',
    });
    await first.close();

    const second = await startServer(options);
    try {
      const greetings = await second.platform.deps.store
        .platform({ userId: 'test' })
        .collection('greetings')
        .find({});
      expect(greetings.map((g) => g._id)).toEqual(['hello']);
      expect(await seededSchedule(second)).toMatchObject({ cron: '30 3 * * *' });
    } finally {
      await second.close();
    }
    await expect(fetch(`${second.url}/health`)).rejects.toThrow();
  });
});
