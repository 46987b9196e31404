import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../http';
import { openStore } from '../store';
import { JOBS } from './collections';
import { createJobQueue, newJobRecord } from './queue';

const fixture = fileURLToPath(new URL('./testing/job-server.ts', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pv-jobs-2p-'));
const dataDir = join(dir, 'data');
const probeFile = join(dir, 'runs.txt');
const children: ChildProcess[] = [];

function startProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PROBE_FILE: probeFile, JOB_POLL_MS: '40' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"msg":"listening"')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

afterAll(async () => {
  await Promise.all(children.map(stop));
  rmSync(dir, { recursive: true, force: true });
});

describe('two server processes on one embedded data directory', () => {
  it('run each job once, and fire each cron occurrence once', async () => {
    const [first] = await Promise.all([startProcess(), startProcess()]);
    expect(first).toBeDefined();

    const store = await openStore({ dataDir });
    try {
      const jobs = store.platform({ userId: 'test' }).collection(JOBS);
      // The child servers run on the system clock; the jobs are due by it.
      const now = systemClock.now();
      const inserted = await jobs.insertMany(
        Array.from({ length: 20 }, (_, i) =>
          newJobRecord('probe.append', { i }, now, { jobId: `once-${i}` }),
        ),
      );
      const queue = createJobQueue(store, systemClock, (type) =>
        type === 'probe.append' ? { type, handler: async () => null } : undefined,
      );
      await queue.schedule({ name: 'probe.everySecond', cron: '* * * * * *', type: 'probe.append' });

      await expect
        .poll(
          async () => await jobs.count({ _id: { $in: inserted.map((j) => j._id) }, status: 'succeeded' }),
          {
            timeout: 15_000,
            interval: 100,
          },
        )
        .toBe(20);
      // Let the schedule fire a few times under both processes.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await queue.unschedule('probe.everySecond');
      await expect
        .poll(async () => jobs.count({ status: { $in: ['queued', 'running'] } }), {
          timeout: 10_000,
          interval: 100,
        })
        .toBe(0);
    } finally {
      await store.close();
    }
    await Promise.all(children.map(stop));

    expect(existsSync(probeFile)).toBe(true);
    const lines = readFileSync(probeFile, 'utf8').trim().split('\n');
    const ids = lines.map((line) => line.split(' ')[0]!);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id.startsWith('once-')).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `once-${i}`).sort(),
    );
    // Both processes took jobs, so the claim really was contested.
    expect(new Set(lines.map((line) => line.split(' ')[1])).size).toBe(2);
    const fired = ids.filter((id) => id.startsWith('schedule:probe.everySecond:'));
    expect(fired.length).toBeGreaterThanOrEqual(2);
  });
});
