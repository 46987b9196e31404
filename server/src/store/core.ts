/**
 * The backend-independent half of the store: tenant walls, store-owned fields, revisions,
 * update operators (mingo's updater, so both backends apply updates identically) and the audit
 * trail. A Driver does the storage-specific half.
 */
import { randomUUID } from 'node:crypto';
import { systemClock } from '../clock';
import type { Clock } from '../clock';
import { update as applyUpdate } from 'mingo';
import type { StoreCapabilities } from './capabilities';
import { diffPaths } from './diff';
import { checkGroupCountSpec } from './group-count';
import type { GroupCount, GroupCountSpec } from './group-count';
import type { PathChange } from './diff';
import { checkQuery, refuseScripts, scopeFilter, scopePipeline } from './guard';
import { InvalidStoreRequestError, RevisionConflictError, StoreError } from './port';
import type {
  Actor,
  Collection,
  CollectionDefinition,
  CountOptions,
  FieldReason,
  Filter,
  FindOptions,
  Handle,
  NewDoc,
  PlatformHandle,
  Pipeline,
  Store,
  StoreAdmin,
  StoreMaintenance,
  StoredDoc,
  TenantHandle,
  Update,
  WriteCounter,
  WriteOptions,
} from './port';

/** tenantId carried by platform-scope documents (and by the audit entries about them). */
export const PLATFORM_TENANT = '_platform';
export const AUDIT_COLLECTION = 'audit';
export const STORE_FIELDS: ReadonlySet<string> = new Set([
  '_id',
  'tenantId',
  'rev',
  'createdAt',
  'createdBy',
  'updatedAt',
  'updatedBy',
]);

export const AUDIT_DEFINITION: CollectionDefinition = {
  name: AUDIT_COLLECTION,
  scope: 'tenant',
  indexes: [
    { name: 'byDocument', fields: { collection: 1, documentId: 1, at: 1 } },
    { name: 'byUser', fields: { userId: 1, at: 1 } },
    { name: 'byTime', fields: { at: 1 } },
  ],
};

export interface AuditEntry {
  _id: string;
  tenantId: string;
  at: string;
  userId: string;
  collection: string;
  documentId: string;
  /** The document's revision after the change (the deleted revision for a delete). */
  documentRev: number;
  operation: 'insert' | 'update' | 'delete';
  changes: PathChange[];
  reason?: string;
  /** Why each field changed, where the writer gave one per field (WriteOptions.fieldReasons). */
  fieldReasons?: FieldReason[];
}

/** The storage-specific half. Filters and pipelines it receives are already scoped and checked. */
export interface Driver {
  readonly backend: 'embedded' | 'mongodb';
  readonly capabilities: StoreCapabilities;
  loadDefinitions(): Promise<CollectionDefinition[]>;
  ensure(definition: CollectionDefinition): Promise<void>;
  find(def: CollectionDefinition, filter: Filter, options?: FindOptions): Promise<StoredDoc[]>;
  count(def: CollectionDefinition, filter: Filter, options?: CountOptions): Promise<number>;
  /** Throws DuplicateKeyError; inserts nothing then. */
  insert(def: CollectionDefinition, docs: StoredDoc[]): Promise<void>;
  /** Replaces the document when its stored rev is still prevRev; false otherwise. */
  replace(def: CollectionDefinition, doc: StoredDoc, prevRev: number): Promise<boolean>;
  remove(def: CollectionDefinition, id: string, prevRev: number): Promise<boolean>;
  /** `pipeline` starts with the tenant $match; joins must resolve only `tenantId`'s documents. */
  aggregate(
    def: CollectionDefinition,
    tenantId: string,
    pipeline: Pipeline,
    joinable: (name: string) => CollectionDefinition,
  ): Promise<unknown[]>;
  /** `filter` is already scoped and checked, `spec` checked. */
  groupCount(def: CollectionDefinition, filter: Filter, spec: GroupCountSpec): Promise<GroupCount[]>;
  scan(def: CollectionDefinition, afterId: string | null, batchSize: number): Promise<StoredDoc[]>;
  transaction<R>(fn: (tx: Driver) => Promise<R>): Promise<R>;
  readonly inTransaction: boolean;
  close(): Promise<void>;
}

