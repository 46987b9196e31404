/**
 * MongoDB backend through mongoose's connection (native driver: schemas add nothing for a
 * schemaless port). Filters and pipelines reach it already scoped and checked by core.ts.
 * What the server offers (transactions, aggregation stages) is asked at connect time.
 */
import { randomUUID } from 'node:crypto';
import { Query } from 'mingo';
import mongoose from 'mongoose';
import type { ClientSession, Db, Document } from 'mongodb';
import type { Driver } from './core';
import { mingoOptions, withIdTiebreak } from './embedded';
import {
  StoreUnavailableError,
  UnsupportedFeatureError,
  describeServer,
  operatorsUsed,
  refuseMissing,
} from './capabilities';
import type { StoreCapabilities } from './capabilities';
import {
  arraysOf,
  GroupCounter,
  groupCountPipeline,
  groupScalar,
  topFields,
  withPrefix,
} from './group-count';
import type { GroupCount, GroupCountSpec, GroupScalar } from './group-count';
import { DuplicateKeyError, StoreError } from './port';
import type {
  CollectionDefinition,
  CountOptions,
  Filter,
  FindOptions,
  IndexDeclaration,
  Pipeline,
  SortSpec,
  StoredDoc,
} from './port';

const META = '_collections';
/** Revision claims on servers whose compare-and-swap is not atomic (see MongoDriver.claimed). */
const CLAIMS = '_revision_claims';
const CLAIM_LEASE_MS = 60_000;
const INDEX_OPTIONS_CONFLICT = 85;
const INDEX_KEY_SPECS_CONFLICT = 86;
const CLAIM_WAIT_MS = 10_000;
const CLAIM_POLL_MS = 10;

/**
 * How a definition is kept in `_collections`: index fields as a list of { path, order }, since a
 * dotted path as a key inside a stored document ('drugs.name': 1) is refused by MongoDB before
 * 5.0 and by FerretDB. Definitions written before hold `fields` as an object; both are read.
 */
interface StoredIndex extends Omit<IndexDeclaration, 'fields'> {
  keys?: { path: string; order: 1 | -1 }[];
  fields?: SortSpec;
}
interface MetaDoc {
  _id: string;
  definition: Omit<CollectionDefinition, 'indexes'> & { indexes?: StoredIndex[] };
}

type AnyDoc = { _id: string } & Record<string, unknown>;

/** How long an operation waits for an unreachable server before the request fails. */
export const SERVER_SELECTION_TIMEOUT_MS = Number(process.env.PV_MONGODB_TIMEOUT_MS ?? 5000);

/** A connection with the store's server selection timeout; a server not reached is StoreUnavailableError. */
export async function openMongoConnection(uri: string): Promise<mongoose.Connection> {
  const connection = mongoose.createConnection(uri, {
    serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
  });
  try {
    return await connection.asPromise();
  } catch (error) {
    throw translateError(error);
  }
}

export function encodeDefinition(def: CollectionDefinition): MetaDoc['definition'] {
  if (!def.indexes) return { ...def };
  return {
    ...def,
    indexes: def.indexes.map(({ fields, ...rest }) => ({
      ...rest,
      keys: Object.entries(fields).map(([path, order]) => ({ path, order })),
    })),
  };
}

export function decodeDefinition(stored: MetaDoc['definition']): CollectionDefinition {
  if (!stored.indexes) return stored as CollectionDefinition;
  return {
    ...stored,
    indexes: stored.indexes.map(({ keys, fields, ...rest }) => ({
      ...rest,
      fields: keys ? Object.fromEntries(keys.map((k) => [k.path, k.order])) : (fields ?? {}),
    })),
  };
}

export class MongoDriver implements Driver {
  readonly backend = 'mongodb' as const;

  private constructor(
    private readonly connection: mongoose.Connection,
    private readonly db: Db,
    readonly capabilities: StoreCapabilities,
    private readonly session?: ClientSession,
  ) {}

  /** FerretDB's update reads then writes: a filter on rev alone does not make it a compare-and-swap. */
  private get atomicReplace(): boolean {
    return this.capabilities.serverKind !== 'ferretdb';
  }

