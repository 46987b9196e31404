import { fileURLToPath } from 'node:url';
import { zipSync, strToU8 } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { generateMeddra, generateWhodrug, meddraFiles, SMALL_MEDDRA, whodrugFiles } from '@pv/engine';
import type { MeddraCoding, MeddraRelease } from '@pv/engine';
import { openFileStore } from '../files';
import type { Authenticator } from '../http';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { JobRunner } from '../jobs';
import type { Collection, Handle, TenantHandle } from '../store';
import { BLOCKS, VERSIONS } from './collections';
import { dictionariesModule, dictionaryService, filesFromDirectory } from './index';

const store = await testStore();
const files = await openFileStore(store, { dataDir: store.dataDir });
afterAll(async () => {
  await files.close();
  await store.close();
});

// Tokens name the tenant and user (`t1-admin`); users called "viewer" hold no permission.
const authenticator: Authenticator = {
  authenticate: async (token) => {
    const [tenantId, userId] = token.split('-');
    return tenantId && userId ? { tenantId, userId } : null;
  },
  authorize: (principal) => principal.userId !== 'viewer',
};
const platform = testPlatform({ store, files, modules: [dictionariesModule], authenticator });
const { app } = platform;
await platform.ready();
const service = dictionaryService(store);
const tenant = (id: string) => store.tenant(id, { userId: 'tester' });

const pair = generateMeddra(SMALL_MEDDRA);
const whodrug = generateWhodrug({ records: 30 });

async function stored(tenantId: string) {
  const handle = tenant(tenantId);
  return {
    versions: await handle.collection(VERSIONS).count(),
    blocks: await handle.collection(BLOCKS).count(),
  };
}

async function idOf(tenantId: string, version: string, language: 'zh' | 'en'): Promise<string> {
  return (await service.resolve(tenant(tenantId), 'meddra', { version, language }, language))._id;
}

/** The handle with a store that fails while writing blocks, after the version document went in. */
function failingBlocks(handle: TenantHandle): TenantHandle {
  const failing = (tx: Handle): Handle => ({
    collection: <T extends object>(name: string): Collection<T> => {
      const collection = tx.collection<T>(name);
      if (name !== BLOCKS) return collection;
      return Object.assign(
        Object.create(Object.getPrototypeOf(collection) as object) as Collection<T>,
        collection,
        {
          insertMany: () => Promise.reject(new Error('disk full')),
        },
      );
    },
    transaction: (fn) => tx.transaction(fn),
  });
  return {
    tenantId: handle.tenantId,
    actor: handle.actor,
    collection: (name) => handle.collection(name),
    transaction: (fn) => handle.transaction((tx) => fn(failing(tx))),
  } as TenantHandle;
}

/** The files with one line of one file replaced. */
function withLine(release: MeddraRelease, file: string, lineNo: number, edit: (line: string) => string) {
  const out = meddraFiles(release);
  const lines = out.get(file)!.split('\r\n');
  lines[lineNo - 1] = edit(lines[lineNo - 1]!);
  out.set(file, lines.join('\r\n'));
  return out;
}

