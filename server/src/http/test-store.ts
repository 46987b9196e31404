/** A fresh embedded store in a temporary directory, removed on close; `clock` stamps its documents. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../store';
import type { OpenedStore } from '../store';
import type { Clock } from '../clock';

export async function testStore(options: { clock?: Clock } = {}): Promise<OpenedStore & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-test-'));
  const store = await openStore({ dataDir, ...options });
  const close = store.close.bind(store);
  return Object.assign(store, {
    dataDir,
    close: async () => {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