  static async connect(uri: string): Promise<MongoDriver> {
    const connection = await openMongoConnection(uri);
    const db = connection.db as unknown as Db;
    const capabilities = await probeCapabilities(db);
    return new MongoDriver(connection, db, capabilities);
  }

  get inTransaction(): boolean {
    return this.session !== undefined;
  }

  private coll(name: string) {
    return this.db.collection<AnyDoc>(name);
  }

  private get opts(): { session?: ClientSession } {
    return this.session ? { session: this.session } : {};
  }

  async loadDefinitions(): Promise<CollectionDefinition[]> {
    const rows = await guarded(() => this.db.collection<MetaDoc>(META).find({}, this.opts).toArray());
    return rows.map((r) => decodeDefinition(r.definition));
  }

  async ensure(def: CollectionDefinition): Promise<void> {
    await guarded(async () => {
      const existing = await this.db.listCollections({ name: def.name }).toArray();
      if (existing.length === 0) await this.db.createCollection(def.name).catch(ignoreExists);
      const coll = this.coll(def.name);
      await coll.createIndex({ tenantId: 1, _id: 1 }, { name: 'tenant' });
      for (const [i, declared] of (def.indexes ?? []).entries()) {
        // No substring index in MongoDB: a text declaration becomes one index per path (a compound
        // one over two array paths would be refused: "cannot index parallel arrays").
        const expanded: IndexDeclaration[] = declared.text
          ? Object.keys(declared.fields).map((path) => ({
              name: `${declared.name ?? `i${i}`}_${path}`,
              fields: { [path]: 1 as const },
            }))
          : [declared];
        for (const index of expanded) {
          const keys =
            index.fields.tenantId === undefined ? { tenantId: 1, ...index.fields } : { ...index.fields };
          const name = index.name ?? `i${i}`;
          const options = { name, unique: index.unique ?? false };
          await coll.createIndex(keys, options).catch(async (error: unknown) => {
            const code = (error as { code?: number }).code;
            // The same keys under another name (two declarations that differ only by the tenant
            // prefix or the name): that index serves this one too.
            if (code === INDEX_OPTIONS_CONFLICT) return;
            // This name with other keys or options (a changed declaration): built again.
            if (code !== INDEX_KEY_SPECS_CONFLICT) throw error;
            await coll.dropIndex(name);
            await coll.createIndex(keys, options);
          });
        }
      }
      await this.db
        .collection<MetaDoc>(META)
        .replaceOne({ _id: def.name }, { definition: encodeDefinition(def) }, { upsert: true });
    });
  }

  async find(def: CollectionDefinition, filter: Filter, options: FindOptions = {}): Promise<StoredDoc[]> {
    if (options.limit === 0) return [];
    const relaxed = this.withoutElemMatch(filter);
    if (relaxed) return this.findFinished(def, filter, relaxed, options);
    refuseMissing(this.capabilities, filter);
    return guarded(async () => {
      let cursor = this.coll(def.name).find(filter, {
        ...this.opts,
        sort: withIdTiebreak(options.sort),
      });
      if (options.skip) cursor = cursor.skip(options.skip);
      if (options.limit !== undefined) cursor = cursor.limit(options.limit);
      if (options.projection) cursor = cursor.project(options.projection);
      return this.decode(await cursor.toArray()) as unknown as StoredDoc[];
    }, this.capabilities);
  }

  /**
   * A find whose filter the server gets widened (withoutElemMatch): the server sorts, mingo tests
   * each streamed document, and skip, limit and projection apply to what passed, as MongoDB applies
   * them after the match, so pages are exact. The cursor closes once the limit is reached.
   */
  private async findFinished(
    def: CollectionDefinition,
    filter: Filter,
    relaxed: Filter,
    options: FindOptions,
  ): Promise<StoredDoc[]> {
    const skip = options.skip ?? 0;
    const found: Document[] = [];
    let passed = 0;
    for await (const doc of this.matching(def, filter, relaxed, withIdTiebreak(options.sort))) {
      if (passed++ < skip) continue;
      found.push(doc);
      if (found.length === options.limit) break;
    }
    if (!options.projection) return found as StoredDoc[];
    // Projected as the embedded store projects (mingo), in the order found.
    return new Query({}, mingoOptions()).find<StoredDoc>(found, options.projection).all();
  }