describe('importing a MedDRA release', () => {
  it('imports once; the same release again changes nothing', async () => {
    const first = await service.importMeddra(tenant('imp'), meddraFiles(pair.en));
    expect(first.outcome).toBe('imported');
    expect(first.version).toMatchObject({
      kind: 'meddra',
      version: '27.0',
      language: 'en',
      counts: { llt: SMALL_MEDDRA.llts, pt: SMALL_MEDDRA.pts, soc: SMALL_MEDDRA.socs },
    });
    const before = await stored('imp');
    // The same content with other line ends and file-name case is the same release.
    const again = new Map(
      [...meddraFiles(pair.en)].map(([n, c]) => [n.toUpperCase(), c.replace(/\r\n/g, '\n')]),
    );
    const second = await service.importMeddra(tenant('imp'), again);
    expect(second.outcome).toBe('unchanged');
    expect(second.version.checksum).toBe(first.version.checksum);
    expect(await stored('imp')).toEqual(before);
  });

  it('keeps several versions and both languages side by side', async () => {
    await service.importMeddra(tenant('imp'), meddraFiles(pair.zh));
    await service.importMeddra(tenant('imp'), meddraFiles({ ...pair.en, version: '26.1' }));
    const list = await call(app, 'GET', '/api/dictionaries/versions?kind=meddra', { token: 'imp-admin' });
    expect(
      (list.body.data as { version: string; language: string }[]).map((v) => `${v.version} ${v.language}`),
    ).toEqual(['27.0 en', '27.0 zh', '26.1 en']);
  });

  it('refuses a malformed file with its name and line, and imports nothing', async () => {
    const broken = withLine(pair.en, 'llt.asc', 12, (line) => line.replace(/\$[YN]\$\$$/, '$maybe$$'));
    await expect(service.importMeddra(tenant('bad'), broken)).rejects.toMatchObject({
      issues: [{ file: 'llt.asc', line: 12, messageKey: 'invalidCurrency' }],
    });
    expect(await stored('bad')).toEqual({ versions: 0, blocks: 0 });
  });

  it('writes a release whole or not at all', async () => {
    await expect(service.importMeddra(failingBlocks(tenant('half')), meddraFiles(pair.en))).rejects.toThrow(
      'disk full',
    );
    expect(await stored('half')).toEqual({ versions: 0, blocks: 0 });
    await service.importMeddra(tenant('half'), meddraFiles(pair.en));
    expect((await stored('half')).versions).toBe(1);
  });

  it('refuses another content under an imported version', async () => {
    const changed = {
      ...pair.en,
      llts: pair.en.llts.map((l, i) => (i === 0 ? { ...l, name: 'Renamed' } : l)),
    };
    await expect(service.importMeddra(tenant('imp'), meddraFiles(changed))).rejects.toMatchObject({
      messageKey: 'dictionaries.versionExistsDifferent',
    });
  });

  it('reads the layout sample, which has no mdhier.asc', async () => {
    const dir = fileURLToPath(new URL('./fixtures/meddra-layout-sample', import.meta.url));
    const result = await service.importMeddra(tenant('sample'), filesFromDirectory(dir));
    expect(result.version).toMatchObject({ version: '22.0', language: 'en', counts: { llt: 5, soc: 5 } });
    const dictionary = await service.meddra(
      tenant('sample'),
      await service.resolve(tenant('sample'), 'meddra', { version: '22.0' }, 'en'),
    );
    expect(dictionary.resolve({ code: 'LLT3' })).toMatchObject({
      coding: { pt: { code: 'PT3' }, hlt: { code: 'HLT3' }, hlgt: { code: 'HLGT3' }, soc: { code: 'SOC3' } },
    });
  });

  it('imports an uploaded zip as a background task, and reports a refusal the same way', async () => {
    const zip = (release: Map<string, string>) =>
      zipSync(
        Object.fromEntries([...release].map(([name, content]) => [`MedAscii/${name}`, strToU8(content)])),
      );
    const runner = new JobRunner(platform.deps, platform.jobDefinitions, { owner: 'test' });
    const upload = async (body: Uint8Array, token = 'zip-admin') => {
      const res = await call(app, 'POST', '/api/dictionaries/imports?kind=meddra&fileName=meddra.zip', {
        token,
        rawBody: body as Uint8Array<ArrayBuffer>,
        headers: { 'content-type': 'application/zip' },
      });
      if (res.body.code !== 200) return res;
      await runner.tick();
      await runner.idle();
      return call(app, 'GET', `/api/jobs/${(res.body.data as { jobId: string }).jobId}`, { token });
    };
    const done = await upload(zip(meddraFiles(pair.zh)));
    expect(done.body.data).toMatchObject({
      status: 'succeeded',
      result: { outcome: 'imported', version: { version: '27.0', language: 'zh' } },
    });
    const refused = await upload(zip(withLine(pair.en, 'pt.asc', 4, (l) => l.replace(/^\d+/, 'x!'))));
    expect(refused.body.data).toMatchObject({ status: 'succeeded', result: { outcome: 'refused' } });
    const issues = (refused.body.data as { result: { issues: unknown[] } }).result.issues;
    expect(issues[0]).toEqual({
      file: 'pt.asc',
      line: 4,
      messageKey: 'invalidCode',
      params: { code: 'x!' },
      message: { en: 'invalid code "x!"', zh: '编码“x!”无效' },
    });
    expect(await stored('zip')).toMatchObject({ versions: 1 });
    expect((await upload(zip(meddraFiles(pair.en)), 'zip-viewer')).body.code).toBe(403);
  });
});