const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;
const UPDATE_OPERATORS = new Set([
  '$set',
  '$unset',
  '$push',
  '$pull',
  '$inc',
  '$addToSet',
  '$min',
  '$max',
  '$mul',
  '$pop',
  '$pullAll',
  '$rename',
]);
const CONFLICT_RETRIES = 20;

interface Scope {
  kind: 'tenant' | 'platform';
  tenantId: string;
  actor: Actor;
}

export class CoreStore implements Store, StoreAdmin {
  private readonly definitions = new Map<string, CollectionDefinition>();
  private readonly generations = new Map<string, number>();
  /** writeCounter's counters: by their collections' joined names, and by each collection. */
  private readonly counters = new Map<string, { count: number }>();
  private readonly countersOf = new Map<string, { count: number }[]>();

  /** `clock` stamps createdAt, updatedAt and audit entries (the platform's clock; tests pass theirs). */
  constructor(
    private readonly driver: Driver,
    readonly clock: Clock = systemClock,
  ) {}

  get backend(): 'embedded' | 'mongodb' {
    return this.driver.backend;
  }

  get capabilities(): StoreCapabilities {
    return this.driver.capabilities;
  }

  async init(): Promise<void> {
    await this.driver.ensure(AUDIT_DEFINITION);
    await this.reload();
  }

  /** Reads the declared definitions through `driver`: inside a transaction, its own (the store's would wait for it). */
  private async reload(driver: Driver = this.driver): Promise<void> {
    for (const def of await driver.loadDefinitions()) this.definitions.set(def.name, def);
  }

  async define(definition: CollectionDefinition): Promise<void> {
    if (!NAME_PATTERN.test(definition.name) || definition.name === AUDIT_COLLECTION) {
      throw new InvalidStoreRequestError('invalidCollectionName', { collection: definition.name });
    }
    if (definition.scope !== 'tenant' && definition.scope !== 'platform') {
      throw new InvalidStoreRequestError('invalidCollectionName', { collection: definition.name });
    }
    const paths = [
      ...(definition.indexes ?? []).flatMap((index) => Object.keys(index.fields)),
      // An element path `items[].path`: the least text among an inner array's items (GroupDimension.least);
      // `items{key}.path`: the values by key (GroupDimension.match).
      ...(definition.elements ?? []).flatMap((e) => [
        e.each,
        ...e.paths.flatMap((p) => p.split(/\[\]\.|\{|\}\./)),
      ]),
    ];
    for (const path of paths) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(path)) {
        throw new InvalidStoreRequestError('invalidIndexPath', { collection: definition.name, path });
      }
    }
    await this.driver.ensure(definition);
    this.definitions.set(definition.name, definition);
  }

  /** The definition of `name`, reloading once in case another process declared it. */
  async definition(name: string, driver: Driver = this.driver): Promise<CollectionDefinition> {
    let def = this.definitions.get(name);
    if (!def) {
      await this.reload(driver);
      def = this.definitions.get(name);
    }
    if (!def) throw new InvalidStoreRequestError('unknownCollection', { collection: name });
    return def;
  }

  knownDefinition(name: string): CollectionDefinition | undefined {
    return this.definitions.get(name);
  }

  writeGeneration(collection: string): number {
    return this.generations.get(collection) ?? 0;
  }

  writeCounter(collections: readonly string[]): WriteCounter {
    const names = [...new Set(collections)].sort();
    const key = names.join('\n');
    let counter = this.counters.get(key);
    if (!counter) {
      counter = { count: 0 };
      this.counters.set(key, counter);
      for (const name of names) {
        let list = this.countersOf.get(name);
        if (!list) this.countersOf.set(name, (list = []));
        list.push(counter);
      }
    }
    return counter;
  }

  /** Counts a write to the collection (writeGeneration, writeCounter), before and after it lands. */
  noteWrite(collection: string): void {
    this.generations.set(collection, this.writeGeneration(collection) + 1);
    const counters = this.countersOf.get(collection);
    if (counters) for (const counter of counters) counter.count++;
  }

  tenant(tenantId: string, actor: Actor): TenantHandle {
    if (typeof tenantId !== 'string' || tenantId === '' || tenantId === PLATFORM_TENANT) {
      throw new InvalidStoreRequestError('invalidTenant', { tenantId: String(tenantId) });
    }
    checkActor(actor);
    const handle = new CoreHandle(this, this.driver, { kind: 'tenant', tenantId, actor });
    return Object.assign(handle, { tenantId });
  }

  platform(actor: Actor): PlatformHandle {
    checkActor(actor);
    return new CoreHandle(this, this.driver, { kind: 'platform', tenantId: PLATFORM_TENANT, actor });
  }

  maintenance(): StoreMaintenance {
    const driver = this.driver;
    return {
      definitions: async () => {
        await this.reload();
        return [...this.definitions.values()].sort((a, b) => a.name.localeCompare(b.name));
      },
      scan: (collection, batchSize = 500) => this.scanAll(collection, batchSize),
      restore: async (collection, docs) => {
        const def = await this.definition(collection);
        await driver.transaction((tx) => tx.insert(def, docs));
      },
      countAllTenants: async (collection, filter = {}) => {
        checkQuery(filter);
        return driver.count(await this.definition(collection), filter);
      },
    };
  }

  private async *scanAll(collection: string, batchSize: number): AsyncIterable<StoredDoc> {
    const def = await this.definition(collection);
    let after: string | null = null;
    for (;;) {
      const batch = await this.driver.scan(def, after, batchSize);
      if (batch.length === 0) return;
      yield* batch;
      after = batch[batch.length - 1]!._id;
    }
  }

  close(): Promise<void> {
    return this.driver.close();
  }
}

