/**
 * Counts read through the declared index that holds every column they test (the embedded store
 * names it to SQLite, which would otherwise read every row): the counts equal a brute-force count
 * over random documents, for equalities, $in, ranges, booleans, a text-index narrowing and
 * filters the index does not cover (measured on the case list by npm run bench -- case-list).
 * Capped counts on side-table values (an array field) probe each row (walkCount) or read the set of
 * matching ids, alike; projections read indexed scalar fields from their columns (null kept apart
 * from missing, booleans as booleans) as from the document.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Query } from 'mingo';
import { afterAll, describe, expect, it } from 'vitest';
import { textMatch } from './guard';
import type { Filter } from './index';
import { openStore } from './index';
import { WALK_ROWS } from './embedded';

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
    { name: 'tags', fields: { tags: 1 } },
    { name: 'note', fields: { note: 1 } },
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
  tags: ['a', 'b', 'c'].filter(() => random() < 0.4),
  ...(random() < 0.5 ? { note: pick([null, 'n', 3.5]) } : {}),
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

describe('capped counts on side-table values', () => {
  it('equal a brute-force count, probing rows or reading the set', async () => {
    const sideFilters: Filter[] = [
      { state: { $in: ['valid', 'invalid'] }, $or: [{ tags: 'a' }, { tags: 'b' }] },
      { project: 'p1', tags: 'c' },
    ];
    const kept = { ...WALK_ROWS };
    try {
      // Walks shorter than the tenant's rows: the probe (a generous `probe`) or the set (0).
      for (const probe of [1_000_000, 0]) {
        Object.assign(WALK_ROWS, { count: 10, broad: 10, drive: 10, probe });
        for (const filter of sideFilters) {
          const expected = new Query(filter).find(docs).all().length;
          for (const limit of [1, 7, 40, expected, expected + 1]) {
            const label = `${JSON.stringify(filter)} ${probe} ${limit}`;
            expect(await items.count(filter, { limit }), label).toBe(Math.min(limit, expected));
          }
        }
      }
    } finally {
      Object.assign(WALK_ROWS, kept);
    }
  });
});

describe('projections of indexed fields', () => {
  it('read as from the document', async () => {
    const projection = { state: 1, flag: 1, note: 1, day: 1, tags: 1 } as const;
    const found = await items.find({ project: 'p2' }, { sort: { day: -1 }, limit: 1000, projection });
    const expected = new Query({ project: 'p2' }).find(docs, projection).sort({ day: -1, _id: 1 }).all();
    expect(found).toEqual(expected);
  });
});