describe('MedDRA search over HTTP', () => {
  const search = (
    body: Record<string, unknown>,
    options: { lang?: 'cn' | 'en'; token?: string; project?: string } = {},
  ) =>
    call(app, 'POST', '/api/dictionaries/meddra/search', {
      token: options.token ?? 'imp-coder',
      lang: options.lang,
      body,
      headers: options.project ? { projectId: options.project } : {},
    });
  const llt = pair.en.llts.find((l) => l.current && l.name.length > 10)!;
  const zhLlt = pair.zh.llts.find((l) => l.code === llt.code)!;

  it('finds English terms with 2 and 5 characters, and Chinese terms in the Chinese release', async () => {
    const five = await search({
      version: '27.0',
      language: 'en',
      query: llt.name.slice(2, 7),
      levels: ['llt'],
      limit: 200,
    });
    expect(five.body.code).toBe(200);
    const data = five.body.data as {
      total: number;
      items: { code: string }[];
      version: { version: string; language: string };
    };
    expect(data.items.map((i) => i.code)).toContain(llt.code);
    expect(data.version).toMatchObject({ version: '27.0', language: 'en' });
    const two = await search({
      version: '27.0',
      language: 'en',
      query: llt.name.slice(0, 2),
      levels: ['llt', 'pt'],
    });
    expect((two.body.data as { total: number }).total).toBeGreaterThan(0);
    const zh = await search({
      version: '27.0',
      query: [...zhLlt.name].slice(0, 2).join(''),
      levels: ['llt'],
      limit: 200,
    });
    expect((zh.body.data as { items: { code: string }[] }).items.map((i) => i.code)).toContain(zhLlt.code);
  });

  it('refuses, with the translated message, what SPEC 5 refuses', async () => {
    const en = { lang: 'en' as const };
    expect((await search({ version: '27.0', query: 'a', levels: ['llt'] }, en)).body).toMatchObject({
      code: 400,
      msg: 'Enter at least 2 characters',
    });
    expect(
      (await search({ version: '27.0', language: 'en', query: '头痛', levels: ['llt'] }, en)).body.msg,
    ).toBe('The query language must match the term language');
    expect((await search({ version: '27.0', query: '头痛', levels: [] })).body.msg).toBe(
      '请至少选择一个查询选项',
    );
    expect((await search({ query: 'head', levels: ['llt'] }, en)).body.msg).toBe(
      'Choose a dictionary version',
    );
    expect((await search({ query: 'head', levels: ['llt'] }, { ...en, project: 'p1' })).body.msg).toBe(
      'MedDRA version not configured',
    );
    expect((await search({ version: '30.0', query: 'head', levels: ['llt'] }, en)).body.msg).toBe(
      'MedDRA version 30.0 en has not been imported',
    );
  });

  it('uses the version configured for the project, in the language of the request', async () => {
    const denied = await call(app, 'PUT', '/api/dictionaries/projects/p2/settings', {
      token: 'imp-viewer',
      body: { meddraVersion: '27.0', whodrugVersion: null },
    });
    expect(denied.body.code).toBe(403);
    const saved = await call(app, 'PUT', '/api/dictionaries/projects/p2/settings', {
      token: 'imp-admin',
      body: { meddraVersion: '27.0', whodrugVersion: null },
    });
    expect(saved.body.data).toEqual({ projectId: 'p2', meddraVersion: '27.0', whodrugVersion: null });
    const unknown = await call(app, 'PUT', '/api/dictionaries/projects/p2/settings', {
      token: 'imp-admin',
      lang: 'en',
      body: { meddraVersion: '19.0', whodrugVersion: null },
    });
    expect(unknown.body.msg).toBe('MedDRA version 19.0  has not been imported');
    const res = await search({ query: llt.name, levels: ['llt'] }, { lang: 'en', project: 'p2' });
    expect((res.body.data as { items: { code: string }[] }).items[0]!.code).toBe(llt.code);
    const zh = await search({ query: zhLlt.name, levels: ['llt'] }, { project: 'p2' });
    expect((zh.body.data as { version: { language: string } }).version.language).toBe('zh');
    // A configured version cannot be deleted.
    const del = await call(app, 'DELETE', `/api/dictionaries/versions/${await idOf('imp', '27.0', 'en')}`, {
      token: 'imp-admin',
    });
    expect(del.body.code).toBe(409);
  });

  it('browses the hierarchy and codes a selection down to LLT and up to SOC', async () => {
    const socs = await call(app, 'POST', '/api/dictionaries/meddra/hierarchy', {
      token: 'imp-coder',
      body: { version: '27.0', language: 'en' },
    });
    expect((socs.body.data as { items: unknown[] }).items).toHaveLength(SMALL_MEDDRA.socs);
    const selected = await call(app, 'POST', '/api/dictionaries/meddra/select', {
      token: 'imp-coder',
      body: { version: '27.0', language: 'en', code: llt.code },
    });
    const coding = selected.body.data as MeddraCoding;
    const pt = pair.en.pts.find((p) => p.code === llt.ptCode)!;
    expect(coding).toMatchObject({
      version: '27.0',
      llt: { code: llt.code },
      pt: { code: pt.code },
      soc: { code: pt.primarySocCode },
      primary: true,
    });
    const notOnPath = await call(app, 'POST', '/api/dictionaries/meddra/select', {
      token: 'imp-coder',
      lang: 'en',
      body: { version: '27.0', language: 'en', code: llt.code, socCode: '1' },
    });
    expect(notOnPath.body.msg).toBe(`The selection must reach SOC level (term ${llt.code})`);
    const term = await call(app, 'POST', '/api/dictionaries/meddra/term', {
      token: 'imp-coder',
      body: { version: '27.0', language: 'en', level: 'pt', code: pt.code },
    });
    expect((term.body.data as { paths: { primary: boolean }[] }).paths[0]!.primary).toBe(true);
  });

  it('suggests codes for verbatim terms, checks versions and previews a recode', async () => {
    const suggest = await call(app, 'POST', '/api/dictionaries/meddra/suggest', {
      token: 'imp-coder',
      body: { version: '27.0', language: 'en', verbatims: [llt.name.toLowerCase(), 'nothing like it'] },
    });
    const items = (
      suggest.body.data as { items: { suggestions: { match: string; coding: MeddraCoding }[] }[] }
    ).items;
    expect(items[0]!.suggestions[0]).toMatchObject({ match: 'exact', coding: { llt: { code: llt.code } } });
    expect(items[1]!.suggestions).toEqual([]);

    const term = {
      ref: 'case1/reactions/0',
      meddraVersion: '26.1',
      meddraCode: llt.code,
      meddraLltName: llt.name,
    };
    const check = await call(app, 'POST', '/api/dictionaries/meddra/check', {
      token: 'imp-coder',
      lang: 'en',
      headers: { projectId: 'p2' },
      body: { terms: [term] },
    });
    expect((check.body.data as { issues: { message: string }[] }).issues[0]!.message).toBe(
      `MedDRA version differs from group LLT codes: LLT ${llt.code} is coded in MedDRA 26.1, the configured version is 27.0`,
    );
    const recode = await call(app, 'POST', '/api/dictionaries/meddra/recode', {
      token: 'imp-coder',
      body: { version: '27.0', language: 'en', terms: [term, { ref: 'x', meddraCode: '42' }] },
    });
    expect(recode.body.data).toMatchObject({
      targetVersion: '27.0',
      summary: { unchanged: 1, notFound: 1 },
      terms: [
        {
          ref: 'case1/reactions/0',
          status: 'unchanged',
          after: { meddraVersion: '27.0', meddraPtCode: llt.ptCode },
        },
        { ref: 'x', status: 'notFound', changes: [] },
      ],
    });
  });

  it('keeps tenants apart', async () => {
    const other = await search(
      { version: '27.0', language: 'en', query: llt.name, levels: ['llt'] },
      { token: 'other-coder' },
    );
    expect(other.body.code).toBe(400);
    const list = await call(app, 'GET', '/api/dictionaries/versions', { token: 'other-admin' });
    expect(list.body.data).toEqual([]);
  });

  it('deletes a release that no project uses, with its content', async () => {
    const id = await idOf('imp', '26.1', 'en');
    const res = await call(app, 'DELETE', `/api/dictionaries/versions/${id}`, { token: 'imp-admin' });
    expect(res.body.code).toBe(200);
    expect(await tenant('imp').collection(BLOCKS).count({ versionId: id })).toBe(0);
    expect(await tenant('imp').collection(BLOCKS).count()).toBeGreaterThan(0);
    const gone = await call(app, 'GET', `/api/dictionaries/versions/${id}`, { token: 'imp-admin' });
    expect(gone.body.code).toBe(404);
  });
});

