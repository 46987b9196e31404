/**
 * MongoDB backend through mongoose's connection (native driver: schemas add nothing for a
 * schemaless port). Filters and pipelines reach it already scoped and checked by core.ts.
 */
import mongoose from 'mongoose';
import type { ClientSession, Db } from 'mongodb';
import type { Driver } from './core';
import { withIdTiebreak } from './embedded';
import { DuplicateKeyError } from './port';
import type { CollectionDefinition, Filter, FindOptions, Pipeline, StoredDoc } from './port';

const META = '_collections';

interface MetaDoc {
  _id: string;
  definition: CollectionDefinition;
}

type AnyDoc = { _id: string } & Record<string, unknown>;

export class MongoDriver implements Driver {
  readonly backend = 'mongodb' as const;

  private constructor(
    private readonly connection: mongoose.Connection,
    private readonly db: Db,
    private readonly transactions: boolean,
    private readonly session?: ClientSession,
  ) {}

  static async connect(uri: string): Promise<MongoDriver> {
    const connection = mongoose.createConnection(uri);
    await connection.asPromise();
    const db = connection.db as unknown as Db;
    const hello = await db.admin().command({ hello: 1 });
    // Multi-document transactions need a replica set or a sharded cluster.
    const transactions = Boolean(hello.setName) || hello.msg === 'isdbgrid';
    return new MongoDriver(connection, db, transactions);
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
    const rows = await this.db.collection<MetaDoc>(META).find({}, this.opts).toArray();
    return rows.map((r) => r.definition);
  }

  async ensure(def: CollectionDefinition): Promise<void> {
    const existing = await this.db.listCollections({ name: def.name }).toArray();
    if (existing.length === 0) await this.db.createCollection(def.name).catch(ignoreExists);
    const coll = this.coll(def.name);
    await coll.createIndex({ tenantId: 1, _id: 1 }, { name: 'tenant' });
    for (const [i, index] of (def.indexes ?? []).entries()) {
      const keys =
        index.fields.tenantId === undefined ? { tenantId: 1, ...index.fields } : { ...index.fields };
      await coll.createIndex(keys, { name: index.name ?? `i${i}`, unique: index.unique ?? false });
    }
    await this.db
      .collection<MetaDoc>(META)
      .replaceOne({ _id: def.name }, { definition: def }, { upsert: true });
  }

  async find(def: CollectionDefinition, filter: Filter, options: FindOptions = {}): Promise<StoredDoc[]> {
    if (options.limit === 0) return [];
    let cursor = this.coll(def.name).find(filter, { ...this.opts, sort: withIdTiebreak(options.sort) });
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    if (options.projection) cursor = cursor.project(options.projection);
    return (await cursor.toArray()) as unknown as StoredDoc[];
  }

  count(def: CollectionDefinition, filter: Filter): Promise<number> {
    return this.coll(def.name).countDocuments(filter, this.opts);
  }

  async insert(def: CollectionDefinition, docs: StoredDoc[]): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.coll(def.name).insertMany(docs as unknown as AnyDoc[], { ...this.opts, ordered: true });
    } catch (error) {
      throw translateDuplicate(error, def);
    }
  }

  async replace(def: CollectionDefinition, doc: StoredDoc, prevRev: number): Promise<boolean> {
    try {
      const result = await this.coll(def.name).replaceOne(
        { _id: doc._id, tenantId: doc.tenantId, rev: prevRev },
        doc as unknown as AnyDoc,
        this.opts,
      );
      return result.matchedCount === 1;
    } catch (error) {
      throw translateDuplicate(error, def);
    }
  }

  async remove(def: CollectionDefinition, id: string, prevRev: number): Promise<boolean> {
    const result = await this.coll(def.name).deleteOne({ _id: id, rev: prevRev }, this.opts);
    return result.deletedCount === 1;
  }

  async aggregate(def: CollectionDefinition, _tenantId: string, pipeline: Pipeline): Promise<unknown[]> {
    // core.ts has rewritten every join ($lookup, $unionWith, $graphLookup) to the tenant.
    return this.coll(def.name).aggregate(pipeline, this.opts).toArray();
  }

  async scan(def: CollectionDefinition, afterId: string | null, batchSize: number): Promise<StoredDoc[]> {
    const filter: Filter = afterId === null ? {} : { _id: { $gt: afterId } };
    return (await this.coll(def.name)
      .find(filter, { sort: { _id: 1 }, limit: batchSize })
      .toArray()) as unknown as StoredDoc[];
  }

  async transaction<R>(fn: (tx: Driver) => Promise<R>): Promise<R> {
    if (this.session) return fn(this);
    if (!this.transactions) {
      // A standalone server has no multi-document transactions: writes stay guarded by
      // revision compare-and-swap, but a failure midway is not rolled back.
      return fn(this);
    }
    const session = this.connection.getClient().startSession();
    try {
      let result!: R;
      await session.withTransaction(async () => {
        result = await fn(
          new MongoDriver(this.connection, this.db, true, session as unknown as ClientSession),
        );
      });
      return result;
    } finally {
      await session.endSession();
    }
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
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