function checkActor(actor: Actor): void {
  if (!actor || typeof actor.userId !== 'string' || actor.userId === '') {
    throw new InvalidStoreRequestError('invalidActor');
  }
}

class CoreHandle implements Handle {
  constructor(
    private readonly store: CoreStore,
    private readonly driver: Driver,
    private readonly scope: Scope,
  ) {}

  get actor(): Actor {
    return this.scope.actor;
  }

  collection<T extends object = Record<string, unknown>>(name: string): Collection<T> {
    return new CoreCollection(this.store, this.driver, this.scope, name) as unknown as Collection<T>;
  }

  async transaction<R>(fn: (handle: Handle) => Promise<R>): Promise<R> {
    if (this.driver.inTransaction) return fn(this);
    return this.driver.transaction((tx) => {
      const handle = new CoreHandle(this.store, tx, this.scope);
      return fn(
        this.scope.kind === 'tenant' ? Object.assign(handle, { tenantId: this.scope.tenantId }) : handle,
      );
    });
  }
}

class CoreCollection implements Collection<Record<string, unknown>> {
  constructor(
    private readonly store: CoreStore,
    private readonly driver: Driver,
    private readonly scope: Scope,
    private readonly name: string,
  ) {}

  /** The collection's definition, refusing a collection of the other scope. */
  private async def(forWrite: boolean): Promise<CollectionDefinition> {
    const def = await this.store.definition(this.name, this.driver);
    if (def.name === AUDIT_COLLECTION) {
      if (forWrite) throw new InvalidStoreRequestError('auditReadOnly');
      return def;
    }
    if (def.scope !== this.scope.kind) {
      throw new InvalidStoreRequestError('wrongScope', { collection: this.name, scope: def.scope });
    }
    return def;
  }

  private scoped(filter: Filter | undefined): Filter {
    if (filter !== undefined && (filter === null || typeof filter !== 'object' || Array.isArray(filter))) {
      throw new InvalidStoreRequestError('invalidFilter');
    }
    return scopeFilter(this.scope.tenantId, filter);
  }

  async find(filter?: Filter, options: FindOptions = {}): Promise<StoredDoc[]> {
    checkFindOptions(options);
    const def = await this.def(false);
    return this.driver.find(def, this.scoped(filter), options);
  }

