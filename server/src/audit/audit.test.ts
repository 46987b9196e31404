/**
 * The audit trail reads back in the order the changes were made, also for changes of one instant
 * (a clock that stands still here; a fast machine's millisecond in production).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../store';
import { auditService } from './index';

const dataDir = mkdtempSync(join(tmpdir(), 'pv-audit-'));
const instant = new Date('2026-11-20T08:00:00Z');
const store = await openStore({ dataDir, clock: { now: () => new Date(instant) } });
await store.define({ name: 'notes', scope: 'tenant', audited: true });
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('lists changes of one instant in the order they were written, both ways', async () => {
  const notes = store.tenant('t1', { userId: 'alice' }).collection('notes');
  const doc = await notes.insertOne({ _id: 'n1', text: 'v0' });
  for (let rev = 1; rev <= 30; rev++)
    await notes.updateOne({ _id: doc._id }, { $set: { text: `v${rev}` } }, { expectedRev: rev });
  await store.tenant('t1', { userId: 'bob' }).collection('notes').deleteOne({ _id: doc._id });
  const audit = auditService(store.tenant('t1', { userId: 'alice' }));
  const ascending = await audit.byDocument('notes', 'n1', { order: 'asc' });
  expect(ascending.every((e) => e.at === instant.toISOString())).toBe(true);
  expect(ascending.map((e) => `${e.operation}${e.documentRev}`)).toEqual([
    'insert1',
    ...Array.from({ length: 30 }, (_, i) => `update${i + 2}`),
    'delete31',
  ]);
  const descending = await audit.byDocument('notes', 'n1');
  expect(descending.map((e) => e._id)).toEqual(ascending.map((e) => e._id).reverse());
});
