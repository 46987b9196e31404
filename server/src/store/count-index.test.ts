/**
 * Counts read through the declared index that holds every column they test (the embedded store
 * names it to SQLite, which would otherwise read every row): the counts equal a brute-force count
 * over random documents, for equalities, $in, ranges, booleans, a text-index narrowing and
 * filters the index does not cover (measured on the case list by npm run bench -- case-list).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Query } from 'mingo';
import { afterAll, describe, expect, it } from 'vitest';
import { textMatch } from './guard';
import type { Filter } from './index';
import { openStore } from './index';

const dataDir = mkdtempSync(join(tmpdir(), 'pv-count-'));
const store = await openStore({ dataDir });
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true });
});
await store.define({
  name: 'items',
  scope: 'tenant',
  indexes: [
    { name: 'list', fields: { state: 1, project: 1, flag: 1, kind: 1, day: 1 } },
    { name: 'day', fields: { day: 1 } },
    { name: 'words', text: true, fields: { name: 1 } },
  ],
});
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
const docs = Array.from({ length: 600 }, (_, i) => ({
  _id: `d${i}`,
  state: pick(['valid', 'invalid', 'deleted']),
  project: pick(['p1', 'p2']),
  flag: random() < 0.3,
  kind: pick(['initial', 'followUp']),
  day: `2026${String(1 + Math.floor(random() * 12)).padStart(2, '0')}15`,
  name: pick(['阿司匹林肠溶片', 'Keytruda', '多西他赛注射液', 'AMLODIPINE']),
  other: pick(['x', 'y']),
}));
const items = store.tenant('t1', { userId: 'test' }).collection<Record<string, unknown>>('items');
await items.insertMany(docs);
await store
  .tenant('t2', { userId: 'test' })
  .collection('items')
  .insertMany(docs.slice(0, 50).map((doc) => ({ ...doc, _id: `t2-${doc._id}` })));

const filters: Filter[] = [
  { state: { $in: ['valid', 'invalid'] }, project: { $in: ['p1'] } },
  { state: { $in: ['valid', 'invalid'] }, project: { $in: ['p1'] }, kind: 'followUp' },
  { state: 'valid', project: 'p2', flag: true },
  { state: { $in: ['valid', 'invalid'] }, day: { $gte: '20260301', $lt: '20260801' } },
  { $and: [{ state: 'valid' }, { name: textMatch('肠溶') }] },
  { state: 'valid', other: 'x' },
  { kind: 'initial' },
];

describe('counts through a covering index', () => {
  it('equal a brute-force count, in the caller’s tenant only', async () => {
    for (const filter of filters) {
      const expected = new Query(filter).find(docs).all().length;
      expect(await items.count(filter), JSON.stringify(filter)).toBe(expected);
    }
  });
});
