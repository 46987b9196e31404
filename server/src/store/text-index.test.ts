/**
 * Substring filters over a declared text index return exactly what a plain scan returns: random
 * documents with Chinese and Latin texts (and the characters SQL and FTS5 treat specially), random
 * needles of 1-8 characters, every textMatch mode, through find, count and sorted pages, after
 * inserts, updates and deletes. Embedded always (FTS5 trigram table); MongoDB when MONGODB_URI is
 * set (per-path indexes there).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALK_ROWS } from './embedded';
import { escapeRegex, textMatch } from './guard';
import type { TextMatchMode } from './guard';
import { openStore } from './index';
import type { OpenedStore, TenantHandle } from './index';

const backends = [
  {
    name: 'embedded',
    available: true,
    open: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'pv-text-'));
      return { store: await openStore({ dataDir }), cleanup: () => rmSync(dataDir, { recursive: true }) };
    },
  },
  {
    name: 'mongodb',
    available: Boolean(process.env.MONGODB_URI),
    open: async () => {
      const url = new URL(process.env.MONGODB_URI!);
      url.pathname = `/pv_text_${randomUUID().replace(/-/g, '')}`;
      return {
        store: await openStore({ dataDir: '', mongodbUri: url.toString() }),
        cleanup: () => undefined,
      };
    },
  },
];

// Chinese drug and patient texts, Latin in both cases, digits, and what LIKE, FTS5 and regexes
// treat specially; cased non-ASCII letters (σ/ς/Σ fold alike in a regex, ſ and the Kelvin sign do not).
const ALPHABET = [
  ...'注射液氨氯地平片阿司匹林肠溶多西他赛二甲双胍胶囊张王李',
  ...'abcxyzABCXYZ',
  ...'0123456789',
  ...'%_"*\\.-()[]^$|?+ \'',
  ...'éÉσΣςſ\u212a',
];

let seed = 20261126;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const randomText = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => pick(ALPHABET)).join('');
const flipCase = (text: string) =>
  [...text].map((ch) => (random() < 0.5 ? ch.toUpperCase() : ch.toLowerCase())).join('');

type Doc = { _id: string; code?: unknown; names?: unknown[]; items?: { name?: unknown }[]; rank: number };

function randomDoc(id: string): Doc {
  const doc: Doc = { _id: id, rank: Math.floor(random() * 50) };
  if (random() < 0.9) doc.code = random() < 0.05 ? 42 : `CN-${randomText(2, 10)}`;
  if (random() < 0.8) doc.names = Array.from({ length: Math.floor(random() * 3) }, () => randomText(1, 12));
  if (random() < 0.8)
    doc.items = Array.from({ length: Math.floor(random() * 3) }, () =>
      random() < 0.1 ? {} : { name: randomText(0, 10) },
    );
  return doc;
}

/** The plain scan: JavaScript's own regex over every text the path reaches. */
function scanMatches(doc: Doc, path: string, needle: string, mode: TextMatchMode, ci: boolean): boolean {
  const start = mode === 'prefix' || mode === 'exact' ? '^' : '';
  const end = mode === 'suffix' || mode === 'exact' ? '$' : '';
  const pattern = new RegExp(`${start}${escapeRegex(needle)}${end}`, ci ? 'i' : '');
  const values: unknown[] =
    path === 'code'
      ? [doc.code]
      : path === 'names'
        ? (doc.names ?? [])
        : (doc.items ?? []).map((i) => i.name);
  return values.some((value) => typeof value === 'string' && pattern.test(value));
}

