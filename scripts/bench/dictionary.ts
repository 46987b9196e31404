/**
 * `npm run bench -- dictionary`: a full-size synthetic MedDRA (about 80,000 LLTs) in English and
 * Chinese, written as ASCII distribution files into a temporary folder.
 *
 * - Import: files read, parsed, checked and written to a fresh embedded store, then the search
 *   index built (the release is usable after that). Floor: the same rows inserted with raw SQL into
 *   one SQLite table in one transaction, with no checking.
 * - Search p95 for 2- and 5-character queries in each language, through the HTTP route
 *   (app.request: validation, version lookup, search, envelope). Floor: raw SQL
 *   `name LIKE '%q%' LIMIT 50` over the same terms in SQLite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { MeddraRelease, TermLanguage } from '@pv/engine';
import { createPlatform } from '../../server/src/app';
import { dictionariesModule, dictionaryService, filesFromDirectory } from '../../server/src/dictionaries';
import { openStore } from '../../server/src/store';
import { FULL_MEDDRA, generateMeddra, meddraFiles, random, writeFiles } from '../generate-dictionaries';
import { benchLine, percentile } from './measure';

const IMPORT_TARGET_S = 30;
const SEARCH_TARGET_MS = 20;
const QUERIES = 400;

const root = mkdtempSync(join(tmpdir(), 'pv-bench-dictionary-'));
const lines: string[] = [];

function bench(name: string, figure: number, floor: number, unit: string, target: number): void {
  const digits = unit === 's' ? 2 : 3;
  lines.push(
    benchLine({
      name,
      figure,
      unit,
      floor,
      ratio: figure / floor,
      target: `${target} ${unit}`,
      met: figure <= target,
      digits,
    }),
  );
}

const p95 = (samples: number[]): number => percentile(samples, 0.95);

/** Substrings of `length` characters taken from term names, deterministically. */
function queries(release: MeddraRelease, length: number, seed: number): string[] {
  const rand = random(seed);
  const out: string[] = [];
  while (out.length < QUERIES) {
    const name = [...release.llts[Math.floor(rand() * release.llts.length)]!.name];
    if (name.length < length) continue;
    const start = Math.floor(rand() * (name.length - length + 1));
    const query = name.slice(start, start + length).join('');
    if (query.trim().length === length) out.push(query);
  }
  return out;
}

/** The floor: the same terms in one SQLite table, inserted raw. */
function rawSqlTable(release: MeddraRelease, db: Database.Database, table: string): number {
  const started = performance.now();
  db.exec(`CREATE TABLE ${table} (level TEXT, code TEXT, name TEXT, parent TEXT, current INTEGER)`);
  const insert = db.prepare(`INSERT INTO ${table} VALUES (?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (const t of release.llts) insert.run('llt', t.code, t.name, t.ptCode, t.current ? 1 : 0);
    for (const t of release.pts) insert.run('pt', t.code, t.name, t.primarySocCode, 1);
    for (const t of release.hlts) insert.run('hlt', t.code, t.name, null, 1);
    for (const t of release.hlgts) insert.run('hlgt', t.code, t.name, null, 1);
    for (const t of release.socs) insert.run('soc', t.code, t.name, t.abbrev, 1);
    for (const p of release.paths) insert.run('path', p.ptCode, p.hltCode, p.socCode, p.primary ? 1 : 0);
  })();
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  console.log(`generating ${FULL_MEDDRA.llts} LLTs in en and zh under ${root}`);
  const pair = generateMeddra(FULL_MEDDRA);
  const releases: Record<TermLanguage, MeddraRelease> = { en: pair.en, zh: pair.zh };
  for (const language of ['en', 'zh'] as const)
    writeFiles(join(root, language), meddraFiles(releases[language]));

  const store = await openStore({ dataDir: join(root, 'data') });
  const platform = createPlatform({
    store,
    modules: [dictionariesModule],
    config: { webDist: null },
    logger: () => {},
    authenticator: { authenticate: async () => ({ userId: 'bench', tenantId: 'bench' }) },
  });
  await platform.ready();
  const service = dictionaryService(store);
  const handle = store.tenant('bench', { userId: 'bench' });
  const floorDb = new Database(':memory:');

  for (const language of ['en', 'zh'] as const) {
    const started = performance.now();
    const result = await service.importMeddra(handle, filesFromDirectory(join(root, language)));
    const imported = (performance.now() - started) / 1000;
    await service.meddra(handle, await service.get(handle, result.version.versionId));
    const ready = (performance.now() - started) / 1000;
    const floor = rawSqlTable(releases[language], floorDb, `terms_${language}`);
    console.log(
      `import ${language}: ${imported.toFixed(2)} s parse+check+write, ${ready.toFixed(2)} s with the index; raw SQL ${floor.toFixed(2)} s`,
    );
    bench(`dictionary.meddra.import.${language}`, ready, floor, 's', IMPORT_TARGET_S);
  }

  for (const language of ['en', 'zh'] as const) {
    for (const length of [2, 5]) {
      const list = queries(releases[language], length, length * 7 + (language === 'en' ? 1 : 2));
      const like = floorDb.prepare(
        `SELECT level, code, name FROM terms_${language} WHERE level IN ('llt', 'pt') AND current = 1 AND name LIKE ? LIMIT 50`,
      );
      const ours: number[] = [];
      const floor: number[] = [];
      const engineOnly: number[] = [];
      const dictionary = await service.meddra(
        handle,
        await service.resolve(handle, 'meddra', { version: '27.0' }, language),
      );
      let hits = 0;
      for (const query of list) {
        let t = performance.now();
        const res = await platform.app.request('/api/dictionaries/meddra/search', {
          method: 'POST',
          headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
          body: JSON.stringify({ version: '27.0', language, query, levels: ['llt', 'pt'], limit: 50 }),
        });
        const body = (await res.json()) as { code: number; data: { total: number } };
        ours.push(performance.now() - t);
        if (body.code !== 200) throw new Error(`search "${query}" answered ${JSON.stringify(body)}`);
        hits += body.data.total;
        t = performance.now();
        like.all(`%${query}%`);
        floor.push(performance.now() - t);
        t = performance.now();
        dictionary.search(query, { levels: ['llt', 'pt'], limit: 50 });
        engineOnly.push(performance.now() - t);
      }
      console.log(
        `search ${language} ${length} chars: ${QUERIES} queries, ${Math.round(hits / QUERIES)} hits on average; p95 ${p95(ours).toFixed(2)} ms (in-memory search alone ${p95(engineOnly).toFixed(2)} ms), raw SQL LIKE p95 ${p95(floor).toFixed(2)} ms`,
      );
      bench(
        `dictionary.meddra.search.${language}.${length}char.p95`,
        p95(ours),
        p95(floor),
        'ms',
        SEARCH_TARGET_MS,
      );
    }
  }

  floorDb.close();
  await store.close();
  rmSync(root, { recursive: true, force: true });
  console.log(
    `load average while measuring: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  rmSync(root, { recursive: true, force: true });
  console.error(error);
  process.exit(1);
});
