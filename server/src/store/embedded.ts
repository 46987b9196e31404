/**
 * Embedded backend: one SQLite file (better-sqlite3, WAL), one table per collection holding the
 * document as JSON beside generated columns for the declared index paths. Filters go to SQL as
 * far as they can (sql-filter.ts) and are then evaluated exactly by mingo.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Aggregator, Query } from 'mingo';
import type { Options as MingoOptions } from 'mingo/types';
import type { StoreCapabilities } from './capabilities';
import type { Driver } from './core';
import { canonicalFold, SQL_FALSE, SQL_TRUE, TEXT_SEPARATOR, translateFilter } from './sql-filter';
import type { PathAccess, SqlPart, SqlWhere } from './sql-filter';
import {
  arrayOfSlot,
  arraysOf,
  elementReadPath,
  elementScalar,
  elementsOf,
  GroupCounter,
  slotOf,
  sortGroups,
} from './group-count';
import type {
  GroupCount,
  GroupCountSpec,
  GroupDimension,
  GroupElementCondition,
  GroupScalar,
} from './group-count';
import { DuplicateKeyError } from './port';
import type {
  CollectionDefinition,
  CountOptions,
  ElementTableDeclaration,
  Filter,
  FindOptions,
  IndexDeclaration,
  Pipeline,
  SortSpec,
  StoredDoc,
} from './port';

type Row = { doc: string };
/**
 * Paths (per collection) seen holding an array or an object are served by the side
 * table (1); paths also seen with arrays inside arrays (2) are not translated to SQL at all.
 */
type Flags = Record<string, 1 | 2>;

interface TableInfo {
  def: CollectionDefinition;
  table: string;
  multiTable: string;
  /** Declared index path -> generated column name. */
  columns: Map<string, string>;
  /** Declared element tables (e_<collection>_<hash>): one row per element, path i in column v<i>. */
  elements: (ElementTableDeclaration & { table: string })[];
  /** Paths of declared text indexes -> their column in the collection's FTS5 table (x_<name>). */
  textColumns: Map<string, string>;
  fts: string;
  /** FTS5 rowid -> document _id. */
  keys: string;
  vocab: string;
}

const REAL_COLUMNS: Record<string, string> = { _id: 't._id', tenantId: 't.tenantId', rev: 't.rev' };

export function mingoOptions(extra: Partial<MingoOptions> = {}): Partial<MingoOptions> {
  return { idKey: '_id', scriptEnabled: false, ...extra };
}

/**
 * The generated column of a path. Its name carries the column layout's version: columns from
 * before booleans were kept as BLOBs (v1) get another name, so the first define rebuilds the table.
 */
function columnName(path: string): string {
  const hash = createHash('sha1').update(`${path}\0boolean-blobs`).digest('hex').slice(0, 6);
  return `g_${path.replace(/\./g, '_').slice(0, 40)}_${hash}`;
}

/** An element table's name carries its layout: another array or paths make another table. */
export function elementTableName(collection: string, e: ElementTableDeclaration): string {
  const hash = createHash('sha1')
    .update(`${e.each}\0${e.paths.join('\0')}`)
    .digest('hex')
    .slice(0, 8);
  return `e_${collection}_${hash}`;
}

/** An element's row: its values at the declared paths, booleans as the side table's BLOBs. */
function elementRows(doc: unknown, e: ElementTableDeclaration): unknown[][] {
  return elementsOf(doc, e.each).map((element) =>
    e.paths.map((path) => {
      const value = elementScalar(element, path);
      return typeof value === 'boolean' ? (value ? SQL_TRUE : SQL_FALSE) : value;
    }),
  );
}

/** A bare FTS5 column name (column filters take barewords). */
function textColumnName(path: string): string {
  return `p_${createHash('sha1').update(path).digest('hex').slice(0, 10)}`;
}

/**
 * Texts are folded by canonicalFold before indexing (as a case-insensitive regex compares them),
 * so the tokenizer must not fold again. Part of the table's layout: another one is rebuilt.
 */
const TEXT_TOKENIZER = 'trigram case_sensitive 1';

/** The text-index rowids each tenant owns (see tenantRowids). */
const TENANT_ROWIDS = 2 ** 32;

/** Trigrams a one- or two-character needle may begin before the index is not worth asking. */
const MAX_PREFIX_TRIGRAMS = 300;

/**
 * Rows a sorted page (`page`) or a capped count (`count`) checks one by one for a substring
 * condition before building the substring index's set of every match (SqlWhere.walk): a needle in
 * most documents (a two-character drug name) is answered within them at a few microseconds a row,
 * where its set of 40,000 matches took 20-30 ms to build before the first row. A count then reads
 * up to `drive` of one substring index's matches in index order (driveCount) when the other
 * conditions hold at least `broad` rows (else most matches would fail them). A count on side-table
 * conditions alone probes each row of the other conditions when the first `count` rows predict the
 * limit within `probe` rows (probeCount). A needle's index matches are counted first (up to
 * `dense`, from the index alone: ~0.1 µs a match): fewer than `drive` are read whole, each row
 * checked for the other conditions (a page sorts them); fewer than `dense` make a set cheaper than a
 * walk that may fail (a needle in 12% of cases, a node and a date range: the first 1,000 rows of
 * the walk held no match and cost 17 ms before the set's 5 ms). Integers (written into the SQL);
 * text-index.test.ts lowers them for a while to reach the set after a walk.
 */
export const WALK_ROWS = {
  page: 1000,
  count: 1500,
  drive: 1500,
  broad: 20_000,
  probe: 40_000,
  dense: 10_000,
  pageBroad: 2000,
};

function jsonPath(path: string): string {
  return (
    '$' +
    path
      .split('.')
      .map((p) => `."${p}"`)
      .join('')
  );
}

/** 0: every value along the path is missing, null, a boolean, a string or a number; 1: one array level or objects; 2: two array levels. */
function pathShape(doc: unknown, parts: string[]): 0 | 1 | 2 {
  let shape: 0 | 1 | 2 = 0;
  const walk = (value: unknown, i: number, inArray: boolean): void => {
    if (Array.isArray(value)) {
      if (inArray) {
        shape = 2;
        return;
      }
      shape = Math.max(shape, 1) as 1 | 2;
      for (const el of value) walk(el, i, true);
      return;
    }
    if (i === parts.length) {
      if (value !== null && typeof value === 'object') shape = Math.max(shape, 1) as 1 | 2;
      return;
    }
    if (value === null || value === undefined || typeof value !== 'object') return;
    walk((value as Record<string, unknown>)[parts[i]!], i + 1, inArray);
  };
  walk(doc, 0, false);
  return shape;
}

/** Scalars reachable along the path with MongoDB's array traversal (one level of arrays per step). */
function multiValues(doc: unknown, parts: string[]): (string | number | Buffer)[] {
  const out: (string | number | Buffer)[] = [];
  const emit = (v: unknown): void => {
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) out.push(v);
    else if (typeof v === 'boolean') out.push(v ? SQL_TRUE : SQL_FALSE);
  };
  const walk = (value: unknown, i: number, inArray: boolean): void => {
    if (i === parts.length) {
      if (Array.isArray(value)) value.forEach(emit);
      else emit(value);
      return;
    }
    if (Array.isArray(value)) {
      if (!inArray) for (const el of value) if (!Array.isArray(el)) walk(el, i, true);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    walk((value as Record<string, unknown>)[parts[i]!], i + 1, false);
  };
  walk(doc, 0, false);
  return [...new Set(out)];
}

/** Serialises async transactions on the one connection: other work waits while one is open. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  async lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    return release;
  }
}

class EmbeddedState {
  readonly tables = new Map<string, TableInfo>();
  readonly mutex = new Mutex();
  /** Documents written since the planner statistics were last refreshed (see refreshStatistics). */
  written = 0;
  /** Bumped by every write of this connection: answers kept for reads (see kept) are from before it. */
  epoch = 0;
  private keptAt = '';
  private readonly keptAnswers = new Map<string, unknown>();
  private dataVersion?: Database.Statement<[], number>;

  /**
   * An answer kept until the data changes (a write here bumps `epoch`, another connection's commit
   * `PRAGMA data_version`): a needle's match count and a short needle's trigrams serve the page and
   * the count of one request.
   */
  kept<T>(key: string, compute: () => T): T {
    this.current();
    if (this.keptAnswers.has(key)) return this.keptAnswers.get(key) as T;
    const answer = compute();
    this.keptAnswers.set(key, answer);
    return answer;
  }

  /** A kept answer if there is one (see kept). */
  keptIf<T>(key: string): T | undefined {
    this.current();
    return this.keptAnswers.get(key) as T | undefined;
  }

  /** Keeps an answer found on the way (see kept). */
  keep(key: string, answer: unknown): void {
    this.current();
    this.keptAnswers.set(key, answer);
  }

  /** Forgets the kept answers when the data changed since they were kept. */
  private current(): void {
    this.dataVersion ??= this.db.prepare<[], number>('PRAGMA data_version').pluck();
    const at = `${this.epoch}:${this.dataVersion.get()}`;
    if (at !== this.keptAt || this.keptAnswers.size > 1000) {
      this.keptAnswers.clear();
      this.keptAt = at;
    }
  }
  private readonly flagStmt;
  private readonly saveFlagsStmt;

  constructor(readonly db: Database.Database) {
    db.exec(
      `CREATE TABLE IF NOT EXISTS _collections (name TEXT PRIMARY KEY, definition TEXT NOT NULL, flags TEXT NOT NULL DEFAULT '{}')`,
    );
    this.flagStmt = db.prepare<[string], { flags: string }>('SELECT flags FROM _collections WHERE name = ?');
    this.saveFlagsStmt = db.prepare('UPDATE _collections SET flags = ? WHERE name = ?');
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** Prepared statements are cached by their SQL text. */
  stmt<P extends unknown[] = unknown[], R = unknown>(sql: string): Database.Statement<P, R> {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt as unknown as Database.Statement<P, R>;
  }

  flags(name: string): Flags {
    const row = this.flagStmt.get(name);
    return row ? (JSON.parse(row.flags) as Flags) : {};
  }

  saveFlags(name: string, flags: Flags): void {
    this.saveFlagsStmt.run(JSON.stringify(flags), name);
  }

  info(def: CollectionDefinition): TableInfo {
    let info = this.tables.get(def.name);
    if (!info || info.def !== def) {
      const columns = new Map<string, string>();
      const textColumns = new Map<string, string>();
      for (const index of def.indexes ?? []) {
        for (const path of Object.keys(index.fields)) {
          if (!(path in REAL_COLUMNS)) columns.set(path, columnName(path));
          if (index.text) textColumns.set(path, textColumnName(path));
        }
      }
      info = {
        def,
        table: `c_${def.name}`,
        multiTable: `m_${def.name}`,
        columns,
        elements: (def.elements ?? []).map((e) => ({ ...e, table: elementTableName(def.name, e) })),
        textColumns: new Map([...textColumns].sort(([a], [b]) => (a < b ? -1 : 1))),
        fts: `x_${def.name}`,
        keys: `k_${def.name}`,
        vocab: `v_${def.name}`,
      };
      this.tables.set(def.name, info);
    }
    return info;
  }
}