for (const backend of backends) {
  describe.skipIf(!backend.available)(`substring filters over a text index: ${backend.name}`, () => {
    let store: OpenedStore;
    let cleanup: () => void;
    let handle: TenantHandle;
    const docs = new Map<string, Doc>();

    beforeAll(async () => {
      ({ store, cleanup } = await backend.open());
      await store.define({
        name: 'texts',
        scope: 'tenant',
        indexes: [
          { fields: { code: 1 } },
          { fields: { names: 1 } },
          { fields: { 'items.name': 1 } },
          { fields: { rank: 1 } },
          { name: 'substrings', fields: { code: 1, names: 1, 'items.name': 1 }, text: true },
        ],
      });
      handle = store.tenant('A', { userId: 'tester' });
      const batch = Array.from({ length: 400 }, (_, i) => randomDoc(`d${String(i).padStart(3, '0')}`));
      for (const doc of batch) docs.set(doc._id, doc);
      await handle.collection('texts').insertMany(batch);
      // Another tenant's texts (the same ones) must never be found or counted.
      await store
        .tenant('B', { userId: 'tester' })
        .collection('texts')
        .insertMany(batch.slice(0, 100).map((doc) => ({ ...doc, _id: `b-${doc._id}` })));
      // Updates and deletes keep the index in step.
      for (const doc of batch.slice(0, 60)) {
        const next = randomDoc(doc._id);
        const { _id, ...fields } = next;
        const unset = Object.fromEntries(
          ['code', 'names', 'items'].filter((key) => !(key in fields)).map((key) => [key, '']),
        );
        await handle
          .collection('texts')
          .updateOne({ _id }, { $set: fields, ...(Object.keys(unset).length ? { $unset: unset } : {}) });
        docs.set(_id, next);
      }
      for (const doc of batch.slice(60, 80)) {
        await handle.collection('texts').deleteOne({ _id: doc._id });
        docs.delete(doc._id);
      }
    }, 120_000);

    afterAll(async () => {
      await store?.close();
      cleanup?.();
    });

    it('returns exactly the documents a scan finds, for random needles, modes and paths', async () => {
      const texts = [...docs.values()].flatMap((doc) =>
        [doc.code, ...(doc.names ?? []), ...(doc.items ?? []).map((i) => i.name)].filter(
          (v): v is string => typeof v === 'string' && v.length > 0,
        ),
      );
      const modes: TextMatchMode[] = ['contains', 'contains', 'contains', 'prefix', 'suffix', 'exact'];
      let nonEmpty = 0;
      for (let q = 0; q < 240; q++) {
        const length = 1 + Math.floor(random() * 8);
        // Mostly a piece of a stored text (case flipped at times), else random characters.
        let needle: string;
        if (random() < 0.75) {
          const source = pick(texts);
          const at = Math.floor(random() * Math.max(1, source.length - length + 1));
          needle = source.slice(at, at + length);
          if (random() < 0.3) needle = flipCase(needle);
        } else needle = randomText(length, length);
        if (needle === '') needle = pick(ALPHABET);
        const mode = pick(modes);
        const ci = random() < 0.8;
        const path = pick(['code', 'names', 'items.name', 'any']);
        const match = textMatch(needle, { mode, caseInsensitive: ci });
        const filter =
          path === 'any'
            ? { $or: [{ code: match }, { names: match }, { 'items.name': match }] }
            : { [path]: match };
        const expected = [...docs.values()]
          .filter((doc) =>
            path === 'any'
              ? ['code', 'names', 'items.name'].some((p) => scanMatches(doc, p, needle, mode, ci))
              : scanMatches(doc, path, needle, mode, ci),
          )
          .sort((x, y) => y.rank - x.rank || (x._id < y._id ? -1 : 1));
        if (expected.length) nonEmpty++;
        const label = `${path} ${mode} ${ci ? 'i' : ''} ${JSON.stringify(needle)}`;
        const texts_ = handle.collection('texts');
        const found = (await texts_.find(filter)).map((d) => d._id).sort();
        expect({ label, found }).toEqual({ label, found: expected.map((d) => d._id).sort() });
        expect({ label, n: await texts_.count(filter) }).toEqual({ label, n: expected.length });
        const page = await texts_.find(filter, { sort: { rank: -1 }, skip: 1, limit: 5 });
        expect({ label, page: page.map((d) => d._id) }).toEqual({
          label,
          page: expected.slice(1, 6).map((d) => d._id),
        });
        // Capped counts and pages with walks as configured and shorter than the tenant's rows, so
        // they come from a walk that found enough, from the index's matches, or from the set.
        const cap = 1 + Math.floor(random() * 12);
        // (Embedded only: MongoDB's capped count is the conformance suite's, and the peer is slow.)
        const walks = backend.name === 'embedded' ? [WALK_ROWS.page, 7 + Math.floor(random() * 60)] : [];
        for (const rows of walks) {
          const kept = { ...WALK_ROWS };
          // Other conditions' rows and needles' matches both below and above each threshold.
          Object.assign(WALK_ROWS, {
            page: rows,
            count: rows,
            drive: rows,
            broad: 8 * rows,
            dense: 4 * rows,
          });
          try {
            const capped = await texts_.count(filter, { limit: cap });
            const paged = await texts_.find(filter, { sort: { rank: -1 }, skip: 1, limit: 5 });
            // With another condition, which rows read from the index's matches may fail.
            const ranked = await texts_.count({ $and: [filter, { rank: { $lt: 10 } }] }, { limit: cap });
            // A page, then the count of the same filter (which may reuse the page's number of
            // matches), with other conditions in fewer rows than the tenant's.
            const under = { $and: [filter, { rank: { $lt: 10 + (q % 30) } }] };
            const underPage = await texts_.find(under, { sort: { rank: -1 }, skip: 1, limit: 5 });
            const underCount = await texts_.count(under, { limit: cap });
            const underExpected = expected.filter((d) => d.rank < 10 + (q % 30));
            expect({
              label,
              rows,
              capped,
              ranked,
              paged: paged.map((d) => d._id),
              underPage: underPage.map((d) => d._id),
              underCount,
            }).toEqual({
              label,
              rows,
              capped: Math.min(cap, expected.length),
              ranked: Math.min(cap, expected.filter((d) => d.rank < 10).length),
              paged: expected.slice(1, 6).map((d) => d._id),
              underPage: underExpected.slice(1, 6).map((d) => d._id),
              underCount: Math.min(cap, underExpected.length),
            });
          } finally {
            Object.assign(WALK_ROWS, kept);
          }
        }
      }
      // The needles mostly come from stored texts: most queries must find something.
      expect(nonEmpty).toBeGreaterThan(60);
      // 720 queries: a MongoDB peer (FerretDB over SQLite) on a loaded machine needs minutes.
    }, 600_000);
  });
}

it('rebuilds the text index when table row ids moved (a VACUUM renumbers them)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pv-text-moved-'));
  try {
    const definition = {
      name: 'notes',
      scope: 'tenant' as const,
      indexes: [{ name: 'text', fields: { body: 1 as const }, text: true }],
    };
    let store = await openStore({ dataDir });
    await store.define(definition);
    const notes = () => store.tenant('A', { userId: 'tester' }).collection('notes');
    await notes().insertMany(
      Array.from({ length: 300 }, (_, i) => ({
        _id: `n${i}`,
        body: i % 2 ? `阿莫西林 ${i}` : `Aspirin ${i}`,
      })),
    );
    await store.close();
    // What a VACUUM after deletions does: the same documents under other row ids.
    const db = new Database(join(dataDir, 'store.sqlite'));
    db.exec('UPDATE c_notes SET rowid = rowid + 100000');
    db.close();
    store = await openStore({ dataDir });
    await store.define(definition);
    expect(await notes().count({ body: textMatch('西林 1') })).toBe(
      Array.from({ length: 300 }, (_, i) => i).filter((i) => i % 2 && String(i).startsWith('1')).length,
    );
    expect(await notes().count({ body: textMatch('aspirin') })).toBe(150);
    await store.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