  async count(def: CollectionDefinition, filter: Filter, options: CountOptions = {}): Promise<number> {
    const relaxed = this.withoutElemMatch(filter);
    if (relaxed) {
      let n = 0;
      for await (const _doc of this.matching(def, filter, relaxed)) {
        if (++n === options.limit) break;
      }
      return n;
    }
    refuseMissing(this.capabilities, filter);
    const limit = options.limit === undefined ? {} : { limit: options.limit };
    return guarded(
      () => this.coll(def.name).countDocuments(filter, { ...this.opts, ...limit }),
      this.capabilities,
    );
  }

  async insert(def: CollectionDefinition, docs: StoredDoc[]): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.coll(def.name).insertMany(this.encode(docs) as AnyDoc[], { ...this.opts, ordered: true });
    } catch (error) {
      if (!this.session && error instanceof mongoose.mongo.MongoBulkWriteError && error.insertedCount > 0) {
        // No transaction to abort: take back the batch's documents inserted before the failing one
        // (an ordered insert stops there), so a refused batch leaves nothing behind here either.
        const inserted = docs.slice(0, error.insertedCount).map((d) => d._id);
        await guarded(() => this.coll(def.name).deleteMany({ _id: { $in: inserted }, rev: docs[0]!.rev }));
      }
      throw translateError(translateDuplicate(error, def), this.capabilities);
    }
  }

  async replace(def: CollectionDefinition, doc: StoredDoc, prevRev: number): Promise<boolean> {
    return this.claimed(def, doc._id, prevRev, () => this.replaceNow(def, doc, prevRev));
  }

  private async replaceNow(def: CollectionDefinition, doc: StoredDoc, prevRev: number): Promise<boolean> {
    try {
      const result = await this.coll(def.name).replaceOne(
        { _id: doc._id, tenantId: doc.tenantId, rev: prevRev },
        this.encode(doc) as AnyDoc,
        this.opts,
      );
      return result.matchedCount === 1;
    } catch (error) {
      throw translateError(translateDuplicate(error, def), this.capabilities);
    }
  }

  async remove(def: CollectionDefinition, id: string, prevRev: number): Promise<boolean> {
    return this.claimed(def, id, prevRev, async () => {
      const result = await guarded(() => this.coll(def.name).deleteOne({ _id: id, rev: prevRev }, this.opts));
      return result.deletedCount === 1;
    });
  }

  /**
   * Runs a compare-and-swap from revision prevRev. MongoDB matches and writes one document
   * atomically; FerretDB reads then writes, so two writers from the same revision could both
   * match. There the writer first inserts a claim `<collection>/<id>/<prevRev>` into CLAIMS (a
   * unique _id, which any server enforces atomically): the second claimant loses as a stale
   * write would. The claim is removed once the write is done: a later writer from prevRev then
   * finds the document at a newer revision and loses on the revision itself. A claim left by a
   * process that died holding it is taken over once older than CLAIM_LEASE_MS.
   */
  private async claimed(
    def: CollectionDefinition,
    id: string,
    prevRev: number,
    write: () => Promise<boolean>,
  ): Promise<boolean> {
    if (this.atomicReplace || this.session) return write();
    const claims = this.db.collection<{ _id: string; at: number }>(CLAIMS);
    const claim = `${def.name}/${id}/${prevRev}`;
    // eslint-disable-next-line no-restricted-syntax -- a lease shared between processes needs wall time
    const now = Date.now();
    // Writers from the same revision take turns: the later one then finds the document moved on.
    for (let waited = 0; ; waited += CLAIM_POLL_MS) {
      try {
        await claims.insertOne({ _id: claim, at: now + waited });
        break;
      } catch (error) {
        if ((error as { code?: number }).code !== 11000) throw translateError(error);
      }
      // Left by a writer that died holding it: taken over once stale.
      const taken = await guarded(() =>
        claims.updateOne({ _id: claim, at: { $lt: now + waited - CLAIM_LEASE_MS } }, { $set: { at: now } }),
      );
      if (taken.modifiedCount === 1) break;
      if (waited >= CLAIM_WAIT_MS) return false;
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
    try {
      return await write();
    } finally {
      await claims.deleteOne({ _id: claim }).catch(() => undefined);
    }
  }

  async aggregate(def: CollectionDefinition, _tenantId: string, pipeline: Pipeline): Promise<unknown[]> {
    // core.ts has rewritten every join ($lookup, $unionWith, $graphLookup) to the tenant.
    refuseMissing(this.capabilities, pipeline);
    return this.decode(
      await guarded(() => this.coll(def.name).aggregate(pipeline, this.opts).toArray(), this.capabilities),
    );
  }

  /**
   * The grouped count as group-count.ts's pipeline, keys normalised to scalars. A server without `$unwind` or `$group`
   * (FerretDB 1.24 lacks the first) gets a find streamed through a GroupCounter with only the
   * fields read projected: memory holds the groups, not the documents.
   */
  async groupCount(def: CollectionDefinition, filter: Filter, spec: GroupCountSpec): Promise<GroupCount[]> {
    const counter = new GroupCounter(spec);
    const relaxed = this.withoutElemMatch(filter);
    if (relaxed) {
      for await (const doc of this.matching(def, filter, relaxed)) counter.add(doc);
      return counter.result();
    }
    refuseMissing(this.capabilities, filter);
    const arrays = arraysOf(spec);
    const missing = this.capabilities.missing;
    if (missing.includes('$group') || (arrays.length > 0 && missing.includes('$unwind'))) {
      const projection = Object.fromEntries(topFields(spec).map((field) => [field, 1]));
      await guarded(async () => {
        const cursor = this.coll(def.name).find(filter, { ...this.opts, projection, batchSize: 1000 });
        for await (const doc of cursor) counter.add(this.decode(doc));
      }, this.capabilities);
      return counter.result();
    }
    const pipeline = groupCountPipeline(filter, spec);
    refuseMissing(this.capabilities, pipeline);
    const rows = await guarded(
      () =>
        this.coll(def.name)
          .aggregate<{ _id: Record<string, unknown>; n: number }>(pipeline, {
            ...this.opts,
            allowDiskUse: true,
          })
          .toArray(),
      this.capabilities,
    );
    for (const row of rows) {
      const key: Record<string, GroupScalar> = {};
      spec.by.forEach(
        (d, i) =>
          // With arrays the pipeline has cut and mapped every key already.
          (key[d.name] = arrays.length
            ? groupScalar(toPlain(row._id?.[`k${i}`]))
            : withPrefix(d, groupScalar(toPlain(row._id?.[`k${i}`])))),
      );
      counter.merge(key, Number(row.n));
    }
    return counter.result();
  }

  /**
   * On a server without `$elemMatch` (FerretDB 1.24 answers some wrongly: store README), a find
   * (so findOne and the writes core.ts selects by find), count or grouped count whose filter uses
   * it where dropping it only widens the match gets this wider filter for the server, and
   * `matching` finishes the whole filter through mingo, as the embedded store finishes a filter
   * SQL cannot answer. Null: not needed, or not possible (then refused).
   */
  private withoutElemMatch(filter: Filter): Filter | null {
    if (!this.capabilities.missing.includes('$elemMatch') || !operatorsUsed(filter).has('$elemMatch'))
      return null;
    const relaxed = widened(filter);
    if (relaxed === null) return null;
    refuseMissing(this.capabilities, relaxed);
    return relaxed;
  }

  /** The documents the server finds for `relaxed` (in `sort` order) that meet `filter` (mingo), streamed. */
  private async *matching(
    def: CollectionDefinition,
    filter: Filter,
    relaxed: Filter,
    sort?: SortSpec,
  ): AsyncGenerator<Document> {
    const query = new Query(filter, mingoOptions());
    const cursor = this.coll(def.name).find(relaxed, {
      ...this.opts,
      batchSize: 1000,
      ...(sort ? { sort } : {}),
    });
    try {
      for (;;) {
        const raw = await guarded(() => cursor.next(), this.capabilities);
        if (raw === null) return;
        const doc = this.decode(raw);
        if (query.test(doc)) yield doc;
      }
    } finally {
      await cursor.close().catch(() => undefined);
    }
  }

  async scan(def: CollectionDefinition, afterId: string | null, batchSize: number): Promise<StoredDoc[]> {
    const filter: Filter = afterId === null ? {} : { _id: { $gt: afterId } };
    return this.decode(
      await guarded(() =>
        this.coll(def.name)
          .find(filter, { sort: { _id: 1 }, limit: batchSize })
          .toArray(),
      ),
    ) as unknown as StoredDoc[];
  }

  /**
   * A server without nested arrays (FerretDB) gets each array inside an array wrapped as
   * `{ _pvArray: [...] }`, unwrapped on every read: documents such as dictionary blocks' rows
   * (arrays of arrays) round-trip unchanged. Filters do not reach into a wrapped array.
   */
  private get wrapsNestedArrays(): boolean {
    return this.capabilities.missing.includes('nested arrays');
  }

  private encode<T>(value: T): T {
    return this.wrapsNestedArrays ? (wrapNested(value, false) as T) : value;
  }

  private decode<T>(value: T): T {
    return this.wrapsNestedArrays ? (unwrapNested(value) as T) : value;
  }

  async transaction<R>(fn: (tx: Driver) => Promise<R>): Promise<R> {
    if (this.session) return fn(this);
    if (!this.capabilities.transactions) {
      // A standalone server (or FerretDB) has no multi-document transactions: writes stay guarded
      // by revision compare-and-swap, but a failure midway is not rolled back (store/README.md).
      return fn(this);
    }
    const session = this.connection.getClient().startSession();
    try {
      let result!: R;
      await session.withTransaction(async () => {
        result = await fn(
          new MongoDriver(this.connection, this.db, this.capabilities, session as unknown as ClientSession),
        );
      });
      return result;
    } catch (error) {
      throw translateError(error);
    } finally {
      await session.endSession();
    }
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

/**
 * Asks the server what it is and offers: transactions from `hello` (a replica set or a mongos
 * with sessions), kind and version from `buildInfo` (FerretDB adds its own version there), and
 * every stage, accumulator and query operator the port passes through, each run once on three
 * scratch documents and its answer compared with MongoDB's: a server that accepts a stage but
 * answers it differently (FerretDB's $group on a dotted path, $project expressions) lacks it.
 */
async function probeCapabilities(db: Db): Promise<StoreCapabilities> {
  const [hello, buildInfo] = await guarded(() =>
    Promise.all([db.admin().command({ hello: 1 }), db.admin().command({ buildInfo: 1 })]),
  );
  const ferretdb = typeof buildInfo.ferretdbVersion === 'string' ? buildInfo.ferretdbVersion : undefined;
  const transactions =
    (Boolean(hello.setName) || hello.msg === 'isdbgrid') && hello.logicalSessionTimeoutMinutes != null;
  const scratch = `_probe_${randomUUID().replace(/-/g, '')}`;
  const coll = db.collection(scratch);
  const missing: string[] = [];
  await guarded(() => coll.insertMany(PROBE_DOCS.map((d) => ({ ...d }))));
  try {
    for (const probe of probes(scratch)) {
      let answer: unknown;
      try {
        answer =
          'filter' in probe
            ? await coll.find(probe.filter, probe.sort ? { sort: probe.sort } : {}).toArray()
            : await coll.aggregate(probe.pipeline).toArray();
      } catch (error) {
        // Only the server's own refusal means missing; a lost connection is not an answer.
        if (!(error instanceof mongoose.mongo.MongoServerError)) throw translateError(error);
        missing.push(probe.feature);
        continue;
      }
      if (!probe.check(answer as Document[])) missing.push(probe.feature);
    }
    // Documents MongoDB 5.0 stores that other servers refuse.
    for (const [feature, doc] of DOCUMENT_PROBES) {
      try {
        await coll.insertOne({ ...doc });
      } catch (error) {
        if (!(error instanceof mongoose.mongo.MongoServerError)) throw translateError(error);
        missing.push(feature);
      }
    }
  } finally {
    await coll.drop().catch(() => undefined);
  }
  return {
    backend: 'mongodb',
    serverKind: ferretdb ? 'ferretdb' : 'mongodb',
    serverVersion: ferretdb ?? String(buildInfo.version ?? ''),
    transactions,
    missing: [...new Set(missing)],
  };
}

const PROBE_DOCS: Document[] = [
  {
    _id: 'p1',
    a: { b: 'x' },
    n: 1,
    arr: [1, 2],
    s: 'Abc',
    items: [{ k: 'x', v: 1 }],
    o: [{ p: 5 }, { p: 0 }],
  },
  { _id: 'p2', a: { b: 'x' }, n: 2, arr: [], s: 'b', items: [{ k: 'x', v: 0 }], o: { p: 2 } },
  { _id: 'p3', a: { b: 'y' }, n: 4, arr: [3], s: 'abd', items: [], o: { p: null } },
];

/** Document shapes probed by inserting them; the message pattern recognises the server's refusal. */
const DOCUMENT_PROBES: [string, Document][] = [
  ['nested arrays', { _id: 'q1', x: [[1, 2], 3] }],
  ['dotted field names', { _id: 'q2', x: { 'a.b': 1 } }],
];
const DOCUMENT_REFUSALS: [RegExp, string][] = [
  [/nested arrays/i, 'nested arrays'],
  [/must not contain '\.'/i, 'dotted field names'],
];

type Probe = { feature: string; check: (answer: Document[]) => boolean } & (
  { pipeline: Document[] } | { filter: Document; sort?: Document }
);

/** The same values whatever the order of documents and of keys. */
function same(answer: unknown, expected: unknown, ordered = false): boolean {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  };
  const list = (value: unknown) => {
    const items = (canonical(value) as unknown[]).map((v) => JSON.stringify(v));
    return ordered ? items : items.sort();
  };
  return JSON.stringify(list(answer)) === JSON.stringify(list(expected));
}

const ids = (answer: Document[]) => answer.map((d) => d._id as string).sort();

function probes(scratch: string): Probe[] {
  const [p1, p2, p3] = PROBE_DOCS as [Document, Document, Document];
  const aValues = (answer: Document[]) => answer.map((d) => d.k as string).sort();
  const stages: Probe[] = [
    { feature: '$match', pipeline: [{ $match: { 'a.b': 'x' } }], check: (r) => same(r, [p1, p2]) },
    {
      feature: '$group',
      pipeline: [{ $group: { _id: '$a.b', n: { $sum: '$n' } } }],
      check: (r) =>
        same(r, [
          { _id: 'x', n: 3 },
          { _id: 'y', n: 4 },
        ]),
    },
    {
      feature: '$unwind',
      pipeline: [{ $unwind: '$arr' }],
      check: (r) =>
        same(r, [
          { ...p1, arr: 1 },
          { ...p1, arr: 2 },
          { ...p3, arr: 3 },
        ]),
    },
    { feature: '$sort', pipeline: [{ $sort: { n: -1 } }], check: (r) => same(r, [p3, p2, p1], true) },
    {
      feature: '$project',
      pipeline: [{ $project: { _id: 0, k: '$a.b', n: 1 } }],
      check: (r) =>
        same(r, [
          { k: 'x', n: 1 },
          { k: 'x', n: 2 },
          { k: 'y', n: 4 },
        ]),
    },
    { feature: '$count', pipeline: [{ $count: 'c' }], check: (r) => same(r, [{ c: 3 }]) },
    {
      feature: '$facet',
      pipeline: [{ $facet: { f: [{ $count: 'c' }] } }],
      check: (r) => same(r, [{ f: [{ c: 3 }] }]),
    },
    {
      feature: '$lookup',
      pipeline: [
        { $match: { _id: 'p1' } },
        { $lookup: { from: scratch, localField: 'a.b', foreignField: 'a.b', as: 'j' } },
      ],
      check: (r) => r.length === 1 && ids(r[0]!.j as Document[]).join() === 'p1,p2',
    },
    { feature: '$limit', pipeline: [{ $limit: 2 }], check: (r) => r.length === 2 },
    { feature: '$skip', pipeline: [{ $skip: 2 }], check: (r) => r.length === 1 },
    {
      feature: '$addFields',
      pipeline: [{ $addFields: { k: '$a.b' } }],
      check: (r) => r.length === 3 && aValues(r).join() === 'x,x,y',
    },
    {
      feature: '$set',
      pipeline: [{ $set: { k: '$a.b' } }],
      check: (r) => r.length === 3 && aValues(r).join() === 'x,x,y',
    },
    {
      feature: '$unset',
      pipeline: [{ $unset: 'a' }],
      check: (r) => r.length === 3 && r.every((d) => !('a' in d)),
    },
    {
      feature: '$replaceRoot',
      pipeline: [{ $replaceRoot: { newRoot: '$a' } }],
      check: (r) => same(r, [{ b: 'x' }, { b: 'x' }, { b: 'y' }]),
    },
    {
      feature: '$replaceWith',
      pipeline: [{ $replaceWith: '$a' }],
      check: (r) => same(r, [{ b: 'x' }, { b: 'x' }, { b: 'y' }]),
    },
    {
      feature: '$sortByCount',
      pipeline: [{ $sortByCount: '$a.b' }],
      check: (r) =>
        same(
          r,
          [
            { _id: 'x', count: 2 },
            { _id: 'y', count: 1 },
          ],
          true,
        ),
    },
    {
      feature: '$bucket',
      pipeline: [{ $bucket: { groupBy: '$n', boundaries: [0, 2, 10] } }],
      check: (r) =>
        same(r, [
          { _id: 0, count: 1 },
          { _id: 2, count: 2 },
        ]),
    },
    {
      feature: '$bucketAuto',
      pipeline: [{ $bucketAuto: { groupBy: '$n', buckets: 1 } }],
      check: (r) => same(r, [{ _id: { min: 1, max: 4 }, count: 3 }]),
    },
    {
      feature: '$unionWith',
      pipeline: [{ $unionWith: { coll: scratch, pipeline: [{ $match: { _id: 'p1' } }] } }],
      check: (r) => ids(r).join() === 'p1,p1,p2,p3',
    },
    {
      feature: '$graphLookup',
      pipeline: [
        { $match: { _id: 'p1' } },
        {
          $graphLookup: {
            from: scratch,
            startWith: '$a.b',
            connectFromField: 'a.b',
            connectToField: 'a.b',
            as: 'g',
          },
        },
      ],
      check: (r) => r.length === 1 && ids(r[0]!.g as Document[]).join() === 'p1,p2',
    },
  ];
  const accumulator = (feature: string, check: (v: unknown) => boolean): Probe => ({
    feature,
    pipeline: [{ $sort: { _id: 1 } }, { $group: { _id: null, v: { [feature]: '$n' } } }],
    check: (r) => r.length === 1 && check(r[0]!.v),
  });
  const accumulators: Probe[] = [
    accumulator('$sum', (v) => v === 7),
    accumulator('$avg', (v) => typeof v === 'number' && Math.abs(v - 7 / 3) < 1e-9),
    accumulator('$min', (v) => v === 1),
    accumulator('$max', (v) => v === 4),
    accumulator('$first', (v) => v === 1),
    accumulator('$last', (v) => v === 4),
    accumulator('$push', (v) => same(v, [1, 2, 4], true)),
    accumulator('$addToSet', (v) => same(v, [1, 2, 4])),
  ];
  const query = (feature: string, filter: Document, expected: string): Probe => ({
    feature,
    filter,
    check: (r) => ids(r).join() === expected,
  });
  const operators: Probe[] = [
    query('$expr', { $expr: { $gt: ['$n', 1] } }, 'p2,p3'),
    query('$elemMatch', { items: { $elemMatch: { k: 'x', v: { $gte: 1 } } } }, 'p1'),
    query('$regex', { s: { $regex: '^a', $options: 'i' } }, 'p1,p3'),
    query('$size', { arr: { $size: 0 } }, 'p2'),
    query('$nor', { $nor: [{ n: 1 }] }, 'p2,p3'),
    {
      // MongoDB sorts by the smallest value along the path (null before numbers): p1's is 0.
      feature: 'sort by array paths',
      filter: {},
      sort: { 'o.p': 1, _id: 1 },
      check: (r) => r.map((d) => d._id as string).join() === 'p3,p1,p2',
    },
  ];
  return [...stages, ...accumulators, ...operators];
}

/**
 * `filter` without its `$elemMatch` conditions (a superset of what it matches), or null when one
 * sits where dropping it could narrow the match (under `$not`, `$nor` or another operator's value).
 */
export function widened(filter: Filter): Filter | null {
  const uses = (value: unknown) => operatorsUsed(value).has('$elemMatch');
  const out: Filter = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value)) return null;
      const branches = value.map((branch: Filter) => widened(branch));
      if (branches.includes(null)) return null;
      out[key] = branches;
    } else if (key.startsWith('$') || !uses(value)) {
      if (uses(value)) return null;
      out[key] = value;
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      // A field's operators: $elemMatch dropped, the others kept unless they hold one.
      const rest = Object.entries(value as Record<string, unknown>).filter(([op]) => op !== '$elemMatch');
      if (rest.some(([op, inner]) => !op.startsWith('$') || uses(inner))) return null;
      if (rest.length) out[key] = Object.fromEntries(rest);
    } else return null;
  }
  return out;
}

