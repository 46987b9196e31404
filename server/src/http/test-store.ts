/**
 * A fresh store for a test, removed on close; `clock` stamps its documents. Embedded (SQLite in a
 * temporary directory) unless the test asks for `backend: 'mongodb'`: then a fresh database on the
 * server MONGODB_URI names (as the store conformance suite opens it), dropped on close. The
 * temporary directory exists on both backends (file stores keep their blobs there).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMongoSupport, openStore } from '../store';
import type { OpenedStore } from '../store';
import type { Clock } from '../clock';

export type TestBackend = 'embedded' | 'mongodb';

/**
 * Whether a test runs on `backend` here (a describe per backend skips otherwise): MongoDB only
 * when MONGODB_URI is set; PV_TEST_BACKENDS (comma-separated) keeps to the backends it names, so
 * that the FerretDB step of `npm test` (PV_TEST_BACKENDS=mongodb) does not repeat the embedded
 * tests of the files it runs.
 */
export function testBackendWanted(backend: TestBackend): boolean {
  const only = process.env.PV_TEST_BACKENDS?.split(',').map((name) => name.trim());
  if (only && !only.includes(backend)) return false;
  return backend === 'embedded' || Boolean(process.env.MONGODB_URI);
}

export async function testStore(
  options: { clock?: Clock; backend?: TestBackend } = {},
): Promise<OpenedStore & { dataDir: string; mongodbUri?: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-test-'));
  let mongodbUri: string | undefined;
  if (options.backend === 'mongodb') {
    if (!process.env.MONGODB_URI) throw new Error('a MongoDB test store needs MONGODB_URI');
    const url = new URL(process.env.MONGODB_URI);
    url.pathname = `/pv_test_${randomUUID().replace(/-/g, '')}`;
    mongodbUri = url.toString();
  }
  const store = await openStore({ dataDir, mongodbUri, clock: options.clock });
  const close = store.close.bind(store);
  return Object.assign(store, {
    dataDir,
    ...(mongodbUri ? { mongodbUri } : {}),
    close: async () => {
      if (mongodbUri) await dropDatabase(mongodbUri);
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

/** Drops a test's MongoDB database (a run against a long-lived server leaves nothing behind). */
async function dropDatabase(uri: string): Promise<void> {
  const connection = await (await loadMongoSupport()).openMongoConnection(uri);
  try {
    await connection.dropDatabase();
  } finally {
    await connection.close();
  }
}