/** Inserts between two chances for SQLite to refresh its planner statistics. */
const STATISTICS_EVERY = 1000;

/**
 * Lets SQLite refresh the statistics of tables that grew (PRAGMA optimize: ANALYZE where a table
 * has none or changed size 25-fold). Without them the planner cannot tell a rare value from a
 * common one: a page of the rare 'invalid' tab sorted by date walked the whole date index.
 * Statistics are only an optimisation, and this runs after a commit has succeeded: a failure
 * (a busy file, a full disk) must not turn that write into an error, so it is left for next time.
 */
function refreshStatistics(db: Database.Database): void {
  try {
    db.pragma('optimize = 0x10002');
    // Only the per-index averages (sqlite_stat1), not the samples (sqlite_stat4): SQLite costs an
    // index over generated columns as if it read every row (a generated column counts as using
    // `doc`), so with the samples' true count of one big tenant's rows it preferred reading the
    // whole table (100 ms) to an index that answers a tab count alone (3 ms).
    if (db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat4'`).get()) {
      db.exec('DELETE FROM sqlite_stat4');
      db.exec('ANALYZE sqlite_schema');
    }
  } catch {
    // Next time.
  }
}

/** user_version 1: side tables hold booleans. Files written before are refilled once. */
const SIDE_TABLE_VERSION = 1;

function upgradeSideTables(db: Database.Database): void {
  const current = () => db.pragma('user_version', { simple: true }) as number;
  if (current() >= SIDE_TABLE_VERSION) return;
  db.transaction(() => {
    if (current() >= SIDE_TABLE_VERSION) return;
    const collections = db
      .prepare<[], { name: string; flags: string }>('SELECT name, flags FROM _collections')
      .all();
    for (const { name, flags } of collections) {
      const paths = Object.keys(JSON.parse(flags) as Flags);
      if (paths.length === 0) continue;
      db.exec(`DELETE FROM "m_${name}"`);
      const insert = db.prepare(`INSERT INTO "m_${name}" (_id, tenantId, path, value) VALUES (?, ?, ?, ?)`);
      // In batches: the connection cannot insert while a read is still being iterated.
      const batch = db.prepare<[string], Row>(
        `SELECT doc FROM "c_${name}" WHERE _id > ? ORDER BY _id LIMIT 1000`,
      );
      for (let after = ''; ;) {
        const docs = batch.all(after).map((row) => JSON.parse(row.doc) as StoredDoc);
        if (docs.length === 0) break;
        for (const doc of docs)
          for (const path of paths)
            for (const value of multiValues(doc, path.split('.')))
              insert.run(doc._id, doc.tenantId, path, value);
        after = docs[docs.length - 1]!._id;
      }
    }
    db.pragma(`user_version = ${SIDE_TABLE_VERSION}`);
  }).immediate();
}

/**
 * Switches the file to WAL. Two processes opening a new data directory at once can both try the
 * switch; SQLite answers the loser SQLITE_BUSY without calling the busy handler, so it retries.
 */