  async findOne(filter?: Filter, options: Omit<FindOptions, 'limit'> = {}): Promise<StoredDoc | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async count(filter?: Filter, options: CountOptions = {}): Promise<number> {
    const limit = options.limit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
      throw new InvalidStoreRequestError('invalidOption', { option: 'limit' });
    const def = await this.def(false);
    return this.driver.count(def, this.scoped(filter), options);
  }

  async insertOne(doc: NewDoc): Promise<StoredDoc> {
    const [stored] = await this.insertMany([doc]);
    return stored!;
  }

  async insertMany(docs: NewDoc[]): Promise<StoredDoc[]> {
    const def = await this.def(true);
    if (!Array.isArray(docs)) throw new InvalidStoreRequestError('invalidDocument');
    const now = this.store.clock.now().toISOString();
    const { tenantId, actor } = this.scope;
    const stored = docs.map((doc) => {
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
        throw new InvalidStoreRequestError('invalidDocument');
      checkFieldNames(doc);
      const body: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(doc)) if (!STORE_FIELDS.has(key)) body[key] = value;
      const id = doc._id ?? randomUUID();
      if (typeof id !== 'string' || id === '') throw new InvalidStoreRequestError('invalidId');
      return {
        ...(cloneDocument(body) as object),
        _id: id,
        tenantId,
        rev: 1,
        createdAt: now,
        createdBy: actor.userId,
        updatedAt: now,
        updatedBy: actor.userId,
      } as StoredDoc;
    });
    if (stored.length === 0) return [];
    await this.write(def, async (tx) => {
      await tx.insert(def, stored);
      if (def.audited) {
        await this.audit(
          tx,
          stored.map((doc) => this.entry(def, doc, 'insert', diffPaths({}, doc, STORE_FIELDS), now)),
        );
      }
    });
    return stored;
  }

  async updateOne(filter: Filter, update: Update, options: WriteOptions = {}): Promise<StoredDoc | null> {
    const def = await this.def(true);
    checkUpdate(update);
    const scoped = this.scoped(filter);
    for (let attempt = 0; ; attempt++) {
      const result = await this.write(def, async (tx) => {
        const [current] = await tx.find(def, scoped, { limit: 1, sort: { _id: 1 } });
        if (!current) return { doc: null };
        if (options.expectedRev !== undefined && current.rev !== options.expectedRev) {
          throw new RevisionConflictError(this.name, current._id, options.expectedRev, current.rev);
        }
        return this.applyOne(tx, def, current, update, options);
      });
      if (result.doc !== undefined) return result.doc;
      // The document changed between read and write.
      if (options.expectedRev !== undefined || attempt >= CONFLICT_RETRIES) {
        const actual = await this.driver.find(def, { _id: result.id }, { limit: 1 });
        throw new RevisionConflictError(
          this.name,
          result.id!,
          options.expectedRev ?? result.rev!,
          actual[0]?.rev ?? -1,
        );
      }
    }
  }

  async updateMany(
    filter: Filter,
    update: Update,
    options: Omit<WriteOptions, 'expectedRev'> = {},
  ): Promise<number> {
    const def = await this.def(true);
    checkUpdate(update);
    const scoped = this.scoped(filter);
    return this.write(def, async (tx) => {
      let updated = 0;
      for (const doc of await tx.find(def, scoped, { sort: { _id: 1 } })) {
        let current: StoredDoc | undefined = doc;
        for (let attempt = 0; current && attempt <= CONFLICT_RETRIES; attempt++) {
          const result = await this.applyOne(tx, def, current, update, options);
          if (result.doc !== undefined) {
            if (result.doc && result.doc.rev !== current.rev) updated++;
            break;
          }
          [current] = await tx.find(def, { $and: [scoped, { _id: current._id }] }, { limit: 1 });
        }
      }
      return updated;
    });
  }

  /** Applies the update to one read document. `doc: undefined` means the compare-and-swap lost. */
  private async applyOne(
    tx: Driver,
    def: CollectionDefinition,
    current: StoredDoc,
    update: Update,
    why: Pick<WriteOptions, 'reason' | 'fieldReasons'>,
  ): Promise<{ doc?: StoredDoc | null; id?: string; rev?: number }> {
    const next = cloneDocument(current) as StoredDoc;
    let changed: string[];
    try {
      changed = applyUpdate(next as Record<string, unknown>, update, undefined, undefined, {
        cloneMode: 'deep',
      });
    } catch (error) {
      throw new InvalidStoreRequestError('invalidUpdate', { detail: (error as Error).message });
    }
    if (changed.length === 0) return { doc: current };
    const now = this.store.clock.now().toISOString();
    next.rev = current.rev + 1;
    next.updatedAt = now;
    next.updatedBy = this.scope.actor.userId;
    checkFieldNames(next);
    if (!(await tx.replace(def, next, current.rev))) return { id: current._id, rev: current.rev };
    if (def.audited) {
      await this.audit(tx, [
        this.entry(def, next, 'update', diffPaths(current, next, STORE_FIELDS), now, why),
      ]);
    }
    return { doc: next };
  }

  async deleteOne(filter: Filter, options: WriteOptions = {}): Promise<boolean> {
    const def = await this.def(true);
    const scoped = this.scoped(filter);
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.write(def, async (tx) => {
        const [current] = await tx.find(def, scoped, { limit: 1, sort: { _id: 1 } });
        if (!current) return { deleted: false };
        if (options.expectedRev !== undefined && current.rev !== options.expectedRev) {
          throw new RevisionConflictError(this.name, current._id, options.expectedRev, current.rev);
        }
        if (!(await tx.remove(def, current._id, current.rev))) return { lost: current };
        if (def.audited) {
          const now = this.store.clock.now().toISOString();
          await this.audit(tx, [
            this.entry(def, current, 'delete', diffPaths(current, {}, STORE_FIELDS), now, options),
          ]);
        }
        return { deleted: true };
      });
      if (outcome.deleted !== undefined) return outcome.deleted;
      if (options.expectedRev !== undefined || attempt >= CONFLICT_RETRIES) {
        const [actual] = await this.driver.find(def, { _id: outcome.lost!._id }, { limit: 1 });
        throw new RevisionConflictError(
          this.name,
          outcome.lost!._id,
          options.expectedRev ?? outcome.lost!.rev,
          actual?.rev ?? -1,
        );
      }
    }
  }

  async aggregate<R = Record<string, unknown>>(pipeline: Pipeline): Promise<R[]> {
    const def = await this.def(false);
    if (!Array.isArray(pipeline)) throw new InvalidStoreRequestError('invalidPipeline');
    const joinable = (name: string): CollectionDefinition => {
      const joined = this.store.knownDefinition(name);
      if (!joined) throw new InvalidStoreRequestError('unknownCollection', { collection: name });
      if (joined.name !== AUDIT_COLLECTION && joined.scope !== this.scope.kind) {
        throw new InvalidStoreRequestError('wrongScope', { collection: name, scope: joined.scope });
      }
      return joined;
    };
    const scoped = scopePipeline(
      this.scope.tenantId,
      pipeline,
      (name) => void joinable(name),
      this.driver.backend === 'mongodb',
    );
    return (await this.driver.aggregate(def, this.scope.tenantId, scoped, joinable)) as R[];
  }

  async groupCount(spec: GroupCountSpec): Promise<GroupCount[]> {
    const def = await this.def(false);
    checkGroupCountSpec(spec);
    return this.driver.groupCount(def, this.scoped(spec.filter), spec);
  }

  /**
   * Runs a write in the caller's transaction, or in its own so the audit entry lands with it. The
   * write is counted before (a cache filled meanwhile is not trusted) and after it (nor one filled
   * from what was read before it landed).
   */
  private async write<R>(def: CollectionDefinition, fn: (tx: Driver) => Promise<R>): Promise<R> {
    this.store.noteWrite(def.name);
    try {
      return this.driver.inTransaction ? await fn(this.driver) : await this.driver.transaction(fn);
    } finally {
      this.store.noteWrite(def.name);
    }
  }

  private entry(
    def: CollectionDefinition,
    doc: StoredDoc,
    operation: AuditEntry['operation'],
    changes: PathChange[],
    at: string,
    why: Pick<WriteOptions, 'reason' | 'fieldReasons'> = {},
  ): AuditEntry {
    const entry: AuditEntry = {
      _id: orderedId(),
      tenantId: this.scope.tenantId,
      at,
      userId: this.scope.actor.userId,
      collection: def.name,
      documentId: doc._id,
      documentRev: doc.rev,
      operation,
      changes,
    };
    if (why.reason !== undefined) entry.reason = why.reason;
    if (why.fieldReasons?.length)
      entry.fieldReasons = why.fieldReasons.map(({ pointer, reason }) => ({ pointer, reason }));
    return entry;
  }

  private async audit(tx: Driver, entries: AuditEntry[]): Promise<void> {
    const docs = entries.map(
      (e) =>
        ({
          ...e,
          rev: 1,
          createdAt: e.at,
          createdBy: e.userId,
          updatedAt: e.at,
          updatedBy: e.userId,
        }) as StoredDoc,
    );
    await tx.insert(AUDIT_DEFINITION, docs);
  }
}

