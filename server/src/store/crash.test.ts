import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from './index';

describe('embedded store durability', () => {
  it('keeps every acknowledged insert across kill -9 mid-burst', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pv-crash-'));
    try {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(import.meta.dirname, 'crash-child.ts'), dataDir],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const acknowledged: string[] = [];
      let buffer = '';
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        acknowledged.push(...lines.filter(Boolean));
        if (acknowledged.length >= 150 && !child.killed) child.kill('SIGKILL');
      });
      const signal = await exited;
      expect(signal).toBe('SIGKILL');
      expect(acknowledged.length).toBeGreaterThanOrEqual(150);
      expect(acknowledged.length).toBeLessThan(1000);

      const store = await openStore({ dataDir });
      const burst = store.tenant('T1', { userId: 'check' }).collection('burst');
      const present = new Set((await burst.find({}, { projection: { _id: 1 } })).map((d) => d._id));
      expect(acknowledged.filter((id) => !present.has(id))).toEqual([]);
      // Every stored insert also has its audit entry: they were committed together.
      expect(
        await store.tenant('T1', { userId: 'check' }).collection('audit').count({ collection: 'burst' }),
      ).toBe(present.size);
      await store.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
