/**
 * A data directory written before stored index columns and side-table booleans: opening it
 * refills the side table once, the first define rebuilds the table, and nothing is lost.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { openStore } from './index';
import { literalRegex } from './guard';
import type { CollectionDefinition } from './port';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const definition: CollectionDefinition = {
  name: 'cases',
  scope: 'tenant',
  indexes: [
    { name: 'code', fields: { code: 1 } },
    { name: 'sae', fields: { isSae: 1 } },
  ],
};
const column = (path: string) => `g_${path}_${createHash('sha1').update(path).digest('hex').slice(0, 6)}`;

it('upgrades a file from before stored columns and side-table booleans without losing a document', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-store-upgrade-'));
  dirs.push(dataDir);
  // The layout the previous version wrote: virtual columns, booleans flagged but not in the side table.
  const old = new Database(join(dataDir, 'store.sqlite'));
  old.pragma('journal_mode = WAL');
  old.exec(
    `CREATE TABLE _collections (name TEXT PRIMARY KEY, definition TEXT NOT NULL, flags TEXT NOT NULL DEFAULT '{}')`,
  );
  old
    .prepare('INSERT INTO _collections (name, definition, flags) VALUES (?, ?, ?)')
    .run('cases', JSON.stringify(definition), JSON.stringify({ isSae: 1 }));
  old.exec(
    `CREATE TABLE c_cases (_id TEXT PRIMARY KEY, tenantId TEXT NOT NULL, rev INTEGER NOT NULL, doc TEXT NOT NULL)`,
  );
  old.exec(`CREATE TABLE m_cases (_id TEXT NOT NULL, tenantId TEXT NOT NULL, path TEXT NOT NULL, value)`);
  for (const path of ['code', 'isSae'])
    old.exec(
      `ALTER TABLE c_cases ADD COLUMN "${column(path)}" GENERATED ALWAYS AS (json_extract(doc, '$."${path}"')) VIRTUAL`,
    );
  const insert = old.prepare('INSERT INTO c_cases (_id, tenantId, rev, doc) VALUES (?, ?, ?, ?)');
  for (const [id, code, isSae] of [
    ['c1', 'CN-2026-001', true],
    ['c2', 'CN-2026-002', false],
    ['c3', 'US-2026-003', true],
  ] as const)
    insert.run(id, 'T', 1, JSON.stringify({ _id: id, tenantId: 'T', rev: 1, code, isSae }));
  old.close();

  const store = await openStore({ dataDir });
  await store.define(definition);
  const cases = store.tenant('T', { userId: 'alice' }).collection('cases');
  expect((await cases.find({ isSae: true })).map((d) => d._id)).toEqual(['c1', 'c3']);
  expect(await cases.count({ isSae: false })).toBe(1);
  expect(await cases.count({ code: literalRegex('cn-', 'i'), isSae: true })).toBe(1);
  await cases.insertOne({ _id: 'c4', code: 'CN-2026-004', isSae: true });
  expect(await cases.count({ isSae: true })).toBe(3);
  await store.close();

  const check = new Database(join(dataDir, 'store.sqlite'), { readonly: true });
  const columns = check
    .prepare<[], { name: string; hidden: number }>(`SELECT name, hidden FROM pragma_table_xinfo('c_cases')`)
    .all();
  expect(columns.filter((c) => c.name.startsWith('g_')).map((c) => c.hidden)).toEqual([3, 3]);
  expect(check.pragma('user_version', { simple: true })).toBe(1);
  expect(check.prepare('SELECT count(*) AS n FROM c_cases').get()).toEqual({ n: 4 });
  // Booleans live in the rebuilt table's columns (as BLOBs): no path needs the side table any more.
  expect(check.prepare(`SELECT flags FROM _collections WHERE name = 'cases'`).get()).toEqual({ flags: '{}' });
  expect(check.prepare('SELECT count(*) AS n FROM m_cases').get()).toEqual({ n: 0 });
  check.close();
});

it('fills the side table of an array path a later define declares on stored documents', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-store-upgrade-'));
  dirs.push(dataDir);
  const store = await openStore({ dataDir });
  const first: CollectionDefinition = {
    name: 'queries',
    scope: 'tenant',
    indexes: [{ fields: { code: 1 } }],
  };
  await store.define(first);
  const queries = store.tenant('T', { userId: 'alice' }).collection('queries');
  await queries.insertMany([
    { _id: 'q1', code: 'Q1', pointers: ['/report/reportDateLast', '/patient/birthday'] },
    { _id: 'q2', code: 'Q2', pointers: ['/patient/birthday'] },
  ]);
  // A new array path: the table is rebuilt with its column, and its values reach the side table.
  await store.define({ ...first, indexes: [...first.indexes!, { fields: { pointers: 1 } }] });
  expect((await queries.find({ pointers: '/patient/birthday' })).map((d) => d._id)).toEqual(['q1', 'q2']);
  expect(await queries.count({ pointers: '/report/reportDateLast' })).toBe(1);
  await store.close();
});

it('keeps the declared indexes as declared now: a changed one is made again, an undeclared one dropped', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-store-upgrade-'));
  dirs.push(dataDir);
  const indexes = () => {
    const db = new Database(join(dataDir, 'store.sqlite'), { readonly: true });
    const rows = db
      .prepare<[], { name: string; sql: string }>(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'c_cases' AND sql IS NOT NULL ORDER BY name`,
      )
      .all();
    db.close();
    return Object.fromEntries(rows.map((r) => [r.name, r.sql]));
  };
  let store = await openStore({ dataDir });
  await store.define(definition);
  await store
    .tenant('T', { userId: 'alice' })
    .collection('cases')
    .insertOne({ _id: 'c1', code: 'A', isSae: true });
  await store.close();
  const before = indexes();
  expect(Object.keys(before)).toEqual(['c_cases__code', 'c_cases__sae', 'c_cases__tenant']);

  store = await openStore({ dataDir });
  await store.define({ ...definition, indexes: [{ name: 'code', fields: { code: -1, isSae: 1 } }] });
  const cases = store.tenant('T', { userId: 'alice' }).collection('cases');
  expect(await cases.count({ code: 'A' })).toBe(1);
  await store.close();
  const after = indexes();
  expect(Object.keys(after)).toEqual(['c_cases__code', 'c_cases__tenant']);
  expect(after.c_cases__code).not.toBe(before.c_cases__code);
  expect(after.c_cases__code).toContain('DESC');
  expect(after.c_cases__tenant).toBe(before.c_cases__tenant);
});