/**
 * An id for records read back ordered by their instant, then their id (audit entries, a case's
 * workflow history): ids sort in write order within a process, so records of one millisecond (or
 * of a clock that stands still) keep their order (a random id put an update after the delete that
 * followed it). The random part keeps ids of other processes apart.
 */
let orderedSequence = 0;
export function orderedId(): string {
  orderedSequence += 1;
  return `${orderedSequence.toString(36).padStart(10, '0')}-${randomUUID()}`;
}

function checkFindOptions(options: FindOptions): void {
  for (const key of ['skip', 'limit'] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new InvalidStoreRequestError('invalidOption', { option: key });
    }
  }
  refuseScripts(options.projection);
}

function checkUpdate(update: Update): void {
  if (
    update === null ||
    typeof update !== 'object' ||
    Array.isArray(update) ||
    Object.keys(update).length === 0
  ) {
    throw new InvalidStoreRequestError('invalidUpdate', { detail: 'empty' });
  }
  refuseScripts(update);
  for (const [op, fields] of Object.entries(update)) {
    if (!UPDATE_OPERATORS.has(op)) throw new InvalidStoreRequestError('invalidUpdate', { detail: op });
    if (fields === null || typeof fields !== 'object')
      throw new InvalidStoreRequestError('invalidUpdate', { detail: op });
    for (const [path, value] of Object.entries(fields)) {
      const targets = op === '$rename' ? [path, String(value)] : [path];
      for (const target of targets) {
        if (STORE_FIELDS.has(target.split('.')[0]!))
          throw new InvalidStoreRequestError('storeOwnedField', { field: target });
      }
    }
  }
}

/** MongoDB refuses top-level field names starting with `$`; so do we, on both backends. */
/**
 * A deep copy as structuredClone makes it, several times faster on the plain objects and arrays
 * documents are made of (a bulk insert of 5 KB cases spent a quarter of its time cloning).
 * Anything else (Date, Map, typed arrays; functions, which it refuses) goes to structuredClone,
 * and so do values nested deeper than any document (cycles).
 */
export function cloneDocument(value: unknown, depth = 0): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') return structuredClone(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 100) return structuredClone(value);
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value) && proto === Array.prototype)
    return value.map((item: unknown) => cloneDocument(item, depth + 1));
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = cloneDocument((value as Record<string, unknown>)[key], depth + 1);
    // A `__proto__` key (from JSON.parse) is data: assigning it would replace the copy's prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}

function checkFieldNames(doc: object): void {
  for (const key of Object.keys(doc)) {
    if (key.startsWith('$') || key.includes('\0'))
      throw new InvalidStoreRequestError('invalidFieldName', { field: key });
  }
}

export { StoreError };