/** Runs one driver call, turning server and connection failures into store errors. */
/** A driver value as JSON would hold it (64-bit and decimal numbers as numbers). */
function toPlain(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '_bsontype' in value) {
    const type = (value as { _bsontype: string })._bsontype;
    if (type === 'Long' || type === 'Decimal128' || type === 'Double' || type === 'Int32')
      return Number(String(value));
  }
  return value;
}

async function guarded<R>(fn: () => Promise<R>, capabilities?: StoreCapabilities): Promise<R> {
  try {
    return await fn();
  } catch (error) {
    throw translateError(error, capabilities);
  }
}

const NOT_IMPLEMENTED = 238;

/**
 * A lost or unreachable server becomes StoreUnavailableError (a clear message, no driver internals);
 * a server's "not implemented" refusal becomes UnsupportedFeatureError naming the operator.
 */
export function translateError(error: unknown, capabilities?: StoreCapabilities): unknown {
  if (error instanceof StoreError) return error;
  const mongo = mongoose.mongo;
  if (
    error instanceof mongo.MongoNetworkError ||
    error instanceof mongo.MongoServerSelectionError ||
    error instanceof mongo.MongoNotConnectedError ||
    error instanceof mongo.MongoTopologyClosedError ||
    (error instanceof mongo.MongoError && error.hasErrorLabel('ResetPool'))
  ) {
    return new StoreUnavailableError(
      error instanceof mongo.MongoServerSelectionError ? 'no server answered' : 'connection lost',
    );
  }
  if (error instanceof mongo.MongoServerError && capabilities) {
    const refusal = DOCUMENT_REFUSALS.find(
      ([pattern, feature]) => capabilities.missing.includes(feature) && pattern.test(error.message),
    );
    if (refusal) return new UnsupportedFeatureError(refusal[1], describeServer(capabilities));
  }
  if (error instanceof mongo.MongoServerError && error.code === NOT_IMPLEMENTED) {
    const feature = /(\$[A-Za-z]+)/.exec(error.message)?.[1] ?? error.message;
    return new UnsupportedFeatureError(feature, capabilities ? describeServer(capabilities) : 'mongodb');
  }
  return error;
}

const NESTED_ARRAY = '_pvArray';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

function wrapNested(value: unknown, inArray: boolean): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => wrapNested(item, true));
    return inArray ? { [NESTED_ARRAY]: items } : items;
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = wrapNested(item, false);
  return out;
}

function unwrapNested(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapNested);
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === NESTED_ARRAY && Array.isArray(value[NESTED_ARRAY]))
    return (value[NESTED_ARRAY] as unknown[]).map(unwrapNested);
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = unwrapNested(value[key]);
  return out;
}

function ignoreExists(error: unknown): void {
  if ((error as { code?: number }).code !== 48) throw error;
}

function translateDuplicate(error: unknown, def: CollectionDefinition): unknown {
  if ((error as { code?: number }).code === 11000) {
    const match = /index: (\S+)/.exec((error as Error).message);
    return new DuplicateKeyError(def.name, match?.[1] ?? 'unique');
  }
  return error;
}