describe('WHODrug', () => {
  it('imports B3 files and answers the list and the detail of a drug', async () => {
    const result = await service.importWhodrug(tenant('imp'), whodrugFiles(whodrug), {
      version: whodrug.version,
    });
    expect(result.outcome).toBe('imported');
    const trade = whodrug.drugs.find((d) => d.sequence2 === '002')!;
    const list = await call(app, 'POST', '/api/dictionaries/whodrug/search', {
      token: 'imp-coder',
      body: { version: whodrug.version, query: trade.name.slice(0, 5) },
    });
    expect((list.body.data as { items: { drugCode: string }[] }).items.map((i) => i.drugCode)).toContain(
      trade.drugCode,
    );
    const detail = await call(app, 'POST', '/api/dictionaries/whodrug/detail', {
      token: 'imp-coder',
      body: { version: whodrug.version, drugCode: trade.drugCode },
    });
    expect(detail.body.data).toMatchObject({
      drugCode: trade.drugCode,
      kind: 'trade',
      atcCodes: trade.atcCodes,
    });
    const none = await call(app, 'POST', '/api/dictionaries/whodrug/search', {
      token: 'imp-coder',
      lang: 'en',
      body: { version: whodrug.version },
    });
    expect(none.body.msg).toBe('Enter a drug name or code, or choose a filter');
  });
});