function enableWriteAheadLog(db: Database.Database): void {
  const deadline = performance.now() + 10000;
  for (;;) {
    try {
      if (db.pragma('journal_mode', { simple: true }) === 'wal') return;
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code?.startsWith('SQLITE_BUSY') ?? false;
      if (!busy || performance.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}

export class EmbeddedDriver implements Driver {
  readonly backend = 'embedded' as const;

  private known?: StoreCapabilities;

  /** SQLite with mingo: transactions and every stage the port accepts. */
  get capabilities(): StoreCapabilities {
    if (!this.known) {
      const { v } = this.state.db.prepare('SELECT sqlite_version() AS v').get() as { v: string };
      this.known = {
        backend: 'embedded',
        serverKind: 'sqlite',
        serverVersion: v,
        transactions: true,
        missing: [],
      };
    }
    return this.known;
  }

  private constructor(
    private readonly state: EmbeddedState,
    readonly inTransaction: boolean,
  ) {}

  static open(dataDir: string): EmbeddedDriver {
    mkdirSync(dataDir, { recursive: true });
    const db = new Database(join(dataDir, 'store.sqlite'), { timeout: 10000 });
    // 16 KB pages for a new file (ignored for an existing one): a 5 KB case fits in a page with
    // others instead of spilling into an overflow page of its own (fewer pages written per insert).
    db.pragma('page_size = 16384');
    enableWriteAheadLog(db);
    // FULL: each commit is fsynced before it is acknowledged (survives kill -9 and power loss).
    db.pragma('synchronous = FULL');
    // A page cache and memory map large enough that index maintenance and list queries on a
    // few hundred thousand cases do not thrash (SQLite's default cache is 2 MB).
    db.pragma('cache_size = -131072');
    db.pragma('mmap_size = 1073741824');
    db.pragma('temp_store = MEMORY');
    // Checkpoint every 64 MB of log rather than SQLite's 4 MB: a bulk insert of 5 KB documents
    // otherwise checkpoints (and fsyncs the database file) after every batch and copies the same
    // index pages again each time. Each commit is still fsynced to the log before it returns.
    db.pragma('wal_autocheckpoint = 16384');
    db.pragma('foreign_keys = OFF');
    const state = new EmbeddedState(db);
    upgradeSideTables(db);
    refreshStatistics(db);
    return new EmbeddedDriver(state, false);
  }

  private get db(): Database.Database {
    return this.state.db;
  }

  /** Runs a synchronous piece of work, waiting for an open async transaction unless inside it. */
  private async run<R>(fn: () => R): Promise<R> {
    if (this.inTransaction) return fn();
    const release = await this.state.mutex.lock();
    try {
      return fn();
    } finally {
      release();
    }
  }

  async transaction<R>(fn: (tx: Driver) => Promise<R>): Promise<R> {
    if (this.inTransaction) return fn(this);
    const release = await this.state.mutex.lock();
    try {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(new EmbeddedDriver(this.state, true));
        this.db.exec('COMMIT');
        if (this.state.written >= STATISTICS_EVERY) {
          this.state.written = 0;
          refreshStatistics(this.db);
        }
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      // Whatever the transaction wrote or rolled back (define's rebuilds too): kept answers go.
      this.state.epoch++;
      release();
    }
  }

  /** A read-only snapshot: flags and query see the same state even with other writers. */
  private read<R>(fn: () => R): Promise<R> {
    return this.run(() => (this.db.inTransaction ? fn() : this.db.transaction(fn).deferred()));
  }

  async loadDefinitions(): Promise<CollectionDefinition[]> {
    return this.run(() =>
      this.db
        .prepare<[], { definition: string }>('SELECT definition FROM _collections')
        .all()
        .map((r) => JSON.parse(r.definition) as CollectionDefinition),
    );
  }

  async ensure(def: CollectionDefinition): Promise<void> {
    await this.transaction(async () => {
      const info = this.state.info(def);
      const { table, multiTable } = info;
      const existing = this.state
        .stmt<[], { name: string; hidden: number }>(`SELECT name, hidden FROM pragma_table_xinfo('${table}')`)
        .all();
      const stored = new Set(existing.filter((c) => c.hidden === 3).map((c) => c.name));
      const names = new Set(existing.map((c) => c.name));
      const added = [...info.columns.values()].some((column) => !names.has(column));
      if (existing.length === 0) this.db.exec(tableSql(table, info.columns));
      else if ([...info.columns.values()].some((column) => !stored.has(column))) {
        // A new index path, or a table from before stored columns: rebuild it (indexes follow below).
        this.db.exec(tableSql(`${table}__rebuild`, info.columns));
        this.db.exec(
          // Row ids kept: the text index refers to them.
          `INSERT INTO "${table}__rebuild" (rowid, _id, tenantId, rev, doc) SELECT rowid, _id, tenantId, rev, doc FROM "${table}"`,
        );
        this.db.exec(`DROP TABLE "${table}"`);
        this.db.exec(`ALTER TABLE "${table}__rebuild" RENAME TO "${table}"`);
        this.recomputeFlags(info);
      }
      this.db.exec(`CREATE INDEX IF NOT EXISTS "${table}__tenant" ON "${table}" (tenantId, _id)`);
      this.db.exec(
        `CREATE TABLE IF NOT EXISTS "${multiTable}" (_id TEXT NOT NULL, tenantId TEXT NOT NULL, path TEXT NOT NULL, value)`,
      );
      this.db.exec(`CREATE INDEX IF NOT EXISTS "${multiTable}__doc" ON "${multiTable}" (_id, path, value)`);
      // Finds the documents holding a value along an array path (sql-filter's side-table condition).
      this.db.exec(`CREATE INDEX IF NOT EXISTS "${multiTable}__value" ON "${multiTable}" (path, value, _id)`);
      const flags = this.state.flags(def.name);
      const wanted = new Map<string, string>();
      for (const [i, index] of (def.indexes ?? []).entries()) {
        const name = indexName(info, i);
        if (index.text || servedBySideTable(index, flags)) continue;
        const cols = Object.entries(index.fields).map(([path, dir]) => {
          const column = REAL_COLUMNS[path]?.replace('t.', '') ?? info.columns.get(path)!;
          return `"${column}" ${dir === -1 ? 'DESC' : 'ASC'}`;
        });
        // Tenant first (every query is tenant-scoped), _id last (the tiebreak of every pushed sort).
        const leading = index.fields.tenantId === undefined ? ['tenantId', ...cols] : cols;
        if (index.fields._id === undefined && !index.unique) leading.push('_id');
        wanted.set(
          name,
          `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX "${name}" ON "${table}" (${leading.join(', ')})`,
        );
      }
      this.reconcileIndexes(table, wanted);
      this.db
        .prepare(
          `INSERT INTO _collections (name, definition) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET definition = excluded.definition`,
        )
        .run(def.name, JSON.stringify(def));
      // Paths added by a redeclaration may already hold arrays in stored documents.
      if (added) this.refreshFlags(info, this.state.stmt<[], Row>(`SELECT doc FROM "${table}"`).all());
      this.ensureTextIndex(info);
      this.ensureElementTables(info);
    });
  }

  /**
   * The table's declared indexes as declared now: one whose definition changed under the same name
   * is made again (SQLite keeps a CREATE statement's text, without IF NOT EXISTS, as it was run),
   * one no longer declared is dropped (it would only cost every write), a missing one is made.
   */
  private reconcileIndexes(table: string, wanted: Map<string, string>): void {
    const kept = new Set([`${table}__tenant`]);
    const present = this.db
      .prepare<[string], { name: string; sql: string }>(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`,
      )
      .all(table);
    for (const { name, sql } of present)
      if (!kept.has(name) && wanted.get(name) !== sql) this.db.exec(`DROP INDEX "${name}"`);
    const made = new Set(present.filter(({ name, sql }) => wanted.get(name) === sql).map((p) => p.name));
    for (const [name, sql] of wanted) if (!made.has(name)) this.db.exec(sql);
  }

  /**
   * The declared element tables, each filled from every stored document when first made; tables
   * of an earlier declaration are dropped. Indexed by document then the values, so a grouped
   * count joins a document's elements from index entries alone.
   */
  private ensureElementTables(info: TableInfo): void {
    const wanted = new Set(info.elements.map((e) => e.table));
    const existing = this.db
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'e!_%' ESCAPE '!'`,
      )
      .all()
      .map((r) => r.name)
      .filter((name) => /^e_.+_[0-9a-f]{8}$/.test(name) && name.slice(2, -9) === info.def.name);
    for (const name of existing) if (!wanted.has(name)) this.db.exec(`DROP TABLE "${name}"`);
    for (const e of info.elements) {
      if (existing.includes(e.table)) continue;
      const values = e.paths.map((_, i) => `v${i}`);
      this.db.exec(
        `CREATE TABLE "${e.table}" (_id TEXT NOT NULL, tenantId TEXT NOT NULL${values.map((v) => `, ${v}`).join('')})`,
      );
      this.db.exec(`CREATE INDEX "${e.table}__doc" ON "${e.table}" (_id, ${values.join(', ')})`);
      const batch = this.db.prepare<[string], Row>(
        `SELECT doc FROM "${info.table}" WHERE _id > ? ORDER BY _id LIMIT 1000`,
      );
      for (let after = ''; ;) {
        const docs = batch.all(after).map((row) => JSON.parse(row.doc) as StoredDoc);
        if (docs.length === 0) break;
        for (const doc of docs) this.writeElements(info, doc, [e]);
        after = docs[docs.length - 1]!._id;
      }
    }
  }

  private writeElements(info: TableInfo, doc: StoredDoc, tables = info.elements): void {
    for (const e of tables) {
      const rows = elementRows(doc, e);
      if (rows.length === 0) continue;
      const stmt = this.state.stmt(`INSERT INTO "${e.table}" VALUES (?, ?${', ?'.repeat(e.paths.length)})`);
      for (const row of rows) stmt.run(doc._id, doc.tenantId, ...row);
    }
  }

  private removeElements(info: TableInfo, id: string): void {
    for (const e of info.elements) this.state.stmt(`DELETE FROM "${e.table}" WHERE _id = ?`).run(id);
  }

  /**
   * The collection's substring index: an FTS5 trigram table (contentless, one row per document,
   * one column per text-indexed path) and its key table. Built again from every document when
   * the set of indexed paths changed; dropped when none is declared.
   */
  private ensureTextIndex(info: TableInfo): void {
    const wanted = [...info.textColumns.values()];
    if (wanted.length)
      this.db.exec(
        `CREATE TABLE IF NOT EXISTS _text_slots (tenantId TEXT PRIMARY KEY, slot INTEGER NOT NULL UNIQUE)`,
      );
    const present = this.state
      .stmt<[], { name: string; hidden: number }>(
        `SELECT name, hidden FROM pragma_table_xinfo('${info.fts}')`,
      )
      .all()
      .filter((c) => c.hidden === 0)
      .map((c) => c.name);
    const layout = (name: string) =>
      this.state.stmt<[string], { sql: string }>(`SELECT sql FROM sqlite_master WHERE name = ?`).get(name)
        ?.sql ?? '';
    if (
      present.join() === wanted.join() &&
      (wanted.length === 0 ||
        (layout(info.fts).includes(TEXT_TOKENIZER) &&
          layout(info.keys).includes('trow') &&
          this.textRowsValid(info)))
    )
      return;
    this.db.exec(`DROP TABLE IF EXISTS "${info.vocab}"`);
    this.db.exec(`DROP TABLE IF EXISTS "${info.fts}"`);
    this.db.exec(`DROP TABLE IF EXISTS "${info.keys}"`);
    if (wanted.length === 0) return;
    this.db.exec(
      `CREATE TABLE "${info.keys}" (rowid INTEGER PRIMARY KEY, _id TEXT NOT NULL UNIQUE, tenantId TEXT NOT NULL, trow INTEGER NOT NULL)`,
    );
    this.db.exec(
      `CREATE VIRTUAL TABLE "${info.fts}" USING fts5(${wanted.join(', ')}, content='', contentless_delete=1, tokenize='${TEXT_TOKENIZER}')`,
    );
    this.db.exec(`CREATE VIRTUAL TABLE "${info.vocab}" USING fts5vocab("${info.fts}", 'row')`);
    const batch = this.db.prepare<[number], { rowid: number; doc: string }>(
      `SELECT rowid, doc FROM "${info.table}" WHERE rowid > ? ORDER BY rowid LIMIT 1000`,
    );
    for (let after = -Infinity; ;) {
      const rows = batch.all(after);
      if (rows.length === 0) break;
      for (const row of rows) this.writeText(info, JSON.parse(row.doc) as StoredDoc, row.rowid);
      after = rows[rows.length - 1]!.rowid;
    }
  }

  /**
   * The text index names documents by their table row ids (`trow`), which only a VACUUM of a file
   * with deleted rows would renumber (nothing here runs one; an operator might). The 200 highest
   * row ids, those a renumbering moves, are checked on every define; a mismatch rebuilds the index.
   */
  private textRowsValid(info: TableInfo): boolean {
    const moved = this.db
      .prepare<[], { n: number }>(
        `SELECT count(*) AS n FROM (SELECT _id, trow FROM "${info.keys}" ORDER BY trow DESC LIMIT 200) k LEFT JOIN "${info.table}" t ON t._id = k._id WHERE t.rowid IS NOT k.trow`,
      )
      .get()!.n;
    const rows = this.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM "${info.table}"`).get()!.n;
    const keys = this.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM "${info.keys}"`).get()!.n;
    return moved === 0 && rows === keys;
  }

  /**
   * Flags every index path afresh from the stored documents (after a rebuild: paths flagged only
   * for booleans, which columns now hold, return to their column) and drops the side-table rows
   * of paths no longer flagged. Flags can only have shrunk, so flagged paths keep their rows.
   */
  private recomputeFlags(info: TableInfo): void {
    const flags: Flags = {};
    // Only paths flagged before, whose side-table rows exist: a path declared by this define is
    // flagged by refreshFlags after the rebuild, which also writes its rows.
    const before = this.state.flags(info.def.name);
    const paths = [...info.columns.keys()]
      .filter((path) => before[path])
      .map((path) => ({ path, parts: path.split('.') }));
    const batch = this.db.prepare<[string], Row>(
      `SELECT doc FROM "${info.table}" WHERE _id > ? ORDER BY _id LIMIT 1000`,
    );
    for (let after = ''; ;) {
      const rows = batch.all(after);
      if (rows.length === 0) break;
      for (const row of rows) {
        const doc = JSON.parse(row.doc) as StoredDoc;
        for (const { path, parts } of paths) {
          const shape = pathShape(doc, parts);
          if (shape > (flags[path] ?? 0)) flags[path] = shape as 1 | 2;
        }
        after = doc._id;
      }
    }
    this.state.saveFlags(info.def.name, flags);
    const kept = Object.keys(flags);
    if (this.db.prepare(`SELECT 1 FROM sqlite_master WHERE name = ?`).get(info.multiTable))
      this.db
        .prepare(`DELETE FROM "${info.multiTable}" WHERE path NOT IN (${kept.map(() => '?').join(', ')})`)
        .run(...kept);
  }

  /**
   * The text-index rowids of a tenant: each tenant has its own range of 2^32 (a slot numbered on
   * its first indexed document), so a query asks FTS5 for its own tenant's rows only and never
   * looks up another tenant's matches. Undefined: the tenant has no slot yet.
   */
  private tenantRowids(tenantId: string, create: boolean): [number, number] | undefined {
    let row = this.state
      .stmt<[string], { slot: number }>(`SELECT slot FROM _text_slots WHERE tenantId = ?`)
      .get(tenantId);
    if (!row && create)
      row = this.state
        .stmt<[string], { slot: number }>(
          `INSERT INTO _text_slots (tenantId, slot) SELECT ?, coalesce(max(slot), 0) + 1 FROM _text_slots RETURNING slot`,
        )
        .get(tenantId)!;
    return row ? [row.slot * TENANT_ROWIDS, (row.slot + 1) * TENANT_ROWIDS] : undefined;
  }

  /** Indexes a document's texts along the text-indexed paths (nothing when none is declared). */
  private writeText(info: TableInfo, doc: StoredDoc, trow?: number): void {
    if (info.textColumns.size === 0) return;
    const row =
      trow ??
      this.state
        .stmt<[string], { rowid: number }>(`SELECT rowid FROM "${info.table}" WHERE _id = ?`)
        .get(doc._id)!.rowid;
    const [low, high] = this.tenantRowids(doc.tenantId, true)!;
    const { rowid } = this.state
      .stmt<[number, string, string, number, number, number], { rowid: number }>(
        `INSERT INTO "${info.keys}" (rowid, _id, tenantId, trow) SELECT coalesce(max(rowid) + 1, ?), ?, ?, ? FROM "${info.keys}" WHERE rowid >= ? AND rowid < ? RETURNING rowid`,
      )
      .get(low, doc._id, doc.tenantId, row, low, high)!;
    const values = [...info.textColumns.keys()].map((path) =>
      multiValues(doc, path.split('.'))
        .filter((value): value is string => typeof value === 'string')
        // NUL may end a text for the tokenizer and lone surrogates become U+FFFD in UTF-8: both
        // become separators (no needle holding one is narrowed, no needle spans one).
        .map(
          (value) =>
            canonicalFold(value.replace(/\p{Cs}|\0/gu, TEXT_SEPARATOR)) + TEXT_SEPARATOR + TEXT_SEPARATOR,
        )
        .join(''),
    );
    const columns = [...info.textColumns.values()];
    this.state
      .stmt(
        `INSERT INTO "${info.fts}" (rowid, ${columns.join(', ')}) VALUES (?${', ?'.repeat(columns.length)})`,
      )
      .run(rowid, ...values);
  }

  private removeText(info: TableInfo, id: string): void {
    if (info.textColumns.size === 0) return;
    const row = this.state
      .stmt<[string], { rowid: number }>(`DELETE FROM "${info.keys}" WHERE _id = ? RETURNING rowid`)
      .get(id);
    if (row) this.state.stmt(`DELETE FROM "${info.fts}" WHERE rowid = ?`).run(row.rowid);
  }

  private resolver(
    info: TableInfo,
    flags: Flags,
    tenantId?: string,
  ): (path: string) => PathAccess | undefined {
    // A tenant without a slot has no indexed document: an empty range.
    const rowids =
      tenantId === undefined || info.textColumns.size === 0
        ? undefined
        : (this.tenantRowids(tenantId, false) ?? ([0, 0] as [number, number]));
    return (path) => {
      if (path in REAL_COLUMNS) return { kind: 'column', sql: REAL_COLUMNS[path]! };
      const column = info.columns.get(path);
      if (!column) return undefined;
      // Arrays within arrays: mingo's matching there is not what the side table holds, so leave it to mingo.
      if (flags[path] === 2) return undefined;
      const textColumn = info.textColumns.get(path);
      const text = textColumn
        ? {
            fts: info.fts,
            keys: info.keys,
            column: textColumn,
            rowids,
            trigrams: (prefix: string) => this.trigrams(info, prefix),
          }
        : undefined;
      if (flags[path] === 1) return { kind: 'multi', table: info.multiTable, path, text };
      return { kind: 'column', sql: `t."${column}"`, text };
    };
  }

  /** Indexed trigrams starting with `prefix` (any column), or undefined past MAX_PREFIX_TRIGRAMS. */
  private trigrams(info: TableInfo, prefix: string): string[] | undefined {
    const points = [...prefix].map((ch) => ch.codePointAt(0)!);
    const last = points.pop()!;
    const upper = String.fromCodePoint(...points, last === 0xd7ff ? 0xe000 : last + 1);
    const sql = `SELECT term FROM "${info.vocab}" WHERE term >= ? AND term < ? LIMIT ?`;
    // Each path of a filter over several (drug and WHODrug names) and the page and the count ask.
    const terms = this.state.kept(`${sql}\0${prefix}`, () =>
      this.state
        .stmt<[string, string, number], { term: string }>(sql)
        .all(prefix, upper, MAX_PREFIX_TRIGRAMS + 1)
        .map((row) => row.term),
    );
    return terms.length > MAX_PREFIX_TRIGRAMS ? undefined : terms;
  }

  private where(info: TableInfo, filter: Filter): { where: SqlWhere; flags: Flags } {
    const flags = this.state.flags(info.def.name);
    return { where: translateFilter(filter, this.resolver(info, flags, scopedTenant(filter))), flags };
  }

  /** The SQL ORDER BY for a sort, or undefined when SQLite's order could differ from MongoDB's. */
  private orderBy(info: TableInfo, flags: Flags, sort: SortSpec): string | undefined {
    const terms: string[] = [];
    for (const [path, dir] of Object.entries(sort)) {
      const access = this.resolver(info, flags)(path);
      if (!access || access.kind !== 'column') return undefined;
      terms.push(`${access.sql} ${dir === -1 ? 'DESC' : 'ASC'}`);
    }
    return terms.join(', ');
  }

  private selectDocs(info: TableInfo, filter: Filter, options: FindOptions): StoredDoc[] {
    const { where, flags } = this.where(info, filter);
    const sort = withIdTiebreak(options.sort);
    const order = where.exact ? this.orderBy(info, flags, sort) : undefined;
    const fields = order ? readFields(filter, sort, options.projection) : undefined;
    // Ids alone (a first pass over candidates) come from the id column: the document is not read.
    const idsOnly = order !== undefined && onlyIds(options.projection);
    const select = idsOnly
      ? 't._id AS f0'
      : fields
        ? fields.map((f, i) => fieldSelect(info, flags, f, i)).join(', ')
        : 't.doc';
    let sql = `SELECT ${select} FROM "${info.table}" t WHERE ${where.sql}`;
    const params = [...where.params];
    // Without a pushed order, rows reach mingo in _id order so its sort is deterministic even on mixed types.
    sql += ` ORDER BY ${order ?? 't._id'}`;
    let walked: Record<string, string | null>[] | undefined;
    // The page's ids from a covering index's entries, sorted, rather than the sort's index in order.
    let from = `"${info.table}" t`;
    if (order && options.limit !== undefined && where.walk) {
      const walk = where.walk;
      const page = { limit: options.limit, skip: options.skip ?? 0 };
      // Few matches: all of them, sorted. Other conditions in many rows, few, or a needle in many:
      // a walk. Else the set, probed while reading a covering index's entries and the matches
      // sorted: the sort's index read in order took each row, and a walk checking each may fail
      // (a node and a date range: 18,000 rows in the range, none of the walk's first 1,000 held
      // the needle).
      if (walk.drive && this.matchCount(walk, WALK_ROWS.drive) < WALK_ROWS.drive)
        walked = this.drivePage(info, walk, select, order, page);
      else if (
        this.restRows(info, walk.rest) >= WALK_ROWS.broad ||
        this.restRows(info, walk.rest) < WALK_ROWS.page ||
        this.matchCount(walk, WALK_ROWS.dense) >= WALK_ROWS.dense
      )
        walked = this.walkPage(info, walk, select, order, page);
      else {
        const index = this.coveringIndex(info, where.sql);
        if (index) walked = this.coveredPage(info, where, index, select, order, page);
      }
    } else if (order && options.limit !== undefined) from = this.pageSource(info, flags, where, sort) ?? from;
    if (order && options.limit !== undefined) {
      // A page: its ids first, sorted on index entries alone, then only its rows are read. SQLite
      // otherwise sorts whole result rows, reading (and extracting from) every match: the first
      // page of a 44,000-case tab took 160 ms. Literal (validated integer) bounds let SQLite plan
      // for the page size.
      sql =
        `SELECT ${select} FROM "${info.table}" t WHERE t._id IN (SELECT t._id FROM ${from} WHERE ${where.sql}` +
        ` ORDER BY ${order} LIMIT ${options.limit} OFFSET ${options.skip ?? 0}) ORDER BY ${order}`;
    } else if (order && options.skip) sql += ` LIMIT -1 OFFSET ${options.skip}`;
    const rows = walked ?? this.state.stmt<unknown[], Record<string, string | null>>(sql).all(...params);
    if (idsOnly) return rows.map((r) => ({ _id: r.f0 }) as StoredDoc);
    const docs = fields
      ? rows.map((r) => partialDoc(fields, r))
      : rows.map((r) => JSON.parse(r.doc!) as StoredDoc);
    // Top-level fields read as asked: picked here, mingo's projection costs more than the read.
    const top = fields && order ? topLevelInclusion(options.projection) : undefined;
    if (top) return docs.map((doc) => pick(doc, top));
    // Exact SQL returned exactly the matches: mingo only projects (and sorts when SQL could not).
    let cursor = new Query(where.exact ? {} : filter, mingoOptions()).find<StoredDoc>(
      docs,
      options.projection,
    );
    if (!order) {
      cursor = cursor.sort(sort);
      if (options.skip) cursor = cursor.skip(options.skip);
      if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    }
    return cursor.all();
  }

  find(def: CollectionDefinition, filter: Filter, options: FindOptions = {}): Promise<StoredDoc[]> {
    if (options.limit === 0) return Promise.resolve([]);
    return this.read(() => this.selectDocs(this.state.info(def), filter, options));
  }

  /**
   * A sorted page from a covering index's entries, every match sorted: their number, counted on the
   * way, is kept for the list's count of the same filter (matchesKey), which needs no second pass.
   */
  private coveredPage(
    info: TableInfo,
    where: SqlWhere,
    index: string,
    select: string,
    order: string,
    page: { limit: number; skip: number },
  ): Record<string, string | null>[] {
    const ids = this.state
      .stmt<unknown[], { id: string; n: number }>(
        `SELECT t._id AS id, COUNT(*) OVER () AS n FROM "${info.table}" t INDEXED BY "${index}" WHERE ${where.sql}` +
          ` ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.skip}`,
      )
      .all(...where.params);
    if (ids.length || page.skip === 0) this.state.keep(matchesKey(where), ids[0]?.n ?? 0);
    if (ids.length === 0) return [];
    return this.state
      .stmt<[string], Record<string, string | null>>(
        `SELECT ${select} FROM "${info.table}" t WHERE t._id IN (SELECT value FROM json_each(?)) ORDER BY ${order}`,
      )
      .all(JSON.stringify(ids.map((row) => row.id)));
  }

  /**
   * Where a sorted page of a filter without substring conditions reads its ids: a filter a covering
   * index answers that matches WALK_ROWS.pageBroad rows or more walks the sort's own index in order
   * (the page is within its first few hundred rows). SQLite's choice there is unreliable: it costs
   * indexes over generated columns as if each entry read its row, and after an index on validity
   * and project was declared it read every row of the tenant through it to sort them (a tab's
   * first page: 100 ms instead of 0.2). undefined: SQLite chooses (a narrow filter).
   */
  private pageSource(info: TableInfo, flags: Flags, where: SqlWhere, sort: SortSpec): string | undefined {
    const [first] = Object.keys(sort);
    if (first === undefined || first === '_id' || !this.coveringIndex(info, where.sql)) return undefined;
    const rows = this.state.kept(
      `page\0${WALK_ROWS.pageBroad}\0${where.sql}\0${JSON.stringify(where.params)}`,
      () => this.countUpTo(info, where, WALK_ROWS.pageBroad),
    );
    if (rows < WALK_ROWS.pageBroad) return undefined;
    let best: { name: string; width: number } | undefined;
    for (const [i, index] of (info.def.indexes ?? []).entries()) {
      const paths = Object.keys(index.fields).filter((path) => path !== 'tenantId');
      if (index.text || paths[0] !== first || servedBySideTable(index, flags)) continue;
      if (!best || paths.length < best.width) best = { name: indexName(info, i), width: paths.length };
    }
    return best && `"${info.table}" t INDEXED BY "${best.name}"`;
  }

  /**
   * How many index matches the walk's drive has, counting no further than `cap` (read from the
   * substring index alone, and kept until the data changes: a list asks its page and its count of
   * one filter). `cap` when the walk has no drive.
   */
  private matchCount(walk: NonNullable<SqlWhere['walk']>, cap: number): number {
    const { matches } = walk;
    if (!walk.drive || !matches) return cap;
    const sql = `SELECT COUNT(*) AS n FROM (${matches.sql} LIMIT ${cap})`;
    return this.state.kept(
      `${sql}\0${JSON.stringify(matches.params)}`,
      () => this.state.stmt<unknown[], { n: number }>(sql).get(...matches.params)!.n,
    );
  }

  /** The rows of a walk's other conditions, counted no further than WALK_ROWS.broad (kept as matchCount). */
  private restRows(info: TableInfo, rest: SqlPart): number {
    const rows = Math.max(WALK_ROWS.count, WALK_ROWS.broad);
    return this.state.kept(`rest\0${rows}\0${rest.sql}\0${JSON.stringify(rest.params)}`, () =>
      this.countUpTo(info, rest, rows),
    );
  }

  /**
   * A sorted page from every row of the walk's drive (fewer than WALK_ROWS.drive), each checked for
   * the other conditions, sorted: exact.
   */
  private drivePage(
    info: TableInfo,
    walk: NonNullable<SqlWhere['walk']>,
    select: string,
    order: string,
    page: { limit: number; skip: number },
  ): Record<string, string | null>[] {
    const drive = walk.drive!;
    const others = walk.others ?? walk.check;
    return this.state
      .stmt<unknown[], Record<string, string | null>>(
        `SELECT ${select} FROM "${info.table}" t WHERE t._id IN (SELECT t._id FROM (${drive.sql}) s` +
          ` CROSS JOIN "${info.table}" t ON t.rowid = s.r WHERE (${walk.rest.sql}) AND (${others.sql})` +
          ` ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.skip}) ORDER BY ${order}`,
      )
      .all(...drive.params, ...walk.rest.params, ...others.params);
  }

  /**
   * A sorted page from the first WALK_ROWS.page rows of the walk's other conditions in order, each
   * checked for the substring conditions; undefined when those rows hold too few matches and more
   * rows remain (the substring index's set answers then).
   */
  private walkPage(
    info: TableInfo,
    walk: { rest: SqlPart; check: SqlPart },
    select: string,
    order: string,
    page: { limit: number; skip: number },
  ): Record<string, string | null>[] | undefined {
    // The walk hands on its sort values, so SQLite keeps its order and stops at the page's last
    // match (sorting after the join read every walked row: 7 ms instead of 0.5 for a common needle).
    const terms = order.split(', ').map((term) => /^(.+) (ASC|DESC)$/.exec(term)!);
    const values = terms.map(([, value], i) => `${value} AS o${i}`).join(', ');
    const walked = terms.map(([, , direction], i) => `w.o${i} ${direction}`).join(', ');
    const first = `SELECT t.rowid AS r, t._id AS id, ${values} FROM "${info.table}" t WHERE ${walk.rest.sql} ORDER BY ${order} LIMIT ${WALK_ROWS.page}`;
    const found = this.state
      .stmt<unknown[], Record<string, string | null>>(
        `SELECT ${select} FROM "${info.table}" t WHERE t._id IN (SELECT w.id FROM (${first}) w` +
          ` JOIN "${info.table}" t ON t.rowid = w.r WHERE ${walk.check.sql} ORDER BY ${walked}` +
          ` LIMIT ${page.limit} OFFSET ${page.skip}) ORDER BY ${order}`,
      )
      .all(...walk.rest.params, ...walk.check.params);
    return found.length === page.limit || this.walkCovers(info, walk.rest, WALK_ROWS.page)
      ? found
      : undefined;
  }

  /**
   * A capped count without the substring index's whole set where a cheaper plan answers: a needle's
   * few matches read whole (driveCount); other conditions holding fewer than WALK_ROWS.count rows
   * walked whole; for broad other conditions, one needle's first matches in index order; for a
   * needle in more than WALK_ROWS.dense documents, the first WALK_ROWS.count rows of the other
   * conditions, each checked. undefined: the set answers.
   */
  private walkCount(info: TableInfo, walk: NonNullable<SqlWhere['walk']>, limit: number): number | undefined {
    const index = this.coveringIndex(info, walk.rest.sql);
    const from = index ? `"${info.table}" t INDEXED BY "${index}"` : `"${info.table}" t`;
    if (walk.probe && !walk.drive) return this.probeCount(from, walk.rest, walk.probe, limit);
    if (walk.drive && this.matchCount(walk, WALK_ROWS.drive) < WALK_ROWS.drive)
      return this.driveCount(info, walk, walk.drive, limit);
    const restRows = this.restRows(info, walk.rest);
    if (walk.drive && restRows >= WALK_ROWS.broad) {
      const driven = this.driveCount(info, walk, walk.drive, limit);
      if (driven !== undefined) return driven;
    } else if (restRows >= WALK_ROWS.count && this.matchCount(walk, WALK_ROWS.dense) < WALK_ROWS.dense)
      // Other conditions in a few thousand rows and a needle in fewer than WALK_ROWS.dense: the
      // set costs less than a walk, which finds the limit only where most rows hold the needle.
      return undefined;
    const first = `SELECT t.rowid AS r FROM ${from} WHERE ${walk.rest.sql} LIMIT ${WALK_ROWS.count}`;
    const n = this.state
      .stmt<unknown[], { n: number }>(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM (${first}) w JOIN "${info.table}" t ON t.rowid = w.r WHERE ${walk.check.sql} LIMIT ${limit})`,
      )
      .get(...walk.rest.params, ...walk.check.params)!.n;
    return n === limit || restRows < WALK_ROWS.count ? n : undefined;
  }

  /**
   * A capped count of side-table conditions (`probe`, scalar probes of the row at hand) over the
   * rows of the other conditions (`rest`) in index order: the first WALK_ROWS.count rows probed one
   * by one; when they hold too few matches but predict the limit within WALK_ROWS.probe rows, the
   * walk goes on from there, stopping at the limit. The set of every matching id (60,000 queries
   * naming C.1.5) took 60-100 ms to build; a rarer value's set is small (undefined: it answers).
   */
  private probeCount(from: string, rest: SqlPart, probe: SqlPart, limit: number): number | undefined {
    const walked = `SELECT t._id FROM ${from} WHERE ${rest.sql}`;
    const first = this.state
      .stmt<unknown[], { rows: number; n: number }>(
        `SELECT COUNT(*) AS rows, TOTAL(${probe.sql}) AS n FROM (${walked} LIMIT ${WALK_ROWS.count}) t`,
      )
      .get(...probe.params, ...rest.params)!;
    const n = Math.min(first.n, limit);
    if (n === limit || first.rows < WALK_ROWS.count) return n;
    if (n === 0 || (limit * WALK_ROWS.count) / n > WALK_ROWS.probe) return undefined;
    return (
      n +
      this.state
        .stmt<unknown[], { n: number }>(
          `SELECT COUNT(*) AS n FROM (SELECT 1 FROM (${walked} LIMIT -1 OFFSET ${WALK_ROWS.count}) t WHERE ${probe.sql} LIMIT ${limit - n})`,
        )
        .get(...rest.params, ...probe.params)!.n
    );
  }

  /**
   * A capped count read from one substring index's matches in index order (the first WALK_ROWS.drive
   * of them), each row checked for the other conditions: a needle in a few thousand of a tenant's
   * documents reaches the limit there, where the walk of the other conditions found too few and the
   * whole set costs every match. Undefined when those matches are not enough and more remain.
   */
  private driveCount(
    info: TableInfo,
    walk: NonNullable<SqlWhere['walk']>,
    drive: SqlPart,
    limit: number,
  ): number | undefined {
    const matches = `${drive.sql} LIMIT ${WALK_ROWS.drive}`;
    // The drive's rows hold its own needle: only the other needles are checked.
    const others = walk.others ?? walk.check;
    const n = this.state
      .stmt<unknown[], { n: number }>(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM (${matches}) s CROSS JOIN "${info.table}" t ON t.rowid = s.r` +
          ` WHERE (${walk.rest.sql}) AND (${others.sql}) LIMIT ${limit})`,
      )
      .get(...drive.params, ...walk.rest.params, ...others.params)!.n;
    if (n === limit) return n;
    const seen = this.state
      .stmt<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM (${matches})`)
      .get(...drive.params)!.n;
    return seen < WALK_ROWS.drive ? n : undefined;
  }

  /** Whether fewer than `rows` rows meet the condition (a walk of that many saw them all). */
  private walkCovers(info: TableInfo, rest: SqlPart, rows: number): boolean {
    return this.countUpTo(info, rest, rows) < rows;
  }

  /** How many rows meet the condition, counting no further than `rows` (index entries where one holds it). */
  private countUpTo(info: TableInfo, rest: SqlPart, rows: number): number {
    const index = this.coveringIndex(info, rest.sql);
    const from = index ? `"${info.table}" t INDEXED BY "${index}"` : `"${info.table}" t`;
    return this.state
      .stmt<unknown[], { n: number }>(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${rest.sql} LIMIT ${rows})`,
      )
      .get(...rest.params)!.n;
  }

  count(def: CollectionDefinition, filter: Filter, options: CountOptions = {}): Promise<number> {
    const { limit } = options;
    return this.read(() => {
      const info = this.state.info(def);
      const { where } = this.where(info, filter);
      const known = where.exact ? this.state.keptIf<number>(matchesKey(where)) : undefined;
      if (known !== undefined) return limit === undefined ? known : Math.min(known, limit);
      const walked =
        where.exact && where.walk && limit !== undefined
          ? this.walkCount(info, where.walk, limit)
          : undefined;
      if (walked !== undefined) return walked;
      if (where.exact) {
        const index = this.coveringIndex(info, where.sql);
        const from = index ? `"${info.table}" t INDEXED BY "${index}"` : `"${info.table}" t`;
        // A capped count stops at the limit (a validated integer, literal so SQLite plans for it).
        const rows =
          limit === undefined
            ? `SELECT COUNT(*) AS n FROM ${from} WHERE ${where.sql}`
            : `SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${where.sql} LIMIT ${limit})`;
        return this.state.stmt<unknown[], { n: number }>(rows).get(...where.params)!.n;
      }
      return this.selectDocs(info, filter, { projection: { _id: 1 }, limit }).length;
    });
  }

  /**
   * A declared index holding every column a count's condition reads, led by one it tests: the
   * count then reads index entries only. SQLite costs an index over generated columns as if each
   * entry read its row, so it chose reading the whole table (a 56,000-case tab count: 130-330 ms)
   * over such an index (10-20 ms); the hint names it. undefined: no such index, SQLite chooses.
   */
  private coveringIndex(info: TableInfo, sql: string): string | undefined {
    if (!sql.includes('t.tenantId = ?')) return undefined;
    const read = new Set([...sql.matchAll(/\bt\.(?:"([^"]+)"|(\w+))/g)].map((m) => m[1] ?? m[2]!));
    read.delete('rowid');
    read.delete('_id');
    read.delete('tenantId');
    if (read.has('doc') || read.size === 0) return undefined;
    const flags = this.state.flags(info.def.name);
    let best: { name: string; lead: number; width: number } | undefined;
    for (const [i, index] of (info.def.indexes ?? []).entries()) {
      if (index.text || servedBySideTable(index, flags)) continue;
      const columns = Object.keys(index.fields)
        .filter((path) => path !== 'tenantId' && path !== '_id')
        .map((path) => REAL_COLUMNS[path]?.replace('t.', '') ?? info.columns.get(path));
      if (columns.some((column) => column === undefined)) continue;
      if (![...read].every((column) => columns.includes(column))) continue;
      let lead = 0;
      while (lead < columns.length && read.has(columns[lead]!)) lead++;
      if (lead === 0) continue;
      if (!best || lead > best.lead || (lead === best.lead && columns.length < best.width))
        best = { name: indexName(info, i), lead, width: columns.length };
    }
    return best?.name;
  }

  insert(def: CollectionDefinition, docs: StoredDoc[]): Promise<void> {
    return this.write(() => {
      const info = this.state.info(def);
      const stmt = this.state.stmt(
        `INSERT INTO "${info.table}" (_id, tenantId, rev, doc) VALUES (?, ?, ?, ?)`,
      );
      this.state.written += docs.length;
      const flags = this.refreshFlags(
        info,
        docs.map((d) => ({ doc: '', parsed: d })),
      );
      for (const doc of docs) {
        let trow: number;
        try {
          trow = Number(stmt.run(doc._id, doc.tenantId, doc.rev, JSON.stringify(doc)).lastInsertRowid);
        } catch (error) {
          throw translateConstraint(error, def);
        }
        this.writeMulti(info, flags, doc);
        this.writeText(info, doc, trow);
        this.writeElements(info, doc);
      }
    });
  }

  replace(def: CollectionDefinition, doc: StoredDoc, prevRev: number): Promise<boolean> {
    return this.write(() => {
      const info = this.state.info(def);
      const flags = this.refreshFlags(info, [{ doc: '', parsed: doc }]);
      let changes: number;
      try {
        changes = this.db
          .prepare(`UPDATE "${info.table}" SET rev = ?, doc = ? WHERE _id = ? AND tenantId = ? AND rev = ?`)
          .run(doc.rev, JSON.stringify(doc), doc._id, doc.tenantId, prevRev).changes;
      } catch (error) {
        throw translateConstraint(error, def);
      }
      if (changes !== 1) return false;
      this.state.stmt(`DELETE FROM "${info.multiTable}" WHERE _id = ?`).run(doc._id);
      this.writeMulti(info, flags, doc);
      this.removeText(info, doc._id);
      this.writeText(info, doc);
      this.removeElements(info, doc._id);
      this.writeElements(info, doc);
      return true;
    });
  }

  remove(def: CollectionDefinition, id: string, prevRev: number): Promise<boolean> {
    return this.write(() => {
      const info = this.state.info(def);
      const changes = this.state
        .stmt(`DELETE FROM "${info.table}" WHERE _id = ? AND rev = ?`)
        .run(id, prevRev).changes;
      if (changes === 1) {
        this.state.stmt(`DELETE FROM "${info.multiTable}" WHERE _id = ?`).run(id);
        this.removeText(info, id);
        this.removeElements(info, id);
      }
      return changes === 1;
    });
  }

  aggregate(
    def: CollectionDefinition,
    tenantId: string,
    pipeline: Pipeline,
    joinable: (name: string) => CollectionDefinition,
  ): Promise<unknown[]> {
    return this.read(() => {
      // Leading $match stages narrow the rows read from SQL; mingo still runs the whole pipeline.
      const leading: Filter[] = [];
      for (const stage of pipeline) {
        if (!('$match' in stage)) break;
        leading.push(stage.$match as Filter);
      }
      const info = this.state.info(def);
      const { where } = this.where(info, { $and: leading });
      const rows = this.state
        .stmt<unknown[], Row>(`SELECT t.doc FROM "${info.table}" t WHERE ${where.sql}`)
        .all(...where.params);
      const docs = rows.map((r) => JSON.parse(r.doc) as Record<string, unknown>);
      const joined = new Map<string, unknown[]>();
      const collectionResolver = (name: string): unknown[] => {
        let cached = joined.get(name);
        if (!cached) {
          const other = this.state.info(joinable(name));
          cached = this.db
            .prepare<[string], Row>(`SELECT doc FROM "${other.table}" WHERE tenantId = ?`)
            .all(tenantId)
            .map((r) => JSON.parse(r.doc) as unknown);
          joined.set(name, cached);
        }
        return cached;
      };
      return new Aggregator(
        pipeline,
        mingoOptions({ collectionResolver: collectionResolver as MingoOptions['collectionResolver'] }),
      ).run(docs);
    });
  }

  /**
   * SQL GROUP BY: one json_each per array the spec reads, each dimension a scalar expression, a
   * document counted once per key (COUNT(DISTINCT _id) when arrays multiply its rows). A filter SQL
   * cannot answer exactly streams the candidate rows through mingo into a GroupCounter instead:
   * memory holds the groups, never the documents.
   */
  groupCount(def: CollectionDefinition, filter: Filter, spec: GroupCountSpec): Promise<GroupCount[]> {
    return this.read(() => {
      const info = this.state.info(def);
      const { where } = this.where(info, filter);
      if (!where.exact) {
        const counter = new GroupCounter(spec);
        const query = new Query(filter, mingoOptions());
        const rows = this.state
          .stmt<unknown[], Row>(`SELECT t.doc FROM "${info.table}" t WHERE ${where.sql}`)
          .iterate(...where.params);
        for (const row of rows) {
          const doc = JSON.parse(row.doc) as Record<string, unknown>;
          if (query.test(doc)) counter.add(doc);
        }
        return counter.result();
      }
      const arrays = arraysOf(spec);
      const alias = new Map(arrays.map((each, i) => [each, `e${i}`]));
      const params: unknown[] = [];
      const from = [`"${info.table}" t`];
      const joins: string[] = [];
      // An array with a declared element table holding every path the spec reads in it: its
      // rows' columns, not json_each over each document's JSON (the document's parse was most of
      // a count's time: 3.4 s for a three-dimension pivot over 20,000 cases).
      const tables = new Map<string, { table: string; paths: string[] }>();
      for (const each of arrays) {
        const read = [
          ...spec.by
            .filter((d) => slotOf(d) === each)
            .flatMap((d) => [elementReadPath(d), ...(d.mask?.when ?? []).map((c) => c.path)]),
          ...(spec.where ?? []).filter((c) => slotOf(c) === each).map((c) => c.path),
        ];
        const table = info.elements.find(
          (e) =>
            e.each === arrayOfSlot(each) &&
            read.every((path) => path !== undefined && e.paths.includes(path)),
        );
        if (table) tables.set(each, table);
      }
      // A slot read only to require an element meeting its conditions (every dimension reading it
      // has one constant key: an empty map, no mask; no other reads it by `match`) is an EXISTS,
      // not a join multiplying the document's rows (the pivot's margins).
      const constant = (d: GroupDimension) =>
        d.map !== undefined && Object.keys(d.map).length === 0 && d.mask === undefined;
      const required = new Set(
        arrays.filter((slot) =>
          spec.by.every(
            (d) => constant(d) || (slotOf(d) !== slot && (d.match === undefined || slotOf(d.match) !== slot)),
          ),
        ),
      );
      const source = (each: string, a: string): { from: string; join?: string } => {
        const table = tables.get(each);
        if (table) return { from: `"${table.table}" ${a}`, join: `${a}._id = t._id` };
        const at = `'${jsonPath(arrayOfSlot(each))}'`;
        return {
          from:
            `json_each(CASE WHEN json_type(t.doc, ${at}) IS NULL OR json_type(t.doc, ${at}) = 'null' THEN '[]' ` +
            `WHEN json_type(t.doc, ${at}) = 'array' THEN t.doc -> ${at} ELSE json_array(t.doc -> ${at}) END) ${a}`,
        };
      };
      for (const [each, a] of alias) {
        if (required.has(each)) continue;
        const read = source(each, a);
        from.push(read.from);
        if (read.join) joins.push(read.join);
      }
      // A declared index path that never held an array or object is a column holding the scalar
      // itself (booleans as the same BLOBs): read it instead of parsing every document's JSON.
      const { flags } = this.where(info, filter);
      const resolve = this.resolver(info, flags);
      const documentValue = (path: string): string => {
        const access = resolve(path);
        return access?.kind === 'column' && flags[path] === undefined ? access.sql : scalarSql('t.doc', path);
      };
      const value = (each: string | undefined, path: string | undefined): string => {
        if (each === undefined) return documentValue(path!);
        const table = tables.get(each);
        return table
          ? `${alias.get(each)!}.v${table.paths.indexOf(path!)}`
          : elementScalarSql(alias.get(each)!, path);
      };
      const conditions = [where.sql, ...joins];
      params.push(...where.params);
      const condition = (c: GroupElementCondition, into: string[]): void => {
        if (c.present) {
          into.push(`${value(slotOf(c), c.path)} IS NOT NULL`);
          return;
        }
        into.push(`${value(slotOf(c), c.path)} IN (${c.in!.map(() => '?').join(', ')})`);
        params.push(...c.in!.map(sqlScalar));
      };
      for (const c of spec.where ?? []) if (!required.has(slotOf(c)!)) condition(c, conditions);
      for (const slot of required) {
        const read = source(slot, alias.get(slot)!);
        const inner = read.join ? [read.join] : [];
        for (const c of spec.where ?? []) if (slotOf(c) === slot) condition(c, inner);
        conditions.push(
          `EXISTS (SELECT 1 FROM ${read.from}${inner.length ? ` WHERE ${inner.join(' AND ')}` : ''})`,
        );
      }
      const keyParams: unknown[] = [];
      const prefixed = (d: GroupDimension, expression: string): string =>
        d.prefix === undefined
          ? expression
          : `CASE WHEN typeof(${expression}) = 'text' THEN substr(${expression}, 1, ${d.prefix}) END`;
      // A text value as a label of the map's JSON object (`->>` takes a text not starting with $
      // as a label); map keys never start with $ (checked), so such a value finds nothing.
      const cut = (d: GroupDimension, expression: string): string => {
        if (d.map === undefined) return prefixed(d, expression);
        const v = prefixed(d, expression);
        keyParams.push(JSON.stringify(d.map));
        return `CASE WHEN typeof(${v}) = 'text' AND substr(${v}, 1, 1) <> '$' THEN ? ->> ${v} END`;
      };
      // A `least` dimension: its element table column, else the least text over the items' JSON.
      const own = (d: GroupDimension): string => {
        if (d.match !== undefined) return matched(d, d.match);
        if (d.least === undefined) return value(slotOf(d), d.path);
        const slot = slotOf(d)!;
        const table = tables.get(slot);
        if (table) return `${alias.get(slot)!}.v${table.paths.indexOf(elementReadPath(d)!)}`;
        const a = alias.get(slot)!;
        const at = `'${jsonPath(d.least)}'`;
        const items = `CASE WHEN ${a}.type <> 'object' THEN '[]' WHEN json_type(${a}.value, ${at}) = 'array' THEN ${a}.value -> ${at} WHEN json_type(${a}.value, ${at}) = 'object' THEN json_array(${a}.value -> ${at}) ELSE '[]' END`;
        const inner = `'${jsonPath(d.path!)}'`;
        return `(SELECT min(json_extract(i.value, ${inner})) FROM json_each(${items}) i WHERE i.type = 'object' AND json_type(i.value, ${inner}) = 'text')`;
      };
      // A `match` dimension: the value of the item whose key is the other element's text, from the
      // element table's JSON object by key, else from the first such item of the element's JSON.
      const matched = (d: GroupDimension, m: NonNullable<GroupDimension['match']>): string => {
        const other = value(slotOf(m), m.equals);
        const slot = slotOf(d)!;
        const table = tables.get(slot);
        if (table) {
          const column = `${alias.get(slot)!}.v${table.paths.indexOf(elementReadPath(d)!)}`;
          return `(SELECT ${scalarCase('j.type', 'j.value')} FROM json_each(${column}) j WHERE j.key = ${other} AND typeof(${other}) = 'text')`;
        }
        const a = alias.get(slot)!;
        const at = `'${jsonPath(m.items)}'`;
        const items = `CASE WHEN ${a}.type <> 'object' THEN '[]' WHEN json_type(${a}.value, ${at}) = 'array' THEN ${a}.value -> ${at} WHEN json_type(${a}.value, ${at}) = 'object' THEN json_array(${a}.value -> ${at}) ELSE '[]' END`;
        const key = `'${jsonPath(m.key)}'`;
        return `(SELECT ${scalarSql('i.value', d.path!)} FROM json_each(${items}) i WHERE i.type = 'object' AND json_type(i.value, ${key}) = 'text' AND json_extract(i.value, ${key}) = ${other} AND typeof(${other}) = 'text' ORDER BY i.key LIMIT 1)`;
      };
      const keys = spec.by.map((d, i) => {
        if (constant(d)) return `NULL AS k${i}`;
        if (!d.mask) return `${cut(d, own(d))} AS k${i}`;
        const when = d.mask.when.map((c) => {
          keyParams.push(...c.in.map(sqlScalar));
          return `${value(slotOf(d), c.path)} IN (${c.in.map(() => '?').join(', ')})`;
        });
        keyParams.push(d.mask.value);
        return `CASE WHEN ${when.join(' OR ')} THEN ? ELSE ${cut(d, own(d))} END AS k${i}`;
      });
      const groupBy = spec.by.map((_, i) => `k${i}`).join(', ');
      // Only joined arrays multiply a document's rows.
      const count = arrays.some((slot) => !required.has(slot)) ? 'COUNT(DISTINCT t._id)' : 'COUNT(*)';
      const read = `${keys.join(', ')} WHERE ${conditions.join(' AND ')}`;
      // As for count: a declared index holding every column read answers from its entries alone.
      const index = this.coveringIndex(info, read);
      if (index) from[0] = `"${info.table}" t INDEXED BY "${index}"`;
      const sql = `SELECT ${keys.join(', ')}, ${count} AS n FROM ${from.join(', ')} WHERE ${conditions.join(' AND ')} GROUP BY ${groupBy}`;
      const rows = this.state.stmt<unknown[], Record<string, unknown>>(sql).all(...keyParams, ...params);
      return sortGroups(
        rows.map((row) => ({
          key: Object.fromEntries(spec.by.map((d, i) => [d.name, fromSqlScalar(row[`k${i}`])])),
          count: row.n as number,
        })),
        spec,
      );
    });
  }

  scan(def: CollectionDefinition, afterId: string | null, batchSize: number): Promise<StoredDoc[]> {
    return this.read(() => {
      const info = this.state.info(def);
      return this.db
        .prepare<[string, number], Row>(`SELECT doc FROM "${info.table}" WHERE _id > ? ORDER BY _id LIMIT ?`)
        .all(afterId ?? '', batchSize)
        .map((r) => JSON.parse(r.doc) as StoredDoc);
    });
  }

  close(): Promise<void> {
    return this.run(() => {
      this.db.close();
    });
  }

  /** Writes happen inside a transaction; a bare call gets its own. */
  private write<R>(fn: () => R): Promise<R> {
    if (this.inTransaction) {
      this.state.epoch++;
      return Promise.resolve(fn());
    }
    return this.transaction(async () => {
      this.state.epoch++;
      return fn();
    });
  }

  /**
   * Flags index paths that the given documents make non-simple, and on a first flag fills the
   * side table for every stored document so the path can be served from it from now on.
   */
  private refreshFlags(info: TableInfo, docs: Iterable<Row | { doc: string; parsed: StoredDoc }>): Flags {
    const flags = this.state.flags(info.def.name);
    const paths = [...info.columns.keys()]
      .filter((p) => flags[p] !== 2)
      .map((p) => ({ path: p, parts: p.split('.') }));
    if (paths.length === 0) return flags;
    const fresh: string[] = [];
    let changed = false;
    for (const row of docs) {
      const doc: unknown = 'parsed' in row ? row.parsed : JSON.parse(row.doc);
      for (const { path, parts } of paths) {
        const shape = pathShape(doc, parts);
        if (shape > (flags[path] ?? 0)) {
          if (!flags[path]) fresh.push(path);
          flags[path] = shape as 1 | 2;
          changed = true;
        }
      }
    }
    if (!changed) return flags;
    this.state.saveFlags(info.def.name, flags);
    if (fresh.length === 0) return flags;
    // Queries on these paths now go to the side table: an SQL index over their generated column
    // (JSON text of arrays) would only cost every write.
    for (const [i, index] of (info.def.indexes ?? []).entries())
      if (!index.unique && servedBySideTable(index, flags))
        this.db.exec(`DROP INDEX IF EXISTS "${indexName(info, i)}"`);
    const stmt = this.state.stmt(
      `INSERT INTO "${info.multiTable}" (_id, tenantId, path, value) VALUES (?, ?, ?, ?)`,
    );
    for (const row of this.state.stmt<[], Row>(`SELECT doc FROM "${info.table}"`).all()) {
      const doc = JSON.parse(row.doc) as StoredDoc;
      for (const path of fresh)
        for (const value of multiValues(doc, path.split('.'))) stmt.run(doc._id, doc.tenantId, path, value);
    }
    return flags;
  }

  private writeMulti(info: TableInfo, flags: Flags, doc: StoredDoc): void {
    const paths = Object.keys(flags);
    if (paths.length === 0) return;
    const stmt = this.state.stmt(
      `INSERT INTO "${info.multiTable}" (_id, tenantId, path, value) VALUES (?, ?, ?, ?)`,
    );
    for (const path of paths)
      for (const value of multiValues(doc, path.split('.'))) stmt.run(doc._id, doc.tenantId, path, value);
  }
}

/**
 * The collection table: one STORED generated column per index path, placed before the document
 * so that filters on several paths read small values from the row instead of parsing the JSON
 * of every candidate (a virtual column is recomputed by json_extract on each read).
 */
function tableSql(table: string, columns: Map<string, string>): string {
  // Booleans as the side table's one-byte BLOBs: json_extract would give 1 and 0, equal to numbers.
  const generated = [...columns].map(([path, column]) => {
    const at = `doc, '${jsonPath(path)}'`;
    return `"${column}" GENERATED ALWAYS AS (CASE json_type(${at}) WHEN 'true' THEN x'01' WHEN 'false' THEN x'00' ELSE json_extract(${at}) END) STORED`;
  });
  return `CREATE TABLE "${table}" (${['_id TEXT PRIMARY KEY', 'tenantId TEXT NOT NULL', 'rev INTEGER NOT NULL', ...generated, 'doc TEXT NOT NULL'].join(', ')})`;
}

/** A JSON value as a group key: booleans as the one-byte BLOBs, objects and arrays as NULL. */
function scalarCase(type: string, value: string): string {
  return `CASE ${type} WHEN 'true' THEN x'01' WHEN 'false' THEN x'00' WHEN 'object' THEN NULL WHEN 'array' THEN NULL ELSE ${value} END`;
}

function scalarSql(source: string, path: string): string {
  const at = `'${jsonPath(path)}'`;
  return scalarCase(`json_type(${source}, ${at})`, `json_extract(${source}, ${at})`);
}

/** An element's value (json_each row `a`), itself or at a path inside it when it is an object. */
function elementScalarSql(a: string, path: string | undefined): string {
  if (path === undefined) return scalarCase(`${a}.type`, `${a}.value`);
  return `CASE WHEN ${a}.type = 'object' THEN ${scalarSql(`${a}.value`, path)} END`;
}

function sqlScalar(value: string | number | boolean): unknown {
  if (typeof value === 'boolean') return value ? SQL_TRUE : SQL_FALSE;
  return value;
}

function fromSqlScalar(value: unknown): GroupScalar {
  if (Buffer.isBuffer(value)) return value.equals(SQL_TRUE);
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return null;
}

/** The key a page's count of every match of an exact condition is kept under (coveredPage). */
const matchesKey = (where: SqlWhere) => `matches\0${where.sql}\0${JSON.stringify(where.params)}`;

function indexName(info: TableInfo, position: number): string {
  const index = info.def.indexes![position]!;
  return `${info.table}__${(index.name ?? `i${position}`).replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/**
 * The tenant a filter is restricted to: a string `tenantId` condition at its top level or in a
 * top-level `$and` (how the store scopes every tenant query); undefined when there is none.
 */
function scopedTenant(filter: Filter): string | undefined {
  if (typeof filter.tenantId === 'string') return filter.tenantId;
  if (!Array.isArray(filter.$and)) return undefined;
  for (const part of filter.$and as Filter[]) {
    const tenantId = part !== null && typeof part === 'object' ? scopedTenant(part) : undefined;
    if (tenantId !== undefined) return tenantId;
  }
  return undefined;
}

/** True when no query reads the index: every path of it holds arrays (side table or mingo). */
function servedBySideTable(index: IndexDeclaration, flags: Flags): boolean {
  const paths = Object.keys(index.fields).filter((path) => !(path in REAL_COLUMNS));
  return !index.unique && paths.length > 0 && paths.every((path) => flags[path] !== undefined);
}

/**
 * The top-level fields a pushed-down find must read so mingo can still evaluate the filter and
 * apply the projection: with an inclusion projection, large lists never parse whole documents.
 * Undefined means the whole document is needed.
 */
function readFields(
  filter: Filter,
  sort: SortSpec,
  projection: FindOptions['projection'],
): string[] | undefined {
  if (!projection) return undefined;
  const included = Object.entries(projection).filter(([path]) => path !== '_id');
  if (included.length === 0 || included.some(([, v]) => !v)) return undefined;
  const fields = new Set<string>(['_id']);
  const top = (path: string) => fields.add(path.split('.')[0]!);
  for (const [path] of included) top(path);
  for (const path of Object.keys(sort)) top(path);
  const walk = (f: Filter): void => {
    for (const [key, value] of Object.entries(f)) {
      if (key === '$and' || key === '$or' || key === '$nor') for (const sub of value as Filter[]) walk(sub);
      else if (!key.startsWith('$')) top(key);
    }
  };
  walk(filter);
  return [...fields];
}

/** A projection asking for `_id` alone. */
function onlyIds(projection: FindOptions['projection']): boolean {
  if (!projection) return false;
  const entries = Object.entries(projection);
  return entries.length === 1 && entries[0]![0] === '_id' && Boolean(entries[0]![1]);
}

/** The fields of an inclusion projection naming top-level fields only (`_id` kept unless excluded); else undefined. */
function topLevelInclusion(
  projection: FindOptions['projection'],
): { keep: string[]; id: boolean } | undefined {
  if (!projection) return undefined;
  const keep: string[] = [];
  let id = true;
  for (const [path, value] of Object.entries(projection)) {
    if (path === '_id') id = Boolean(value);
    else if (value !== 1) return undefined;
    else if (path.includes('.') || path.startsWith('$')) return undefined;
    else keep.push(path);
  }
  return keep.length ? { keep, id } : undefined;
}

function pick(doc: StoredDoc, fields: { keep: string[]; id: boolean }): StoredDoc {
  const out: Record<string, unknown> = fields.id ? { _id: doc._id } : {};
  for (const field of fields.keep) if (doc[field] !== undefined) out[field] = doc[field];
  return out as StoredDoc;
}

/**
 * How a projection reads one top-level field (`f<i>`, JSON text; `c<i>`, a column's value): from its
 * column where one holds it as a scalar (never seen holding an array or object), else extracted from
 * the document. Extracting parses the document once per field (200 markers' 7 fields: 6 ms). A column
 * holds JSON null and a missing field alike as NULL, so only then is the document asked which.
 */
function fieldSelect(info: TableInfo, flags: Flags, field: string, i: number): string {
  const extract = `t.doc -> '${jsonPath(field)}'`;
  const column =
    field === '_id' || field === 'tenantId'
      ? REAL_COLUMNS[field]
      : info.columns.has(field) && flags[field] === undefined
        ? `t."${info.columns.get(field)!}"`
        : undefined;
  if (!column) return `${extract} AS f${i}`;
  return `${column} AS c${i}, CASE WHEN ${column} IS NULL THEN ${extract} END AS f${i}`;
}

/**
 * Rebuilds a document from fieldSelect's values: a column's value as it is (booleans are its
 * one-byte BLOBs), else the JSON text; SQL NULL in both is a missing field.
 */
function partialDoc(fields: string[], row: Record<string, unknown>): StoredDoc {
  const doc: Record<string, unknown> = {};
  fields.forEach((field, i) => {
    const column = row[`c${i}`];
    if (column !== null && column !== undefined)
      doc[field] = Buffer.isBuffer(column) ? column[0] === 1 : column;
    else {
      const value = row[`f${i}`];
      if (typeof value === 'string') doc[field] = JSON.parse(value);
    }
  });
  return doc as StoredDoc;
}

/** Sorting ties are broken by _id on both backends, so pages are stable. */
export function withIdTiebreak(sort: SortSpec | undefined): SortSpec {
  return sort && '_id' in sort ? sort : { ...(sort ?? {}), _id: 1 };
}

function translateConstraint(error: unknown, def: CollectionDefinition): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new DuplicateKeyError(def.name, '_id');
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') {
    const match = /UNIQUE constraint failed: (.*)$/.exec((error as Error).message);
    return new DuplicateKeyError(def.name, match?.[1] ?? 'unique');
  }
  return error;
}
