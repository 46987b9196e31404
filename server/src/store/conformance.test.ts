/**
 * One conformance suite for every backend available: embedded always, MongoDB when
 * MONGODB_URI is set (each run uses a fresh database name).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Query } from 'mingo';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditService } from '../audit';
import { operatorsUsed } from './capabilities';
import { mingoOptions } from './embedded';
import { GroupCounter, groupCountPipeline } from './group-count';
import type { GroupCountSpec } from './group-count';
import { literalRegex, serverFilter, textMatch } from './guard';
import {
  ForbiddenQueryError,
  InvalidStoreRequestError,
  RevisionConflictError,
  DuplicateKeyError,
  UnsupportedFeatureError,
  cappedTotal,
  openStore,
} from './index';
import type { FindOptions, OpenedStore, Pipeline, StoredDoc, TenantHandle } from './index';
import { widened } from './mongo';

const backends: {
  name: string;
  available: boolean;
  open: () => Promise<{ store: OpenedStore; cleanup: () => void }>;
}[] = [
  {
    name: 'embedded',
    available: true,
    open: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'pv-store-'));
      return {
        store: await openStore({ dataDir }),
        cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'mongodb',
    available: Boolean(process.env.MONGODB_URI),
    open: async () => {
      const url = new URL(process.env.MONGODB_URI!);
      url.pathname = `/pv_conformance_${randomUUID().replace(/-/g, '')}`;
      return {
        store: await openStore({ dataDir: '', mongodbUri: url.toString() }),
        cleanup: () => undefined,
      };
    },
  },
];

const alice = { userId: 'alice' };
const bob = { userId: 'bob' };

for (const backend of backends) {
  describe.skipIf(!backend.available)(`store conformance: ${backend.name}`, () => {
    let store: OpenedStore;
    let cleanup: () => void;
    let a: TenantHandle;
    let b: TenantHandle;

    beforeAll(async () => {
      ({ store, cleanup } = await backend.open());
      await store.define({
        name: 'cases',
        scope: 'tenant',
        audited: true,
        indexes: [
          { name: 'list', fields: { 'workflow.node': 1, 'report.reportType': 1, 'report.dateFirst': -1 } },
          { name: 'drugs', fields: { 'drugs.name': 1 } },
          { name: 'code', fields: { reportCode: 1 }, unique: true },
          { name: 'score', fields: { score: 1 } },
        ],
      });
      await store.define({ name: 'products', scope: 'tenant', indexes: [{ fields: { code: 1 } }] });
      await store.define({ name: 'tenants', scope: 'platform' });
      a = store.tenant('A', alice);
      b = store.tenant('B', bob);
      const seed = (tenant: string) => [
        {
          _id: `${tenant}-1`,
          reportCode: `${tenant}-001`,
          workflow: { node: 'entry' },
          report: { reportType: '1', dateFirst: '20240105' },
          drugs: [{ name: 'Aspirin', role: 'suspect' }, { name: 'Ibuprofen' }],
          tags: ['serious', 'fatal'],
          score: 5,
          product: 'P1',
          nested: { v: null },
        },
        {
          _id: `${tenant}-2`,
          reportCode: `${tenant}-002`,
          workflow: { node: 'qc' },
          report: { reportType: '2', dateFirst: '20240210' },
          drugs: [{ name: 'Paracetamol', role: 'concomitant' }],
          tags: ['serious'],
          score: 10,
          product: 'P2',
        },
        {
          _id: `${tenant}-3`,
          reportCode: `${tenant}-003`,
          workflow: { node: 'entry' },
          report: { reportType: '1', dateFirst: '20231120' },
          drugs: [],
          tags: [],
          score: 1.5,
          product: 'P1',
          nested: { v: 3 },
        },
        {
          _id: `${tenant}-4`,
          reportCode: `${tenant}-004`,
          workflow: { node: 'review' },
          report: { reportType: '2', dateFirst: '20240301' },
          drugs: [{ name: 'Aspirin low dose' }],
          score: null,
          product: 'P3',
        },
      ];
      await a.collection('cases').insertMany(seed('A'));
      await b.collection('cases').insertMany(seed('B'));
      await a.collection('products').insertMany([
        { _id: 'A-P1', code: 'P1', label: 'Product one A' },
        { _id: 'A-P2', code: 'P2', label: 'Product two A' },
      ]);
      await b.collection('products').insertMany([{ _id: 'B-P1', code: 'P1', label: 'Product one B' }]);
    });

    // Per backend: tests passed as on MongoDB, and tests that asserted the documented refusal
    // (or documented loss of atomicity) of a capability this server lacks.
    const tally = { passed: 0, unsupported: 0, failed: 0 };
    let refused = false;
    const markRefused = () => (refused = true);
    beforeEach(() => {
      refused = false;
    });
    afterEach(({ task }) => {
      // Hooks run before the test's state is final; an error recorded so far means it failed.
      if (task.result?.errors?.length) tally.failed++;
      else tally[refused ? 'unsupported' : 'passed']++;
    });

    afterAll(async () => {
      if (store) {
        const { serverKind, serverVersion, transactions, missing } = store.capabilities;
        console.log(
          `conformance ${backend.name} (${serverKind} ${serverVersion}, transactions ${transactions ? 'on' : 'off'}): ` +
            `${tally.passed} passed, ${tally.unsupported} asserted as unsupported, ${tally.failed} failed` +
            (missing.length ? `; lacks ${missing.join(' ')}` : ''),
        );
      }
      await store?.close();
      cleanup?.();
    });

    const ids = (docs: { _id: string }[]) => docs.map((d) => d._id).sort();

    /** Features `query` uses that this server lacks. */
    const lacking = (query: unknown) =>
      [...operatorsUsed(query)].filter((f) => store.capabilities.missing.includes(f));

    /**
     * Runs `call`; when `query` uses a feature the server lacks, asserts instead the documented
     * refusal, UnsupportedFeatureError naming one of them (never an answer), and counts it so.
     */
    async function orRefused<R>(
      query: unknown,
      call: () => Promise<R>,
      check: (result: R) => void,
    ): Promise<void> {
      const missing = lacking(query);
      if (missing.length === 0) return check(await call());
      const error: unknown = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UnsupportedFeatureError);
      expect(missing).toContain((error as UnsupportedFeatureError).feature);
      expect((error as UnsupportedFeatureError).params.server).toContain(store.capabilities.serverKind);
      markRefused();
    }

    describe('CRUD and store fields', () => {
      it('sets store-owned fields and refuses to let callers overwrite them', async () => {
        const c = a.collection('products');
        const doc = await c.insertOne({ code: 'X', tenantId: 'B', rev: 99, createdBy: 'mallory' } as Record<
          string,
          unknown
        >);
        expect(doc).toMatchObject({
          code: 'X',
          tenantId: 'A',
          rev: 1,
          createdBy: 'alice',
          updatedBy: 'alice',
        });
        expect(doc._id).toMatch(/^[0-9a-f-]{36}$/);
        expect(new Date(doc.createdAt).toISOString()).toBe(doc.createdAt);
        await expect(c.updateOne({ _id: doc._id }, { $set: { tenantId: 'B' } })).rejects.toBeInstanceOf(
          InvalidStoreRequestError,
        );
        await expect(c.updateOne({ _id: doc._id }, { $inc: { rev: 1 } })).rejects.toBeInstanceOf(
          InvalidStoreRequestError,
        );
        expect(await c.findOne({ _id: doc._id })).toEqual(doc);
        expect(await c.deleteOne({ _id: doc._id })).toBe(true);
        expect(await c.findOne({ _id: doc._id })).toBeNull();
        expect(await c.deleteOne({ _id: doc._id })).toBe(false);
      });

      it('refuses a duplicate _id and a duplicate unique key, inserting nothing of the batch', async () => {
        const c = a.collection('cases');
        await expect(c.insertOne({ _id: 'A-1' })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(
          c.insertMany([
            { _id: 'A-new', reportCode: 'A-new' },
            { _id: 'A-new2', reportCode: 'A-001' },
          ]),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await c.findOne({ _id: 'A-new' })).toBeNull();
        // Unique keys are per tenant: B may reuse A's code.
        const other = await b.collection('cases').insertOne({ _id: 'B-A001', reportCode: 'A-001' });
        expect(await b.collection('cases').deleteOne({ _id: other._id })).toBe(true);
      });

      it('updates with $set, $unset, $push, $pull, $inc, $addToSet and bumps rev', async () => {
        const c = a.collection('products');
        const doc = await c.insertOne({ code: 'U', list: [1, 2, 3], tags: ['x'], n: 1, gone: true });
        const after = await c.updateOne(
          { _id: doc._id },
          {
            $set: { 'deep.a': 1 },
            $unset: { gone: '' },
            $push: { list: 4 },
            $inc: { n: 2 },
            $addToSet: { tags: 'x' },
          },
        );
        expect(after).toMatchObject({ deep: { a: 1 }, list: [1, 2, 3, 4], n: 3, tags: ['x'], rev: 2 });
        expect(after).not.toHaveProperty('gone');
        const pulled = await c.updateOne(
          { _id: doc._id },
          { $pull: { list: { $gte: 3 } }, $addToSet: { tags: 'y' } },
        );
        expect(pulled).toMatchObject({ list: [1, 2], tags: ['x', 'y'], rev: 3 });
        expect(await c.updateOne({ _id: 'nope' }, { $set: { a: 1 } })).toBeNull();
        expect(await c.updateMany({ code: 'U' }, { $inc: { n: 1 } })).toBe(1);
        expect((await c.findOne({ _id: doc._id }))?.n).toBe(4);
        await expect(c.updateOne({ _id: doc._id }, { $bogus: { a: 1 } })).rejects.toBeInstanceOf(
          InvalidStoreRequestError,
        );
        await c.deleteOne({ _id: doc._id });
      });
    });

    describe('filters', () => {
      const cases = () => a.collection('cases');
      it.each([
        ['dotted equality', { 'workflow.node': 'entry' }, ['A-1', 'A-3']],
        ['array membership on dotted path', { 'drugs.name': 'Aspirin' }, ['A-1']],
        ['array membership', { tags: 'fatal' }, ['A-1']],
        ['$in', { 'workflow.node': { $in: ['qc', 'review'] } }, ['A-2', 'A-4']],
        ['$nin', { 'workflow.node': { $nin: ['qc', 'review'] } }, ['A-1', 'A-3']],
        ['$regex prefix on array', { 'drugs.name': literalRegex('^Asp') }, ['A-1', 'A-4']],
        ['$regex case-insensitive', { 'drugs.name': literalRegex('aspirin', 'i') }, ['A-1', 'A-4']],
        ['$exists true', { nested: { $exists: true } }, ['A-1', 'A-3']],
        ['$exists false', { nested: { $exists: false } }, ['A-2', 'A-4']],
        ['null matches null and missing', { 'nested.v': null }, ['A-1', 'A-2', 'A-4']],
        ['score null', { score: null }, ['A-4']],
        ['$elemMatch', { drugs: { $elemMatch: { name: literalRegex('^Asp'), role: 'suspect' } } }, ['A-1']],
        ['range on strings', { 'report.dateFirst': { $gte: '20240101', $lt: '20240301' } }, ['A-1', 'A-2']],
        ['range on numbers', { score: { $gt: 1.5, $lte: 10 } }, ['A-1', 'A-2']],
        ['$or', { $or: [{ score: { $gte: 10 } }, { 'workflow.node': 'review' }] }, ['A-2', 'A-4']],
        ['$and', { $and: [{ 'workflow.node': 'entry' }, { score: { $lt: 2 } }] }, ['A-3']],
        ['$ne', { 'workflow.node': { $ne: 'entry' } }, ['A-2', 'A-4']],
        ['empty array size', { drugs: { $size: 0 } }, ['A-3']],
        ['$expr', serverFilter({ $expr: { $gt: ['$score', 4] } }), ['A-1', 'A-2']],
      ])('%s', async (_label, filter, expected) => {
        // Reads finish an $elemMatch the server lacks through mingo where dropping it only widens.
        const counted = widened(filter) ?? filter;
        await orRefused(
          counted,
          () => cases().find(filter),
          (found) => expect(ids(found)).toEqual(expected),
        );
        await orRefused(
          counted,
          () => cases().count(filter),
          (n) => expect(n).toBe(expected.length),
        );
        await orRefused(
          counted,
          () => cases().count(filter, { limit: 1 }),
          (n) => expect(n).toBe(Math.min(1, expected.length)),
        );
      });

      it('counts up to a limit: the capped total a list shows as "N+"', async () => {
        const c = cases();
        const all = await c.count({});
        expect(await c.count({}, { limit: all + 5 })).toBe(all);
        expect(await c.count({}, { limit: 2 })).toBe(2);
        expect(await cappedTotal(c, {}, all)).toEqual({ total: all, totalCapped: false });
        expect(await cappedTotal(c, {}, all - 1)).toEqual({ total: all - 1, totalCapped: true });
        expect(await cappedTotal(c, { 'workflow.node': 'entry' }, 1)).toEqual({
          total: 1,
          totalCapped: true,
        });
        for (const limit of [0, -1, 1.5])
          await expect(c.count({}, { limit })).rejects.toBeInstanceOf(InvalidStoreRequestError);
      });

      it('sorts, skips, limits and projects', async () => {
        const c = cases();
        const page = await c.find(
          {},
          {
            sort: { 'report.dateFirst': -1 },
            skip: 1,
            limit: 2,
            projection: { reportCode: 1, 'report.dateFirst': 1 },
          },
        );
        expect(page).toEqual([
          { _id: 'A-2', reportCode: 'A-002', report: { dateFirst: '20240210' } },
          { _id: 'A-1', reportCode: 'A-001', report: { dateFirst: '20240105' } },
        ]);
        const byScore = await c.find({ 'workflow.node': 'entry' }, { sort: { score: 1 } });
        expect(byScore.map((d) => d._id)).toEqual(['A-3', 'A-1']);
        const excluded = await c.findOne({ _id: 'A-1' }, { projection: { drugs: 0, tags: 0 } });
        expect(excluded).not.toHaveProperty('drugs');
        expect(excluded).toHaveProperty('reportCode', 'A-001');
        expect(await c.find({}, { limit: 0 })).toEqual([]);
        await expect(c.find({}, { limit: -1 })).rejects.toBeInstanceOf(InvalidStoreRequestError);
      });

      it('finds under $elemMatch sorted, paged and projected as a brute force does, and writes by it', async () => {
        // A server without $elemMatch (FerretDB 1.24) gets the filter without it; the driver tests
        // each streamed document with mingo and applies skip, limit and projection after the test.
        await store.define({ name: 'batches', scope: 'tenant', indexes: [{ fields: { n: 1 } }] });
        interface BatchBody {
          n: number;
          group: string;
          items: { k: string; v: number }[];
          days: number[];
        }
        type Batch = StoredDoc<BatchBody>;
        const c = a.collection<BatchBody>('batches');
        const make = (prefix: string, i: number) => ({
          _id: `${prefix}-${String(i).padStart(2, '0')}`,
          n: (i * 7) % 13,
          group: i % 3 === 0 ? 'x' : 'y',
          // Some documents meet an $elemMatch's conditions only across two elements: no match.
          items:
            i % 11 === 0
              ? []
              : [
                  { k: i % 2 ? 'a' : 'b', v: i % 5 },
                  { k: i % 3 ? 'a' : 'c', v: (i * 3) % 4 },
                ],
          days: [i % 7, (i * 5) % 9],
        });
        await c.insertMany(Array.from({ length: 40 }, (_, i) => make('E', i)));
        // Another tenant's documents would match too: the widened filter keeps the tenant scope.
        await b.collection('batches').insertMany(Array.from({ length: 5 }, (_, i) => make('F', i)));
        const all = await c.find({});
        const some = (d: Batch, k: string, test: (v: number) => boolean) =>
          d.items.some((e) => e.k === k && test(e.v));
        const filters: [Record<string, unknown>, (d: Batch) => boolean][] = [
          [{ items: { $elemMatch: { k: 'a', v: { $gte: 2 } } } }, (d) => some(d, 'a', (v) => v >= 2)],
          [
            { group: 'y', $or: [{ items: { $elemMatch: { k: 'c', v: 0 } } }, { n: { $lt: 3 } }] },
            (d) => d.group === 'y' && (some(d, 'c', (v) => v === 0) || d.n < 3),
          ],
          [
            { items: { $elemMatch: { k: 'b' }, $size: 2 } },
            (d) => d.items.length === 2 && some(d, 'b', () => true),
          ],
          // The case list's onset filter (cases/list.ts anyWithin): a range, then its exact element test.
          [
            { $and: [{ days: { $gte: 3, $lt: 5 } }, { days: { $elemMatch: { $gte: 3, $lt: 5 } } }] },
            (d) => d.days.some((x) => x >= 3 && x < 5),
          ],
        ];
        const pages: FindOptions[] = [
          {},
          { sort: { n: 1 } },
          { sort: { n: -1 }, skip: 3, limit: 4 },
          { sort: { n: 1, _id: -1 }, limit: 2 },
          { skip: 5 },
          { sort: { n: -1 }, skip: 2, limit: 3, projection: { n: 1, group: 1 } },
          { skip: 100 },
          { limit: 3, projection: { items: 0 } },
        ];
        const brute = (test: (d: Batch) => boolean, page: FindOptions) => {
          const sort = { ...page.sort };
          if (!('_id' in sort)) sort._id = 1;
          const key = (d: Batch, path: string) => (path === 'n' ? d.n : d._id);
          const sorted = all.filter(test).sort((x, y) => {
            for (const [path, order] of Object.entries(sort)) {
              const [p, q] = [key(x, path), key(y, path)];
              if (p !== q) return (p < q ? -1 : 1) * order;
            }
            return 0;
          });
          const skip = page.skip ?? 0;
          const cut = sorted.slice(skip, page.limit === undefined ? undefined : skip + page.limit);
          if (!page.projection) return cut;
          if (page.projection.items === 0) return cut.map(({ items: _items, ...rest }) => rest);
          return cut.map((d) => ({ _id: d._id, n: d.n, group: d.group }));
        };
        for (const [filter, test] of filters) {
          expect(all.filter(test).length).toBeGreaterThan(2);
          for (const page of pages) {
            await orRefused(
              widened(filter) ?? filter,
              () => c.find(filter, page),
              (found) => expect({ filter, page, found }).toEqual({ filter, page, found: brute(test, page) }),
            );
          }
        }
        const [first, second] = filters as [(typeof filters)[number], (typeof filters)[number]];
        expect(await c.findOne(first[0], { sort: { n: -1 } })).toEqual(
          brute(first[1], { sort: { n: -1 } })[0],
        );
        const negated = { $nor: [first[0]] };
        await orRefused(
          negated,
          () => c.find(negated),
          (found) => expect(found).toEqual(all.filter((d) => !first[1](d))),
        );
        // Writes select by the same test, then act by id.
        const updated = brute(second[1], {}).map((d) => d._id);
        expect(await c.updateMany(second[0], { $set: { hit: true } })).toBe(updated.length);
        expect(ids(await c.find({ hit: true }))).toEqual(updated);
        const gone = brute(first[1], {})[0]!._id;
        expect(await c.deleteOne(first[0])).toBe(true);
        expect(await c.findOne({ _id: gone })).toBeNull();
        expect(await c.count({})).toBe(39);
        expect(await b.collection('batches').count({ hit: true })).toBe(0);
      });

      it('pushdown returns exactly what pure mingo returns on randomised filters', async () => {
        const nodes = ['entry', 'qc', 'review', 'closed'];
        let seed = 42;
        const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
        const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
        // Values inside arrays and objects are compared differently by mingo and MongoDB servers:
        // other backends get scalar values (still inside the arrays and objects built below).
        const values = [
          null,
          0,
          1,
          2.5,
          7,
          'a',
          'b',
          'ab',
          'abc',
          'B',
          true,
          false,
          [1, 'a'],
          { x: 1 },
        ].filter((v) => backend.name === 'embedded' || v === null || typeof v !== 'object');
        await store.define({
          name: 'fuzz',
          scope: 'tenant',
          indexes: [
            { fields: { n: 1, s: 1 } },
            { fields: { 'o.p': 1 } },
            { fields: { arr: 1 } },
            { fields: { node: 1, s: -1 } },
          ],
        });
        const fuzz = a.collection('fuzz');
        const docs = Array.from({ length: 150 }, (_, i) => {
          const doc: Record<string, unknown> = { _id: `f${String(i).padStart(3, '0')}`, node: pick(nodes) };
          if (rand() < 0.8) doc.n = rand() < 0.7 ? Math.floor(rand() * 10) : pick(values);
          if (rand() < 0.8) doc.s = rand() < 0.7 ? pick(['a', 'ab', 'abc', 'b', 'ba', 'c']) : pick(values);
          if (rand() < 0.7)
            doc.o = rand() < 0.8 ? { p: pick(values) } : [{ p: pick(values) }, { p: pick(values) }];
          if (rand() < 0.7) doc.arr = rand() < 0.5 ? [pick(values), pick(values)] : pick(values);
          return doc;
        });
        const arraySort = !store.capabilities.missing.includes('sort by array paths');
        if (!arraySort) markRefused();
        // A server without nested arrays (FerretDB) refuses [[1, 'a'], 7]: the data is flattened there.
        if (store.capabilities.missing.includes('nested arrays'))
          for (const doc of docs) if (Array.isArray(doc.arr)) doc.arr = (doc.arr as unknown[]).flat();
        // mingo and MongoDB servers also differ on $ne along a path through an array of objects.
        if (backend.name !== 'embedded')
          for (const doc of docs) if (Array.isArray(doc.o)) doc.o = (doc.o as unknown[])[0];
        await fuzz.insertMany(docs);
        await b.collection('fuzz').insertMany(docs.slice(0, 20).map((d) => ({ ...d, _id: `b${d._id}` })));
        const stored = await fuzz.find({});
        const paths = ['n', 's', 'o.p', 'arr', 'node'];
        const predicate = (): Record<string, unknown> => {
          const path = pick(paths);
          const picked = pick([...values, 3, 5, 'ab', 'entry', 'qc']);
          // mingo, the reference here, compares across types (booleans, null, arrays, objects) in
          // places where MongoDB servers differ (a missing field matches $lte: null on MongoDB):
          // other backends are compared on number and string operands only.
          const v =
            backend.name === 'embedded' || typeof picked === 'number' || typeof picked === 'string'
              ? picked
              : 'ab';
          const op = pick(['eq', '$gt', '$gte', '$lt', '$lte', '$in', '$exists', '$regex', '$ne']);
          if (op === 'eq') return { [path]: v };
          if (op === '$in') return { [path]: { $in: [v, pick(values)] } };
          if (op === '$exists') return { [path]: { $exists: rand() < 0.5 } };
          if (op === '$regex') return { [path]: literalRegex(`^${pick(['a', 'ab', 'b', 'en'])}`) };
          return { [path]: { [op]: v } };
        };
        for (let i = 0; i < 200; i++) {
          const parts = Array.from({ length: 1 + Math.floor(rand() * 3) }, predicate);
          const filter = rand() < 0.25 ? { $or: parts } : { $and: parts };
          // A server that orders by paths through arrays its own way (FerretDB) sorts on `node`, a
          // string everywhere; the filters are still compared on every path.
          const sortPath = pick(paths);
          const sort = { [arraySort ? sortPath : 'node']: pick([1, -1] as const) };
          const limit = 1 + Math.floor(rand() * 20);
          const expected = new Query(filter, mingoOptions())
            .find<StoredDoc>(stored)
            .sort({ ...sort, _id: 1 })
            .limit(limit)
            .all();
          const got = await fuzz.find(filter, { sort, limit });
          expect({ filter: JSON.stringify(filter), sort, ids: got.map((d) => d._id) }).toEqual({
            filter: JSON.stringify(filter),
            sort,
            ids: expected.map((d) => d._id),
          });
          expect({ filter: JSON.stringify(filter), n: await fuzz.count(filter) }).toEqual({
            filter: JSON.stringify(filter),
            n: new Query(filter, mingoOptions()).find(stored).all().length,
          });
        }
      });

      it('literal regexes (contains, prefix, suffix, whole value) and booleans match exactly as mingo does', async () => {
        const values: unknown[] = [
          'a.b',
          'axb',
          'a*b',
          'A+B?',
          '(x)',
          '[y]',
          '{z}',
          'p|q',
          '^caret',
          'dollar$',
          'back\\slash',
          '100%',
          '1000',
          'under_score',
          'underXscore',
          'Amoxicillin',
          'AMOXI',
          'amoxicillin 500mg',
          '阿莫西林胶囊',
          '阿莫西林',
          '胶囊阿莫西林',
          'Éclair',
          'éclair',
          'ECLAIR',
          'ΣΟΦΙΑ',
          'σοφια',
          'σοφιας',
          'line\nbreak',
          '',
          123,
          12.5,
          1,
          0,
          true,
          false,
          null,
          { name: 'nested' },
        ];
        await store.define({
          name: 'texts',
          scope: 'tenant',
          indexes: [
            { fields: { s: 1 } },
            { fields: { any: 1 } },
            { fields: { tags: 1 } },
            { fields: { 'items.name': 1 } },
            // The substring index narrows every literal pattern above on the embedded store.
            { name: 'substrings', fields: { s: 1, tags: 1, 'items.name': 1 }, text: true },
          ],
        });
        const texts = a.collection('texts');
        const docs = values.map((value, i) => {
          const doc: Record<string, unknown> = { _id: `x${String(i).padStart(2, '0')}`, any: value };
          // `s` never holds a boolean or an object, so it is served by its generated column.
          if (typeof value !== 'boolean' && (value === null || typeof value !== 'object')) doc.s = value;
          if (i % 3 !== 2) doc.tags = [value, values[(i * 7) % values.length]];
          if (i % 4 !== 3) doc.items = [{ name: value }, { name: values[(i * 5) % values.length] }];
          return doc;
        });
        docs.push({ _id: 'x99' });
        await texts.insertMany(docs);
        // The other tenant's texts must never leak into counts computed in SQL.
        await b.collection('texts').insertMany([{ _id: 'bx', s: 'Amoxicillin', any: true, tags: ['a.b'] }]);
        const stored = await texts.find({});
        const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const needles = [
          '.',
          'a.b',
          'A*B',
          '+',
          '?',
          '(x)',
          '[',
          '{z}',
          '|',
          '^',
          '$',
          '\\',
          '%',
          '0%',
          '_',
          'r_s',
          '阿莫西林',
          '莫西',
          'amox',
          'AMOXI',
          'éclair',
          'ÉCLAIR',
          'σοφια',
          'ΣΟΦΙΑΣ',
          '2',
          '',
          'line\nb',
        ];
        const filters: Record<string, unknown>[] = [];
        for (const path of ['s', 'any', 'tags', 'items.name'])
          for (const needle of needles) {
            const e = escape(needle);
            filters.push(
              { [path]: literalRegex(e, 'i') },
              { [path]: literalRegex(e) },
              { [path]: literalRegex(`^${e}`) },
              { [path]: literalRegex(`^${e}`, 'i') },
              { [path]: literalRegex(`${e}$`, 'i') },
              { [path]: literalRegex(`${e}$`) },
              { [path]: literalRegex(`^${e}$`, 'i') },
            );
          }
        for (const path of ['any', 'tags', 'items.name'])
          filters.push(
            { [path]: true },
            { [path]: false },
            { [path]: { $in: [true, 'a.b'] } },
            { [path]: { $in: [false, 1] } },
            { [path]: { $gte: 'a' } },
            { [path]: { $lt: 'b' } },
            { [path]: { $gt: 0 } },
          );
        filters.push({ s: true }, { s: { $in: [false, 'a.b'] } });
        // Branches over several side-table paths are merged into one SQL condition.
        for (const needle of ['amox', '阿莫西林', 'éclair', '.'])
          filters.push(
            {
              $or: [
                { tags: literalRegex(escape(needle), 'i') },
                { 'items.name': literalRegex(escape(needle), 'i') },
              ],
            },
            {
              $or: [
                { tags: literalRegex(escape(needle)) },
                { 'items.name': literalRegex(escape(needle)) },
                { s: literalRegex(escape(needle)) },
              ],
            },
            { $or: [{ tags: true }, { 'items.name': true }, { any: literalRegex(`^${escape(needle)}`) }] },
          );
        const byId = (x: { _id: string }, y: { _id: string }) => (x._id < y._id ? -1 : 1);
        for (const filter of filters) {
          const label = `${JSON.stringify(filter)} ${String(Object.values(filter)[0])}`;
          const expected = new Query(filter, mingoOptions()).find<StoredDoc>(stored).all().sort(byId);
          expect({ label, ids: ids(await texts.find(filter)) }).toEqual({ label, ids: ids(expected) });
          expect({ label, n: await texts.count(filter) }).toEqual({ label, n: expected.length });
          const page = await texts.find(filter, { sort: { s: -1 }, limit: 3 });
          const expectedPage = new Query(filter, mingoOptions())
            .find<StoredDoc>(stored)
            .sort({ s: -1, _id: 1 })
            .limit(3)
            .all();
          expect({ label, page: page.map((d) => d._id) }).toEqual({
            label,
            page: expectedPage.map((d) => d._id),
          });
        }
      });
    });

    describe('aggregation', () => {
      it('runs $match, $unwind, $group, $sort, $project and $count', async () => {
        const pipeline: Pipeline = [
          { $match: { 'report.reportType': { $in: ['1', '2'] } } },
          { $unwind: '$drugs' },
          { $group: { _id: '$workflow.node', drugs: { $sum: 1 } } },
          { $sort: { _id: 1 } },
          { $project: { _id: 0, node: '$_id', drugs: 1 } },
        ];
        await orRefused(
          pipeline,
          () => a.collection('cases').aggregate(pipeline),
          (result) =>
            expect(result).toEqual([
              { node: 'entry', drugs: 2 },
              { node: 'qc', drugs: 1 },
              { node: 'review', drugs: 1 },
            ]),
        );
        const counted: Pipeline = [{ $match: { tags: 'serious' } }, { $count: 'n' }];
        await orRefused(
          counted,
          () => a.collection('cases').aggregate(counted),
          (result) => expect(result).toEqual([{ n: 2 }]),
        );
      });

      it('runs $facet', async () => {
        const pipeline: Pipeline = [
          {
            $facet: {
              byType: [{ $group: { _id: '$report.reportType', n: { $sum: 1 } } }, { $sort: { _id: 1 } }],
              total: [{ $count: 'n' }],
            },
          },
        ];
        await orRefused(
          pipeline,
          () => a.collection('cases').aggregate<{ byType: unknown[]; total: { n: number }[] }>(pipeline),
          ([facets]) =>
            expect(facets).toEqual({
              byType: [
                { _id: '1', n: 2 },
                { _id: '2', n: 2 },
              ],
              total: [{ n: 4 }],
            }),
        );
      });

      it('joins with $lookup within the tenant only', async () => {
        const byField: Pipeline = [
          { $match: { _id: 'A-1' } },
          { $lookup: { from: 'products', localField: 'product', foreignField: 'code', as: 'products' } },
        ];
        await orRefused(
          byField,
          () => a.collection('cases').aggregate<{ _id: string; products: { _id: string }[] }>(byField),
          (joined) => expect(joined[0]!.products.map((p) => p._id)).toEqual(['A-P1']),
        );
        const byPipeline: Pipeline = [
          { $match: { _id: 'A-1' } },
          { $lookup: { from: 'products', pipeline: [{ $match: {} }], as: 'products' } },
        ];
        await orRefused(
          byPipeline,
          () => a.collection('cases').aggregate<{ products: { _id: string }[] }>(byPipeline),
          (viaPipeline) => expect(ids(viaPipeline[0]!.products)).toEqual(['A-P1', 'A-P2']),
        );
        const union: Pipeline = [
          { $unionWith: { coll: 'products' } },
          { $group: { _id: '$tenantId', n: { $sum: 1 } } },
        ];
        await orRefused(
          union,
          () => a.collection('products').aggregate(union),
          (result) => expect(result).toEqual([{ _id: 'A', n: 4 }]),
        );
      });
    });

    describe('grouped counts', () => {
      it('counts and groups under $elemMatch on every backend (one element meets all its conditions)', async () => {
        // A server without $elemMatch (FerretDB 1.24) gets the filter without it and the driver
        // finishes it through mingo; under $nor dropping it would narrow, so that stays refused.
        const cases = a.collection('cases');
        const suspect = (name: string) => ({ drugs: { $elemMatch: { name, role: 'suspect' } } });
        expect(await cases.count(suspect('Aspirin'))).toBe(1);
        // A-1 has Ibuprofen and a suspect drug, but no element is both.
        expect(await cases.count(suspect('Ibuprofen'))).toBe(0);
        expect(await cases.count({ $or: [suspect('Ibuprofen'), { score: { $gte: 10 } }] })).toBe(1);
        expect(await cases.count({ $and: [suspect('Aspirin')] }, { limit: 1 })).toBe(1);
        const roles = { drugs: { $elemMatch: { role: { $in: ['suspect', 'concomitant'] } } } };
        expect(
          await cases.groupCount({ filter: roles, by: [{ name: 'node', path: 'workflow.node' }] }),
        ).toEqual(
          expect.arrayContaining([
            { key: { node: 'entry' }, count: 1 },
            { key: { node: 'qc' }, count: 1 },
          ]),
        );
        expect(
          await cases.groupCount({
            filter: { ...suspect('Aspirin'), 'report.reportType': '1' },
            by: [{ name: 'drug', each: 'drugs', path: 'name' }],
          }),
        ).toEqual(
          expect.arrayContaining([
            { key: { drug: 'Aspirin' }, count: 1 },
            { key: { drug: 'Ibuprofen' }, count: 1 },
          ]),
        );
        expect(
          (
            await cases.groupCount({
              filter: suspect('Ibuprofen'),
              by: [{ name: 'node', path: 'workflow.node' }],
            })
          ).length,
        ).toBe(0);
        const negated = { $nor: [suspect('Aspirin')] };
        await orRefused(
          negated,
          () => cases.count(negated),
          (n) => expect(n).toBe(3),
        );
      });

      it('counts documents by a field and by array elements, once per document and key', async () => {
        const byNode = await a
          .collection('cases')
          .groupCount({ by: [{ name: 'node', path: 'workflow.node' }] });
        expect(byNode).toEqual([
          { key: { node: 'entry' }, count: 2 },
          { key: { node: 'qc' }, count: 1 },
          { key: { node: 'review' }, count: 1 },
        ]);
        const byDrug = await a.collection('cases').groupCount({
          filter: { 'report.reportType': '1' },
          by: [
            { name: 'type', path: 'report.reportType' },
            { name: 'drug', each: 'drugs', path: 'name' },
            { name: 'tag', each: 'tags' },
          ],
        });
        expect(byDrug).toEqual([
          { key: { type: '1', drug: 'Aspirin', tag: 'fatal' }, count: 1 },
          { key: { type: '1', drug: 'Aspirin', tag: 'serious' }, count: 1 },
          { key: { type: '1', drug: 'Ibuprofen', tag: 'fatal' }, count: 1 },
          { key: { type: '1', drug: 'Ibuprofen', tag: 'serious' }, count: 1 },
        ]);
        const suspects = await a.collection('cases').groupCount({
          by: [{ name: 'product', path: 'product' }],
          where: [{ each: 'drugs', path: 'role', in: ['suspect', 'concomitant'] }],
        });
        expect(suspects).toEqual([
          { key: { product: 'P1' }, count: 1 },
          { key: { product: 'P2' }, count: 1 },
        ]);
        const masked = await a.collection('cases').groupCount({
          by: [
            {
              name: 'drug',
              each: 'drugs',
              path: 'name',
              mask: { when: [{ path: 'role', in: ['suspect'] }], value: 'BLINDED' },
            },
          ],
        });
        expect(masked).toEqual([
          { key: { drug: 'Aspirin low dose' }, count: 1 },
          { key: { drug: 'BLINDED' }, count: 1 },
          { key: { drug: 'Ibuprofen' }, count: 1 },
          { key: { drug: 'Paracetamol' }, count: 1 },
        ]);
        const months = await a.collection('cases').groupCount({
          by: [
            { name: 'month', path: 'report.dateFirst', prefix: 6 },
            { name: 'score', path: 'score', prefix: 2 },
          ],
        });
        expect(months).toEqual([
          { key: { month: '202311', score: null }, count: 1 },
          { key: { month: '202401', score: null }, count: 1 },
          { key: { month: '202402', score: null }, count: 1 },
          { key: { month: '202403', score: null }, count: 1 },
        ]);
        const stems = await a.collection('cases').groupCount({
          by: [{ name: 'stem', each: 'drugs', path: 'name', prefix: 3 }],
        });
        expect(stems).toEqual([
          { key: { stem: 'Asp' }, count: 2 },
          { key: { stem: 'Ibu' }, count: 1 },
          { key: { stem: 'Par' }, count: 1 },
        ]);
        await expect(a.collection('cases').groupCount({ by: [] })).rejects.toBeInstanceOf(
          InvalidStoreRequestError,
        );
        await expect(
          a.collection('cases').groupCount({ by: [{ name: 'x', path: '$where' }] }),
        ).rejects.toBeInstanceOf(InvalidStoreRequestError);
        await expect(
          a
            .collection('cases')
            .groupCount({ filter: { $where: 'true' }, by: [{ name: 'x', path: 'product' }] }),
        ).rejects.toBeInstanceOf(ForbiddenQueryError);
      });

      it("takes the least text among an element's items (least), from JSON and from an element table", async () => {
        const docs = [
          // First dose 20240102 (texts only; a number and a missing date do not count).
          {
            _id: 'l1',
            drugs: [{ name: 'A', doses: [{ start: '20240105' }, { start: '20240102' }, { start: 3 }, {}] }],
          },
          // Two drugs: each its own least; an object instead of an array is one item.
          {
            _id: 'l2',
            drugs: [
              { name: 'A', doses: { start: '20240102' } },
              { name: 'B', doses: [] },
            ],
          },
          // Partial dates compare as texts: '2023' before '20230101'.
          { _id: 'l3', drugs: [{ name: 'B', doses: [{ start: '20230101' }, { start: '2023' }] }, 'loose'] },
        ];
        const spec = {
          by: [
            { name: 'drug', each: 'drugs', path: 'name' },
            { name: 'first', each: 'drugs', least: 'doses', path: 'start', prefix: 8 },
          ],
        };
        const expected = [
          { key: { drug: 'A', first: '20240102' }, count: 2 },
          { key: { drug: null, first: null }, count: 1 },
          { key: { drug: 'B', first: null }, count: 1 },
          { key: { drug: 'B', first: '2023' }, count: 1 },
        ];
        await store.define({ name: 'least_plain', scope: 'tenant' });
        await a.collection('least_plain').insertMany(docs);
        expect(await a.collection('least_plain').groupCount(spec)).toEqual(expected);
        await store.define({
          name: 'least_el',
          scope: 'tenant',
          elements: [{ each: 'drugs', paths: ['name', 'doses[].start'] }],
        });
        await a.collection('least_el').insertMany(docs);
        expect(await a.collection('least_el').groupCount(spec)).toEqual(expected);
        const reference = new GroupCounter(spec);
        for (const doc of docs) reference.add(doc);
        expect(reference.result()).toEqual(expected);
        await expect(
          a.collection('least_plain').groupCount({ by: [{ name: 'x', least: 'doses', path: 'start' }] }),
        ).rejects.toBeInstanceOf(InvalidStoreRequestError);
      });

      it("reads another element's item by key (match), from JSON, an element table and the pipeline", async () => {
        // A drug's assessment of each reaction (G.k.9.i.1 reactionId -> G.k.9.i.3.1a interval).
        const docs = [
          {
            _id: 'm1',
            reactions: [{ id: 'r1' }, { id: 'r2' }, { id: 3 }, {}],
            drugs: [
              {
                name: 'A',
                // The first item of a key counts; an item without a text key never matches.
                assess: [
                  { rid: 'r1', days: 4 },
                  { rid: 'r1', days: 9 },
                  { rid: 3, days: 1 },
                  'x',
                  { days: 2 },
                ],
              },
              // An object instead of an array is one item; a non-scalar value is null.
              { name: 'B', assess: { rid: 'r2', days: { n: 1 } } },
            ],
          },
          {
            _id: 'm2',
            reactions: [{ id: 'r1' }],
            drugs: [{ name: 'A', assess: [{ rid: 'r1', days: true }] }],
          },
          {
            _id: 'm3',
            reactions: [{ id: 'r9' }],
            drugs: [{ name: 'B', assess: [{ rid: 'r1', days: 'x' }] }],
          },
        ];
        const spec: GroupCountSpec = {
          by: [
            { name: 'drug', each: 'drugs', path: 'name' },
            {
              name: 'days',
              each: 'drugs',
              path: 'days',
              match: { items: 'assess', key: 'rid', each: 'reactions', equals: 'id' },
            },
          ],
          where: [{ each: 'reactions', path: 'id', present: true }],
        };
        const expected = [
          { key: { drug: 'B', days: null }, count: 2 },
          { key: { drug: 'A', days: null }, count: 1 },
          { key: { drug: 'A', days: 4 }, count: 1 },
          { key: { drug: 'A', days: true }, count: 1 },
        ];
        const reference = new GroupCounter(spec);
        for (const doc of docs) reference.add(doc);
        expect(reference.result()).toEqual(expected);
        await store.define({ name: 'match_plain', scope: 'tenant' });
        await a.collection('match_plain').insertMany(docs);
        expect(await a.collection('match_plain').groupCount(spec)).toEqual(expected);
        await store.define({
          name: 'match_el',
          scope: 'tenant',
          elements: [
            { each: 'drugs', paths: ['name', 'assess{rid}.days'] },
            { each: 'reactions', paths: ['id'] },
          ],
        });
        await a.collection('match_el').insertMany(docs);
        expect(await a.collection('match_el').groupCount(spec)).toEqual(expected);
        const pipeline = groupCountPipeline({}, spec);
        await orRefused(
          pipeline,
          () => a.collection('match_plain').aggregate<{ _id: Record<string, unknown>; n: number }>(pipeline),
          (result) =>
            expect(
              result
                .map((r) => ({ key: { drug: r._id.k0 ?? null, days: r._id.k1 ?? null }, count: r.n }))
                .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
            ).toEqual([...expected].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))),
        );
        // The other slot must be one the spec reads, and not the dimension's own.
        const alone = { items: 'assess', key: 'rid', each: 'reactions', equals: 'id' };
        await expect(
          a
            .collection('match_plain')
            .groupCount({ by: [{ name: 'x', each: 'drugs', path: 'days', match: alone }] }),
        ).rejects.toBeInstanceOf(InvalidStoreRequestError);
      });

      it('equals a brute-force count over random documents, with and without an exact SQL filter', async () => {
        await store.define({
          name: 'grouped',
          scope: 'tenant',
          indexes: [{ fields: { validity: 1 } }, { fields: { 'items.code': 1 } }],
        });
        let seed = 7;
        const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
        const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)]!;
        const values = ['x', 'y', 'z', 1, 2, true, false, null, { o: 1 }, ['x']];
        const element = () =>
          pick([
            () => ({ code: pick(['c1', 'c2', 'c3', 1, true, null]), role: pick(['1', '2', '3']) }),
            () => ({ role: '1' }),
            () => pick(['c1', 'c2']),
          ])();
        const docs = Array.from({ length: 240 }, (_, i) => {
          const doc: Record<string, unknown> = {
            _id: `g${i}`,
            validity: pick(['valid', 'invalid', 'deleted']),
          };
          if (random() < 0.9) doc.sex = pick(values);
          if (random() < 0.5) doc.flag = random() < 0.5;
          const shape = random();
          if (shape < 0.7) doc.items = Array.from({ length: Math.floor(random() * 4) }, element);
          else if (shape < 0.8) doc.items = element();
          else if (shape < 0.9) doc.items = null;
          doc.tags = Array.from({ length: Math.floor(random() * 3) }, () => pick(['a', 'b', 'a']));
          return doc;
        });
        await a.collection('grouped').insertMany(docs);
        await b.collection('grouped').insertMany(docs.slice(0, 50).map((d) => ({ ...d, _id: `b-${d._id}` })));
        const scalar = (v: unknown) =>
          typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))
            ? v
            : null;
        const elements = (v: unknown): unknown[] =>
          v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
        const field = (v: unknown, key: string) =>
          v !== null && typeof v === 'object' && !Array.isArray(v)
            ? (v as Record<string, unknown>)[key]
            : undefined;
        const firstLetter = (v: unknown) => (typeof v === 'string' ? v.slice(0, 1) : null);
        // Each document's set of keys, by hand, for: sex x item code (role in 1/3) x tag.
        const brute = (keep: (doc: Record<string, unknown>) => boolean) => {
          const counts = new Map<string, number>();
          for (const doc of docs.filter(keep)) {
            const keys = new Set<string>();
            for (const item of elements(doc.items).filter(
              (e) => ['1', '3'].includes(field(e, 'role') as string) && scalar(field(e, 'code')) !== null,
            ))
              for (const tag of elements(doc.tags))
                keys.add(
                  JSON.stringify([scalar(doc.sex), firstLetter(scalar(field(item, 'code'))), scalar(tag)]),
                );
            for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
          }
          return [...counts].map(([key, count]) => [...(JSON.parse(key) as unknown[]), count]);
        };
        const spec = (filter: Record<string, unknown>) => ({
          filter,
          by: [
            { name: 'sex', path: 'sex' },
            { name: 'code', each: 'items', path: 'code', prefix: 1 },
            { name: 'tag', each: 'tags' },
          ],
          where: [
            { each: 'items', path: 'role', in: ['1', '3'] },
            { each: 'items', path: 'code', present: true as const },
          ],
        });
        const rows = (groups: { key: Record<string, unknown>; count: number }[]) =>
          groups.map((g) => [g.key.sex, g.key.code, g.key.tag, g.count]);
        const order = (r: unknown[][]) => r.map((x) => JSON.stringify(x)).sort();
        const exact = await a.collection('grouped').groupCount(spec({ validity: 'valid' }));
        expect(order(rows(exact))).toEqual(order(brute((d) => d.validity === 'valid')));
        // The MongoDB pipeline itself, run by this backend's aggregate (mingo on the embedded store).
        const pipeline = groupCountPipeline({ validity: 'valid' }, spec({}));
        await orRefused(
          pipeline,
          () => a.collection('grouped').aggregate<{ _id: Record<string, unknown>; n: number }>(pipeline),
          (result) =>
            expect(
              order(result.map((r) => [r._id.k0 ?? null, r._id.k1 ?? null, r._id.k2 ?? null, r.n])),
            ).toEqual(order(brute((d) => d.validity === 'valid'))),
        );
        // `flag` has no index: the embedded store streams and filters these in mingo.
        const streamed = await a.collection('grouped').groupCount(spec({ flag: true }));
        expect(order(rows(streamed))).toEqual(order(brute((d) => d.flag === true)));
        expect(exact.length).toBeGreaterThan(3);
        const plain = await a.collection('grouped').groupCount({ by: [{ name: 'sex', path: 'sex' }] });
        const bySex = new Map<string, number>();
        for (const d of docs)
          bySex.set(JSON.stringify(scalar(d.sex)), (bySex.get(JSON.stringify(scalar(d.sex))) ?? 0) + 1);
        expect(order(plain.map((g) => [g.key.sex, g.count]))).toEqual(
          order([...bySex].map(([k, n]) => [JSON.parse(k), n])),
        );
        // Booleans stay booleans, distinct from 1 and 0.
        expect(plain.some((g) => g.key.sex === true) && plain.some((g) => g.key.sex === 1)).toBe(true);
        const other = await b.collection('grouped').groupCount({ by: [{ name: 'v', path: 'validity' }] });
        expect(other.reduce((sum, g) => sum + g.count, 0)).toBe(50);
        // The same documents with the items' paths declared as an element table (the embedded
        // store's per-element rows, filled at the declaration and kept by each write).
        await store.define({
          name: 'grouped_el',
          scope: 'tenant',
          indexes: [{ fields: { validity: 1 } }],
          elements: [{ each: 'items', paths: ['role', 'code'] }],
        });
        const perElement = a.collection('grouped_el');
        await perElement.insertMany(docs.slice(0, 120));
        await store.define({
          name: 'grouped_el',
          scope: 'tenant',
          indexes: [{ fields: { validity: 1 } }],
          elements: [{ each: 'items', paths: ['code', 'role'] }],
        });
        await perElement.insertMany(docs.slice(120).map((d) => ({ ...d, validity: 'deleted' })));
        for (const d of docs.slice(120))
          await perElement.updateOne({ _id: d._id }, { $set: { validity: d.validity } });
        await perElement.insertOne({
          _id: 'gone',
          validity: 'valid',
          items: [{ code: 'c1', role: '1' }],
          tags: ['a'],
        });
        expect(await perElement.deleteOne({ _id: 'gone' })).toBe(true);
        const declared = await perElement.groupCount(spec({ validity: 'valid' }));
        expect(order(rows(declared))).toEqual(order(brute((d) => d.validity === 'valid')));
        // The same array read twice: each item of role 1 with each item of role 2 of the document.
        const pairs = {
          filter: { validity: 'valid' },
          by: [
            { name: 'code', each: 'items', path: 'code' },
            { name: 'other', each: 'items', element: 'other', path: 'code' },
          ],
          where: [
            { each: 'items', path: 'role', in: ['1'] },
            { each: 'items', element: 'other', path: 'role', in: ['2'] },
          ],
        };
        const role = (doc: Record<string, unknown>, r: string) =>
          elements(doc.items).filter((e) => field(e, 'role') === r);
        const pairCounts = new Map<string, number>();
        for (const doc of docs.filter((d) => d.validity === 'valid')) {
          const keys = new Set<string>();
          for (const x of role(doc, '1'))
            for (const y of role(doc, '2'))
              keys.add(JSON.stringify([scalar(field(x, 'code')), scalar(field(y, 'code'))]));
          for (const key of keys) pairCounts.set(key, (pairCounts.get(key) ?? 0) + 1);
        }
        const expected = order([...pairCounts].map(([key, n]) => [...(JSON.parse(key) as unknown[]), n]));
        const pairRows = (groups: { key: Record<string, unknown>; count: number }[]) =>
          order(groups.map((g) => [g.key.code, g.key.other, g.count]));
        expect(expected.length).toBeGreaterThan(3);
        expect(pairRows(await a.collection('grouped').groupCount(pairs))).toEqual(expected);
        expect(pairRows(await perElement.groupCount(pairs))).toEqual(expected);
        // Codes mapped to their group (a PT to its HLT): a document counts once per group.
        const mapped: GroupCountSpec = {
          by: [
            { name: 'group', each: 'items', path: 'code', map: { c1: 'A', c2: 'A', c3: 'B' } },
            { name: 'v', path: 'validity', map: { valid: 'ok' } },
          ],
        };
        const groupOf = (v: unknown) => (v === 'c1' || v === 'c2' ? 'A' : v === 'c3' ? 'B' : null);
        const mappedCounts = new Map<string, number>();
        for (const doc of docs) {
          const keys = new Set(
            elements(doc.items).map((e) =>
              JSON.stringify([groupOf(field(e, 'code')), doc.validity === 'valid' ? 'ok' : null]),
            ),
          );
          for (const key of keys) mappedCounts.set(key, (mappedCounts.get(key) ?? 0) + 1);
        }
        const mappedExpected = order(
          [...mappedCounts].map(([key, n]) => [...(JSON.parse(key) as unknown[]), n]),
        );
        const mappedRows = (groups: { key: Record<string, unknown>; count: number }[]) =>
          order(groups.map((g) => [g.key.group, g.key.v, g.count]));
        expect(mappedRows(await a.collection('grouped').groupCount(mapped))).toEqual(mappedExpected);
        expect(mappedRows(await perElement.groupCount(mapped))).toEqual(mappedExpected);
        expect(
          mappedRows(
            await a
              .collection('grouped')
              .groupCount({ ...mapped, filter: { flag: { $in: [true, false, null] } } }),
          ),
        ).toEqual(mappedExpected);
        const mappedPipeline = groupCountPipeline({}, mapped);
        await orRefused(
          mappedPipeline,
          () =>
            a.collection('grouped').aggregate<{ _id: Record<string, unknown>; n: number }>(mappedPipeline),
          (result) =>
            expect(order(result.map((r) => [r._id.k0 ?? null, r._id.k1 ?? null, r.n]))).toEqual(
              mappedExpected,
            ),
        );
        await expect(
          a.collection('grouped').groupCount({ by: [{ name: 'x', path: 'sex', map: { $x: 'y' } }] }),
        ).rejects.toBeInstanceOf(InvalidStoreRequestError);
        const pairPipeline = groupCountPipeline({ validity: 'valid' }, { ...pairs, filter: {} });
        await orRefused(
          pairPipeline,
          () => a.collection('grouped').aggregate<{ _id: Record<string, unknown>; n: number }>(pairPipeline),
          (result) =>
            expect(order(result.map((r) => [r._id.k0 ?? null, r._id.k1 ?? null, r.n]))).toEqual(expected),
        );
        // An array read with one constant key (`map: {}`) only to require an element meeting its
        // conditions (the pivot's margins): alone (a document with several such items still counts
        // once), beside the same array read again under other conditions, and beside another array.
        const role2Coded = (doc: Record<string, unknown>) =>
          role(doc, '2').some((e) => scalar(field(e, 'code')) !== null);
        const required: [GroupCountSpec, (doc: Record<string, unknown>) => unknown[][]][] = [
          [
            {
              filter: { validity: 'valid' },
              by: [
                { name: 'k0', path: 'sex' },
                { name: 'k1', each: 'items', path: 'code', map: {} },
              ],
              where: [
                { each: 'items', path: 'role', in: ['2'] },
                { each: 'items', path: 'code', present: true },
              ],
            },
            (doc) => (role2Coded(doc) ? [[scalar(doc.sex), null]] : []),
          ],
          [
            {
              filter: { validity: 'valid' },
              by: [
                { name: 'k0', each: 'items', path: 'code' },
                { name: 'k1', each: 'items', element: 'other', path: 'code', map: {} },
              ],
              where: [
                { each: 'items', path: 'role', in: ['1'] },
                { each: 'items', element: 'other', path: 'role', in: ['2'] },
                { each: 'items', element: 'other', path: 'code', present: true },
              ],
            },
            (doc) => (role2Coded(doc) ? role(doc, '1').map((x) => [scalar(field(x, 'code')), null]) : []),
          ],
          [
            {
              filter: { validity: 'valid' },
              by: [
                { name: 'k0', each: 'tags' },
                { name: 'k1', each: 'items', path: 'code', map: {} },
              ],
              where: [
                { each: 'items', path: 'role', in: ['2'] },
                { each: 'items', path: 'code', present: true },
                { each: 'tags', in: ['a'] },
              ],
            },
            (doc) =>
              role2Coded(doc)
                ? elements(doc.tags)
                    .filter((t) => t === 'a')
                    .map(() => ['a', null])
                : [],
          ],
        ];
        for (const [requiring, keysOf] of required) {
          const counts = new Map<string, number>();
          for (const doc of docs.filter((d) => d.validity === 'valid'))
            for (const key of new Set(keysOf(doc).map((k) => JSON.stringify(k))))
              counts.set(key, (counts.get(key) ?? 0) + 1);
          const wanted = order([...counts].map(([key, n]) => [...(JSON.parse(key) as unknown[]), n]));
          expect(counts.size).toBeGreaterThan(0);
          const got = (groups: { key: Record<string, unknown>; count: number }[]) =>
            order(groups.map((g) => [g.key.k0, g.key.k1, g.count]));
          expect(got(await a.collection('grouped').groupCount(requiring))).toEqual(wanted);
          expect(got(await perElement.groupCount(requiring))).toEqual(wanted);
          const reference = new GroupCounter(requiring);
          for (const doc of docs.filter((d) => d.validity === 'valid')) reference.add(doc);
          expect(got(reference.result())).toEqual(wanted);
        }
      });
    });

    describe('revisions', () => {
      it('lets exactly one of two writers from the same revision win', async () => {
        const c = a.collection('cases');
        const doc = (await c.findOne({ _id: 'A-3' }))!;
        const results = await Promise.allSettled([
          c.updateOne({ _id: doc._id }, { $set: { narrative: 'first' } }, { expectedRev: doc.rev }),
          c.updateOne({ _id: doc._id }, { $set: { narrative: 'second' } }, { expectedRev: doc.rev }),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(lost[0]!.reason).toBeInstanceOf(RevisionConflictError);
        expect(lost[0]!.reason).toMatchObject({
          expectedRev: doc.rev,
          actualRev: doc.rev + 1,
          messageKey: 'revisionConflict',
        });
        const now = (await c.findOne({ _id: doc._id }))!;
        expect(now.rev).toBe(doc.rev + 1);
        expect(now.narrative).toBe((won[0] as PromiseFulfilledResult<StoredDoc>).value.narrative);
        await expect(c.deleteOne({ _id: doc._id }, { expectedRev: doc.rev })).rejects.toBeInstanceOf(
          RevisionConflictError,
        );
      });

      it('rolls back every write of a failed transaction', async () => {
        if (!store.capabilities.transactions) {
          // Documented (store/README.md): without transactions each write commits on its own, so
          // the write before the failing one stays. Asserted so that the loss is known, not hidden.
          await expect(
            a.transaction(async (tx) => {
              await tx.collection('products').insertOne({ _id: 'A-tx', code: 'TX' });
              await tx.collection('products').insertOne({ _id: 'A-P1', code: 'dup' });
            }),
          ).rejects.toBeInstanceOf(DuplicateKeyError);
          expect(await a.collection('products').findOne({ _id: 'A-tx' })).not.toBeNull();
          expect(await a.collection('products').deleteOne({ _id: 'A-tx' })).toBe(true);
          markRefused();
          return;
        }
        await expect(
          a.transaction(async (tx) => {
            await tx.collection('products').insertOne({ _id: 'A-tx', code: 'TX' });
            await tx.collection('products').insertOne({ _id: 'A-P1', code: 'dup' });
          }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await a.collection('products').findOne({ _id: 'A-tx' })).toBeNull();
        const committed = await a.transaction(async (tx) =>
          tx.collection('products').insertOne({ _id: 'A-tx2', code: 'TX' }),
        );
        expect(await a.collection('products').findOne({ _id: committed._id })).not.toBeNull();
        await a.collection('products').deleteOne({ _id: 'A-tx2' });
      });
    });

    describe('tenant walls', () => {
      const tricks: [string, Record<string, unknown>][] = [
        ['explicit tenantId', { tenantId: 'B' }],
        ['$or with tenantId', { $or: [{ tenantId: 'B' }, { _id: 'B-1' }] }],
        ['id of the other tenant', { _id: 'B-1' }],
        ['$in over tenants', { tenantId: { $in: ['A', 'B'] } }],
        ['$ne tenant', { tenantId: { $ne: 'A' } }],
        ['$nor', { $nor: [{ tenantId: 'A' }] }],
        ['$expr on tenantId', serverFilter({ $expr: { $eq: ['$tenantId', 'B'] } })],
      ];
      it.each(tricks)('tenant A cannot read, count, update or delete B with %s', async (_label, filter) => {
        const c = a.collection('cases');
        if (lacking(filter).length > 0) {
          // The server cannot evaluate the filter: every operation is refused, B is untouched.
          const untouched = await b.collection('cases').find({}, { sort: { _id: 1 } });
          await orRefused(
            filter,
            () => c.find(filter),
            () => undefined,
          );
          await orRefused(
            filter,
            () => c.count(filter),
            () => undefined,
          );
          await orRefused(
            filter,
            () => c.updateMany(filter, { $set: { hacked: true } }),
            () => undefined,
          );
          await orRefused(
            filter,
            () => c.deleteOne(filter),
            () => undefined,
          );
          expect(await b.collection('cases').find({}, { sort: { _id: 1 } })).toEqual(untouched);
          return;
        }
        const seen = await c.find(filter);
        expect(seen.every((d) => d.tenantId === 'A')).toBe(true);
        expect(seen.some((d) => d._id.startsWith('B-'))).toBe(false);
        expect(await c.count(filter)).toBe(seen.length);
        const before = await b.collection('cases').find({}, { sort: { _id: 1 } });
        await c.updateMany({ $and: [filter, { _id: literalRegex('^B-') }] }, { $set: { hacked: true } });
        await c.updateOne({ $and: [filter, { _id: literalRegex('^B-') }] }, { $set: { hacked: true } });
        await c.deleteOne({ $and: [filter, { _id: literalRegex('^B-') }] });
        expect(await b.collection('cases').find({}, { sort: { _id: 1 } })).toEqual(before);
        const agg = await c.aggregate([{ $match: filter }, { $group: { _id: '$tenantId', n: { $sum: 1 } } }]);
        expect(agg.every((g) => g._id === 'A')).toBe(true);
      });

      it.each([
        ['$where', { $where: 'this.tenantId == "B"' }],
        [
          '$function in $expr',
          { $expr: { $function: { body: 'function(){return true}', args: [], lang: 'js' } } },
        ],
        ['nested $where', { $or: [{ a: 1 }, { $and: [{ $where: 'true' }] }] }],
      ])('refuses %s in filters', async (_label, filter) => {
        const c = a.collection('cases');
        await expect(c.find(filter)).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.count(filter)).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.updateOne(filter, { $set: { x: 1 } })).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.deleteOne(filter)).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.aggregate([{ $match: filter }])).rejects.toBeInstanceOf(ForbiddenQueryError);
      });

      // What a request could carry (parsed JSON: no object in it was built by server code).
      it.each([
        ['$regex', '{"reportCode": {"$regex": "^A"}}'],
        ['a catastrophic $regex', '{"drugs.name": {"$regex": "(a+)+$", "$options": "i"}}'],
        ['$regex under $elemMatch', '{"drugs": {"$elemMatch": {"name": {"$regex": "^Asp"}}}}'],
        ['$regex under $not in $or', '{"$or": [{"x": 1}, {"reportCode": {"$not": {"$regex": "A"}}}]}'],
        ['$expr', '{"$expr": {"$eq": ["$tenantId", "A"]}}'],
        ['$where', '{"$where": "true"}'],
        [
          '$function',
          '{"$expr": {"$function": {"body": "function(){return true}", "args": [], "lang": "js"}}}',
        ],
        ['$jsonSchema', '{"$jsonSchema": {"required": ["reportCode"]}}'],
      ])('refuses a request-built filter with %s everywhere and changes nothing', async (_label, json) => {
        const filter = JSON.parse(json) as Record<string, unknown>;
        const c = a.collection('cases');
        const before = await c.find({}, { sort: { _id: 1 } });
        await expect(c.find(filter)).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.findOne(filter)).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.count(filter)).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.updateOne(filter, { $set: { x: 1 } })).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.updateMany(filter, { $set: { x: 1 } })).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.deleteOne(filter)).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.aggregate([{ $match: filter }])).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(store.maintenance().countAllTenants('cases', filter)).rejects.toBeInstanceOf(
          ForbiddenQueryError,
        );
        expect(await c.find({}, { sort: { _id: 1 } })).toEqual(before);
      });

      it('accepts only regexes built from literal text and expressions server code marked', async () => {
        await store.define({ name: 'traps', scope: 'tenant', indexes: [{ fields: { code: 1 } }] });
        const traps = a.collection('traps');
        await traps.insertMany([
          { _id: 't1', code: `${'a'.repeat(30)}!`, note: `${'a'.repeat(30)}!` },
          { _id: 't2', code: 'x(a+)+$y', note: 'the text (A+)+$ itself' },
        ]);
        const built = literalRegex('^aa');
        expect(Object.isFrozen(built)).toBe(true);
        expect(ids(await traps.find({ code: built }))).toEqual(['t1']);
        // A copy loses the mark; a RegExp, a pattern with operators, flags that change matching
        // and an over-long text are refused; serverFilter does not vouch for nested conditions.
        await expect(traps.find({ code: { ...built } })).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(traps.find({ code: /^aa/ })).rejects.toBeInstanceOf(ForbiddenQueryError);
        expect(() => literalRegex('(a+)+$')).toThrow(ForbiddenQueryError);
        expect(() => literalRegex('a{1,30}')).toThrow(ForbiddenQueryError);
        expect(() => literalRegex('^aa', 'u')).toThrow(ForbiddenQueryError);
        expect(() => textMatch('x'.repeat(257))).toThrow(ForbiddenQueryError);
        expect(() => textMatch('x'.repeat(256))).not.toThrow();
        await expect(traps.find(serverFilter({ code: { $regex: '^aa' } }))).rejects.toBeInstanceOf(
          ForbiddenQueryError,
        );
        await expect(
          traps.aggregate([{ $project: { m: { $regexMatch: { input: '$code', regex: '(a+)+$' } } } }]),
        ).rejects.toBeInstanceOf(ForbiddenQueryError);
        const marked = serverFilter({ $expr: { $eq: ['$code', '$note'] } });
        await orRefused(
          marked,
          () => traps.find(marked),
          (found) => expect(ids(found)).toEqual(['t1']),
        );
        // Text is matched literally, on indexed (SQL) and unindexed (mingo) paths alike, at once
        // even against the input that makes (a+)+$ backtrack exponentially.
        let slowest = 0;
        const found = async (filter: Record<string, unknown>) => {
          const started = performance.now();
          const docs = await traps.find(filter);
          slowest = Math.max(slowest, performance.now() - started);
          return ids(docs);
        };
        for (const path of ['code', 'note']) {
          expect(await found({ [path]: textMatch('(a+)+$') })).toEqual(['t2']);
          expect(await found({ [path]: textMatch('(A+)+$') })).toEqual(['t2']);
          expect(await found({ [path]: textMatch('(A+)+$', { caseInsensitive: false }) })).toEqual(
            path === 'code' ? [] : ['t2'],
          );
          expect(await found({ [path]: textMatch('a'.repeat(30), { mode: 'prefix' }) })).toEqual(['t1']);
          expect(await found({ [path]: textMatch('A!', { mode: 'suffix' }) })).toEqual(['t1']);
          expect(await found({ [path]: textMatch('a', { mode: 'exact' }) })).toEqual([]);
        }
        expect(slowest).toBeLessThan(100);
      });

      it('refuses script accumulators, $out, $merge and joins outside the tenant scope', async () => {
        const c = a.collection('cases');
        const accumulator = {
          $accumulator: {
            init: 'function(){return 0}',
            accumulate: 'function(s){return s}',
            accumulateArgs: [],
            merge: 'function(a){return a}',
            lang: 'js',
          },
        };
        await expect(c.aggregate([{ $group: { _id: null, x: accumulator } }])).rejects.toBeInstanceOf(
          ForbiddenQueryError,
        );
        await expect(c.aggregate([{ $out: 'stolen' }])).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(c.aggregate([{ $merge: { into: 'cases' } }])).rejects.toBeInstanceOf(
          ForbiddenQueryError,
        );
        await expect(
          c.aggregate([{ $lookup: { from: 'tenants', localField: 'x', foreignField: '_id', as: 't' } }]),
        ).rejects.toBeInstanceOf(InvalidStoreRequestError);
        await expect(
          c.aggregate([
            { $lookup: { from: [{ tenantId: 'B' }], localField: 'x', foreignField: '_id', as: 't' } },
          ]),
        ).rejects.toBeInstanceOf(ForbiddenQueryError);
        await expect(
          c.aggregate([
            {
              $facet: {
                x: [{ $lookup: { from: 'cases', pipeline: [{ $match: { $where: '1' } }], as: 'y' } }],
              },
            },
          ]),
        ).rejects.toBeInstanceOf(ForbiddenQueryError);
        const joins: Pipeline = [
          { $match: { _id: 'A-1' } },
          { $lookup: { from: 'cases', pipeline: [{ $match: { tenantId: 'B' } }], as: 'others' } },
          { $lookup: { from: 'cases', localField: 'reportCode', foreignField: 'reportCode', as: 'same' } },
          {
            $graphLookup: {
              from: 'cases',
              startWith: '$product',
              connectFromField: 'product',
              connectToField: 'product',
              as: 'graph',
            },
          },
        ];
        await orRefused(
          joins,
          () => c.aggregate<{ others: StoredDoc[]; same: StoredDoc[]; graph: StoredDoc[] }>(joins),
          (viaLookup) => {
            expect(viaLookup[0]!.others).toEqual([]);
            expect(viaLookup[0]!.same.map((d) => d._id)).toEqual(['A-1']);
            expect(viaLookup[0]!.graph.every((d) => d.tenantId === 'A')).toBe(true);
          },
        );
      });

      it('keeps platform and tenant collections apart', async () => {
        const platform = store.platform({ userId: 'root' });
        await platform.collection('tenants').insertOne({ _id: 'A', name: 'Tenant A' });
        expect(await platform.collection('tenants').find()).toHaveLength(1);
        await expect(a.collection('tenants').find()).rejects.toBeInstanceOf(InvalidStoreRequestError);
        await expect(platform.collection('cases').find()).rejects.toBeInstanceOf(InvalidStoreRequestError);
        await expect(a.collection('nowhere').find()).rejects.toBeInstanceOf(InvalidStoreRequestError);
        expect(() => store.tenant('_platform', alice)).toThrow(InvalidStoreRequestError);
        // Inside a transaction too: refused, not waiting for the transaction to end (it hung).
        await expect(a.transaction((tx) => tx.collection('nowhere').find())).rejects.toBeInstanceOf(
          InvalidStoreRequestError,
        );
      });
    });

    describe('capabilities', () => {
      it('stores arrays of arrays (wrapped by the driver on a server without them)', async () => {
        const c = a.collection('products');
        const rows = { _id: 'A-rows', code: 'R', rows: [[1, 'a', [true, null]], [], [{ x: [[2]] }]] };
        const stored = await c.insertOne(rows);
        expect(await c.findOne({ _id: 'A-rows' })).toEqual(stored);
        const updated = await c.updateOne({ _id: 'A-rows' }, { $push: { rows: [3, 4] } });
        expect(updated?.rows).toEqual([...rows.rows, [3, 4]]);
        expect((await c.find({ code: 'R' }))[0]).toEqual(updated);
        expect(await c.deleteOne({ _id: 'A-rows' })).toBe(true);
      });

      it('reports the server, its version, transactions and the features it lacks', async () => {
        const capabilities = store.capabilities;
        expect(capabilities.backend).toBe(backend.name);
        expect(capabilities.serverVersion).toMatch(/\d+\.\d+/);
        if (backend.name === 'embedded') {
          expect(capabilities).toMatchObject({ serverKind: 'sqlite', transactions: true, missing: [] });
        } else if (capabilities.serverKind === 'ferretdb') {
          // FerretDB 1.x: no transactions, no joins (the peer the test command runs).
          expect(capabilities.transactions).toBe(false);
          expect(capabilities.missing).toEqual(expect.arrayContaining(['$lookup', '$facet', '$unionWith']));
          // Documents it cannot store are refused by name, and nothing of the batch stays.
          const c = a.collection('products');
          for (const [feature, doc] of [
            ['dotted field names', { _id: 'A-dotted', code: 'D', map: { 'C.1.CN': 'x' } }],
          ] as const) {
            if (!capabilities.missing.includes(feature)) continue;
            const error: unknown = await c
              .insertMany([{ _id: 'A-ok', code: 'OK' }, doc])
              .catch((e: unknown) => e);
            expect(error).toBeInstanceOf(UnsupportedFeatureError);
            expect(error).toMatchObject({ feature });
            expect(await c.findOne({ _id: 'A-ok' })).toBeNull();
          }
        } else {
          expect(capabilities.serverKind).toBe('mongodb');
          expect(capabilities.missing).toEqual([]);
        }
      });
    });

    describe('audit trail', () => {
      it('records insert, update and delete with path-level before/after, reason and reasons per field', async () => {
        const c = a.collection('cases');
        const doc = await c.insertOne({
          _id: 'A-audit',
          reportCode: 'A-AUD',
          patient: { sex: '1', age: 40 },
          narrative: 'x',
        });
        await c.updateOne(
          { _id: doc._id },
          { $set: { 'patient.age': 41 }, $unset: { narrative: '' } },
          {
            expectedRev: 1,
            reason: 'follow-up',
            fieldReasons: [{ pointer: '/patient/age', reason: '41; /x: y' }],
          },
        );
        await store.tenant('A', bob).collection('cases').deleteOne({ _id: doc._id }, { reason: 'duplicate' });
        const audit = auditService(a);
        const entries = await audit.byDocument('cases', doc._id, { order: 'asc' });
        expect(entries.map((e) => [e.operation, e.documentRev, e.userId])).toEqual([
          ['insert', 1, 'alice'],
          ['update', 2, 'alice'],
          ['delete', 2, 'bob'],
        ]);
        expect(entries[0]!.changes).toEqual(
          expect.arrayContaining([{ path: 'patient', after: { sex: '1', age: 40 } }]),
        );
        expect(entries[1]!.changes).toEqual(
          expect.arrayContaining([
            { path: 'patient.age', before: 40, after: 41 },
            { path: 'narrative', before: 'x' },
          ]),
        );
        expect(entries[1]!.changes).toHaveLength(2);
        expect(entries[1]!.reason).toBe('follow-up');
        // Reasons per field stay structured, each kept whole.
        expect(entries[1]!.fieldReasons).toEqual([{ pointer: '/patient/age', reason: '41; /x: y' }]);
        expect(entries[2]!.reason).toBe('duplicate');
        expect(entries[2]!.fieldReasons).toBeUndefined();
        expect((await audit.byUser('bob')).map((e) => e.documentId)).toContain(doc._id);
        expect(await audit.byTimeRange({ from: entries[0]!.at, to: '9999' })).toHaveLength(
          await a.collection('audit').count({ at: { $gte: entries[0]!.at } }),
        );
        // B sees none of A's trail.
        expect(await auditService(b).byDocument('cases', doc._id)).toEqual([]);
      });

      it('has no way to change or delete audit entries', async () => {
        const trail = a.collection('audit');
        const [entry] = await trail.find({}, { limit: 1 });
        expect(entry).toBeDefined();
        await expect(trail.updateOne({ _id: entry!._id }, { $set: { userId: 'x' } })).rejects.toBeInstanceOf(
          InvalidStoreRequestError,
        );
        await expect(trail.deleteOne({ _id: entry!._id })).rejects.toBeInstanceOf(InvalidStoreRequestError);
        await expect(trail.insertOne({ userId: 'forged' })).rejects.toBeInstanceOf(InvalidStoreRequestError);
        await expect(trail.updateMany({}, { $set: { userId: 'x' } })).rejects.toBeInstanceOf(
          InvalidStoreRequestError,
        );
        await expect(store.define({ name: 'audit', scope: 'tenant' })).rejects.toBeInstanceOf(
          InvalidStoreRequestError,
        );
        expect(await trail.findOne({ _id: entry!._id })).toEqual(entry);
      });
    });
  });
}
