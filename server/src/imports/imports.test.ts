import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseXml,
  readAcknowledgement,
  generateMeddra,
  generateWhodrug,
  meddraFiles,
  SMALL_MEDDRA,
  whodrugFiles,
} from '@pv/engine';
import { validateR3Xml } from '../interchange';
import { permissionsOfArea } from '../access';
import { accessCollections } from '../access';
import { usersCollections } from '../users';
import { caseCollectionNames, createCasesModule } from '../cases';
import { recordingSigner, demoProject } from '../cases/testing';
import { configurationModule } from '../configuration';
import { dictionariesModule, dictionaryService } from '../dictionaries';
import { openFileStore } from '../files';
import type { Authenticator } from '../http';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { JobRunner } from '../jobs';
import { reportCodesModule } from '../report-codes';
import { workflowModule } from '../workflow';
import { importsModule } from './index';
import { parseRecord } from './parse-job';

const e2b = fileURLToPath(new URL('../../../schemas/e2b/', import.meta.url));
const sample = (path: string) => new Uint8Array(readFileSync(`${e2b}${path}`));
const FAERS1 = 'samples/fda-faers_FAERS2022Scenario1.xml';
const FAERS2 = 'samples/fda-faers_FAERS2022Scenario2.xml';

const TENANT = permissionsOfArea('tenant');
const denied: Record<string, string[]> = {
  viewer: [
    'reportmanagment:importReport:import',
    'reportmanagment:importReport:generate',
    'reportmanagment:importReport:reject',
  ],
};
const authenticator: Authenticator = {
  authenticate: async (token) => {
    const [tenantId, userId] = token.split(':');
    return tenantId && userId ? { tenantId, userId, name: `user ${userId}` } : null;
  },
  authorize: (principal, permission) =>
    TENANT.includes(permission) && !(denied[principal.userId] ?? []).includes(permission),
};

const store = await testStore();
const files = await openFileStore(store, { dataDir: store.dataDir });
const platform = testPlatform({
  store,
  files,
  authenticator,
  modules: [
    createCasesModule({ signer: recordingSigner() }),
    workflowModule,
    reportCodesModule,
    dictionariesModule,
    configurationModule,
    importsModule,
  ],
});
const runner = new JobRunner(platform.deps, platform.jobDefinitions, { owner: 'test' });
const handle = store.tenant('t1', { userId: 'system:test' });
let meddraVersionId = '';
let whodrugVersionId = '';

beforeAll(async () => {
  await platform.ready();
  for (const definition of [...usersCollections, ...accessCollections]) await store.define(definition);
  for (const id of ['entry', 'viewer', 'outsider'])
    await handle.collection('users').insertOne({
      _id: id,
      account: id,
      accountKey: `t1:${id}`,
      name: `user ${id}`,
      email: `${id}@example.cn`,
      state: 'enabled',
      organisationIds: [],
      currentOrganisationId: null,
      roleIds: [],
    });
  await handle.collection(caseCollectionNames.projects).insertOne({ ...demoProject('p1') });
  await handle
    .collection('projectMembers')
    .insertOne({ projectId: 'p1', userId: 'entry', roleIds: [], permissionKeys: [] });
  await handle
    .collection('projectMembers')
    .insertOne({ projectId: 'p1', userId: 'viewer', roleIds: [], permissionKeys: [] });
  await handle.collection('reportCodeGenerators').insertOne({
    name: '默认规则',
    projectId: null,
    countryCode: 'CN',
    organisation: 'XYPHARMA',
    cycle: 'year',
    length: 6,
    startValue: 1,
    utcOffsetMinutes: 480,
    enabled: true,
  });
  const dictionaries = dictionaryService(store);
  const meddra = await dictionaries.importMeddra(handle, meddraFiles(generateMeddra(SMALL_MEDDRA).en));
  const whodrug = generateWhodrug({ records: 30 });
  const who = await dictionaries.importWhodrug(handle, whodrugFiles(whodrug), { version: whodrug.version });
  meddraVersionId = meddra.version.versionId;
  whodrugVersionId = who.version.versionId;
});
afterAll(async () => {
  await runner.stop(1000);
  await files.close();
  await store.close();
});

/** The acknowledgement of a record, read back with the engine's reader (and checked against the XSD). */
async function ackOf(recordId: string) {
  const response = await platform.app.request(`/api/imports/${recordId}/ack`, {
    headers: { authorization: 'Bearer t1:entry', 'lang-type': 'en' },
  });
  const xml = await response.text();
  expect(response.headers.get('content-type')).toMatch(/xml/);
  expect(await validateR3Xml(xml)).toEqual({ valid: true, errors: [] });
  return readAcknowledgement(parseXml(new TextEncoder().encode(xml)));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary answer shapes
type Answer = { status: number; body: { code: number; msg: string; data: any } };
const as = (userId: string) => ({
  call: (method: string, path: string, body?: unknown) =>
    call(platform.app, method, `/api${path}`, { token: `t1:${userId}`, body, lang: 'en' }) as Promise<Answer>,
  upload: (fileName: string, bytes: Uint8Array, choices: Record<string, string> = {}) => {
    const query = new URLSearchParams({
      projectId: 'p1',
      meddraVersionId,
      whodrugVersionId,
      fileName,
      ...choices,
    });
    return call(platform.app, 'POST', `/api/imports?${query}`, {
      token: `t1:${userId}`,
      rawBody: new Blob([bytes as Uint8Array<ArrayBuffer>]),
      headers: { 'content-type': 'application/octet-stream' },
      lang: 'en',
    }) as Promise<Answer>;
  },
});
const entry = as('entry');

async function parsed(fileName: string, bytes: Uint8Array) {
  const uploaded = await entry.upload(fileName, bytes);
  expect(uploaded.body.code).toBe(200);
  expect(uploaded.body.data).toMatchObject({ processingStatus: 'unprocessed', parseStatus: 'toBeParsed' });
  await runner.tick();
  await runner.idle();
  return (await entry.call('GET', `/imports/${uploaded.body.data.id}`)).body.data;
}

const caseCount = () => handle.collection(caseCollectionNames.cases).count();

/** Pre-processing that clears every value the data check calls wrong. */
function clearing(check: { problems: { kind: string; path: string }[] }) {
  return Object.fromEntries(
    check.problems.filter((p) => p.kind === 'invalid').map((p) => [p.path, { source: 'edited' }]),
  );
}

describe('upload', () => {
  it('needs the template, MedDRA and WHODrug versions and an XML or zip file', async () => {
    const bytes = sample(FAERS1);
    const missing = await entry.upload('a.xml', bytes, { projectId: '' });
    expect(missing.body).toMatchObject({ code: 400, msg: 'Please choose the template' });
    expect((await entry.upload('a.xml', bytes, { meddraVersionId: '' })).body.msg).toBe(
      'Please choose the MedDRA version',
    );
    expect((await entry.upload('a.xml', bytes, { whodrugVersionId: meddraVersionId })).body.msg).toBe(
      'Please choose the WHODrug version',
    );
    expect((await entry.upload('a.pdf', bytes)).body.msg).toBe('Invalid file type; allowed: xml, zip');
    expect((await as('viewer').upload('a.xml', bytes)).status).toBe(403);
    expect(await handle.collection('importRecords').count({ fileName: 'a.xml' })).toBe(0);
  });

  it('parses in a job: one record per file, one report per message, states and fields', async () => {
    const record = await parsed('faers1.xml', sample(FAERS1));
    expect(record).toMatchObject({
      fileName: 'faers1.xml',
      processingStatus: 'unprocessed',
      parseStatus: 'completed',
      format: 'r3',
      profile: 'fda',
      reportCount: 1,
      importerId: 'entry',
      importerName: 'user entry',
      exception: null,
      finished: false,
    });
    expect(record.receiptDate).toMatch(/^\d{8}$/);
    expect(record.reports).toEqual([
      expect.objectContaining({
        index: 0,
        senderReportId: 'US-APHARMA-8744554B',
        worldwideId: 'US-APHARMA-8744554B',
        status: 'pending',
      }),
    ]);
  });

  it('refuses a hostile file with a translated exception and keeps no report', async () => {
    const record = await parsed('xxe.xml', sample('hostile/py_load_eudravigilance_test_xxe.xml'));
    expect(record).toMatchObject({ parseStatus: 'exception', processingStatus: 'exception', reports: [] });
    expect(record.exception.messageKey).toMatch(/^interchange\.xml\./);
    expect(record.exception.message.en).toMatch(/refused/);
    expect(record.exception.message.zh).not.toBe(record.exception.message.en);
  });

  it('refuses a whole zip when one entry is hostile: nothing half-imported', async () => {
    const zip = zipSync({
      'good.xml': sample(FAERS1),
      'evil.xml': sample('hostile/py_load_eudravigilance_billion_laughs.xml'),
    });
    const record = await parsed('batch.zip', zip);
    expect(record).toMatchObject({ parseStatus: 'exception', reports: [] });
    expect(record.exception.entry).toBe('evil.xml');
    expect(await handle.collection('importReports').count({ recordId: record.id })).toBe(0);
  });

  it('reads every message of a zip as one report each', async () => {
    const zip = zipSync({ 'a/one.xml': sample(FAERS1), 'b/two.xml': sample(FAERS2) });
    const record = await parsed('two.zip', zip);
    expect(record).toMatchObject({ parseStatus: 'completed', reportCount: 2 });
    expect(record.reports.map((r: { entry: string }) => r.entry)).toEqual(['a/one.xml', 'b/two.xml']);
  });

  it('refuses an R3 message that breaks the XSD, naming the entry', async () => {
    const xml = new TextDecoder().decode(sample(FAERS1));
    // An element the schema does not allow where the batch id belongs; the mapper ignores it.
    const broken = xml.replace(/(<MCCI_IN200100UV01[^>]*>)/, '$1<bogus/>');
    const zip = zipSync({ 'ok.xml': sample(FAERS2), 'broken.xml': new TextEncoder().encode(broken) });
    const record = await parsed('xsd.zip', zip);
    expect(record).toMatchObject({ parseStatus: 'exception', processingStatus: 'exception', reports: [] });
    expect(record.exception).toMatchObject({ entry: 'broken.xml', messageKey: 'imports.parse.xsdInvalid' });
    expect(record.exception.message.en).toMatch(
      /^File broken.xml failed E2B\(R3\) XSD validation \(\d+ errors\)/,
    );
    // ok.xml's report was written before broken.xml was read: the refusal removed it.
    expect(await handle.collection('importReports').count({ recordId: record.id })).toBe(0);
  });

  it('a retried parse removes what an interrupted attempt wrote, and reports appear only once completed', async () => {
    const uploaded = await entry.upload('retry.xml', sample(FAERS1));
    const recordId = uploaded.body.data.id as string;
    // An attempt that died after writing a report (and a stray one at a later position).
    await handle
      .collection('importRecords')
      .updateOne({ _id: recordId }, { $set: { parseStatus: 'parsing' } });
    for (const index of [0, 7])
      await handle
        .collection('importReports')
        .insertOne({ recordId, index, entry: 'retry.xml', status: 'pending' });
    const during = (await entry.call('GET', `/imports/${recordId}`)).body.data;
    expect(during).toMatchObject({ parseStatus: 'parsing', reports: [] });
    expect((await entry.call('GET', `/imports/${recordId}/reports/0`)).body.code).toBe(400);
    expect(await parseRecord(platform.deps, handle, recordId)).toEqual({ outcome: 'completed', reports: 1 });
    const record = (await entry.call('GET', `/imports/${recordId}`)).body.data;
    expect(record.reports.map((r: { index: number; entry: string }) => [r.index, r.entry])).toEqual([
      [0, 'retry.xml'],
    ]);
    expect(record.reports[0].senderReportId).toBeTruthy();
    await runner.tick();
    await runner.idle();
  });

  it('refuses a file that is not an E2B message', async () => {
    const record = await parsed(
      'invalid.xml',
      sample('samples/INVALID-hybrid_py_load_eudravigilance_sample_e2b.xml'),
    );
    expect(record.parseStatus).toBe('exception');
    expect(record.exception.message.en.length).toBeGreaterThan(10);
  });
});

describe('pre-processing, data check and generation', () => {
  let firstCaseId = '';

  it('blocks a failing data check, then generates a new report from the pre-processing', async () => {
    const record = await parsed('faers-new.xml', sample(FAERS1));
    const compare = (await entry.call('GET', `/imports/${record.id}/reports/0`)).body.data;
    expect(compare.existing).toBeNull();
    const row = compare.rows.find((r: { path: string }) => r.path === '/report/reportAllCode');
    expect(row).toMatchObject({
      e2b: 'C.1.8.1',
      imported: 'US-APHARMA-8744554B',
      chosen: 'US-APHARMA-8744554B',
    });
    expect(row.label.en).toBeTruthy();

    const check = (await entry.call('POST', `/imports/${record.id}/reports/0/check`, {})).body.data;
    expect(check.passed).toBe(false);
    expect(check.profiles).toEqual(['product', 'fda']);
    expect(
      check.problems.some(
        (p: { kind: string; path: string }) => p.kind === 'invalid' && p.path === '/drugs/0/mpidVersion',
      ),
    ).toBe(true);
    // FAERS LLT codes are not in the small generated MedDRA release: listed for the coder.
    expect(check.problems.some((p: { kind: string }) => p.kind === 'dictionary')).toBe(true);

    const before = await caseCount();
    const refused = await entry.call('POST', `/imports/${record.id}/reports/0/generate`, { mode: 'new' });
    expect(refused.body.code).toBe(400);
    expect(refused.body.msg).toMatch(/^The data check failed \(\d+ errors\)/);
    expect(refused.body.data.problems.length).toBeGreaterThan(0);
    expect(await caseCount()).toBe(before);

    const choices = clearing(check);
    const saved = await entry.call('PUT', `/imports/${record.id}/reports/0`, { choices });
    expect(saved.body.code).toBe(200);
    expect(saved.body.data.record).toMatchObject({
      processingStatus: 'processing',
      caseProcessorId: 'entry',
    });
    const again = (await entry.call('POST', `/imports/${record.id}/reports/0/check`, {})).body.data;
    expect(again.problems.filter((p: { kind: string }) => p.kind === 'invalid')).toEqual([]);
    expect(again.passed).toBe(true);

    expect(
      (await as('viewer').call('POST', `/imports/${record.id}/reports/0/generate`, { mode: 'new' })).status,
    ).toBe(403);
    const generated = await entry.call('POST', `/imports/${record.id}/reports/0/generate`, { mode: 'new' });
    expect(generated.body).toMatchObject({ code: 200 });
    firstCaseId = generated.body.data.caseId;
    const stored = await handle.collection(caseCollectionNames.cases).findOne({ _id: firstCaseId });
    const report = stored!.report as Record<string, unknown>;
    expect(report.reportAllCode).toBe('US-APHARMA-8744554B');
    expect(report.reportCode).toMatch(/^CN-XYPHARMA-/);
    expect(report.studyProjectId).toBe('p1');
    expect(report.otherCaseIdentifiers).toContainEqual(
      expect.objectContaining({ identifier: 'US-APHARMA-8744554B' }),
    );
    expect((stored!.drugs as Record<string, unknown>[])[0]!.mpidVersion).toBeUndefined();
    expect((stored!.state as Record<string, unknown>).workflowNode).toBeTruthy();

    const done = (await entry.call('GET', `/imports/${record.id}`)).body.data;
    expect(done).toMatchObject({ processingStatus: 'processed', finished: true });
    expect(done.completedAt).toBeTruthy();
    expect(done.reports[0]).toMatchObject({ status: 'generated', caseId: firstCaseId, outcome: 'new' });
    const twice = await entry.call('POST', `/imports/${record.id}/reports/0/generate`, { mode: 'new' });
    expect(twice.body.code).toBe(400);

    const ack = await ackOf(record.id);
    expect(ack).toMatchObject({
      format: 'r3',
      code: 'AA',
      icsrBatchId: 'FAERS2022Scenario1-4069-a2dd-08002b30309d',
      ackSenderId: 'ZZFDA',
      ackReceiverId: '4567AB89012',
    });
    expect(ack.reports).toEqual([
      expect.objectContaining({
        messageId: '21ec1492-3aea-4069-a2ab-08002b30309d',
        code: 'CA',
        localReportNumber: report.reportCode,
      }),
    ]);
  });

  it('generates a follow-up version of the case with the same C.1.8.1', async () => {
    const record = await parsed('faers-update.xml', sample(FAERS2));
    const compare = (await entry.call('GET', `/imports/${record.id}/reports/0`)).body.data;
    expect(compare.existing).toMatchObject({ caseId: firstCaseId, matchedBy: 'C.1.8.1' });
    const differing = compare.rows.filter((r: { differs: boolean }) => r.differs);
    expect(differing.length).toBeGreaterThan(0);
    const check = (await entry.call('POST', `/imports/${record.id}/reports/0/check`, {})).body.data;
    await entry.call('PUT', `/imports/${record.id}/reports/0`, { choices: clearing(check) });

    // The case module's rule: only a completed report can be followed up.
    const early = await entry.call('POST', `/imports/${record.id}/reports/0/generate`, {
      mode: 'followUp',
      reason: 'Updated information from FDA',
    });
    expect(early.body.code).toBe(400);
    expect((await entry.call('GET', `/imports/${record.id}`)).body.data.reports[0].status).toBe('pending');
    await handle
      .collection(caseCollectionNames.cases)
      .updateOne({ _id: firstCaseId }, { $set: { 'state.isCompleted': true } });

    const before = await caseCount();
    const answer = await entry.call('POST', `/imports/${record.id}/reports/0/generate`, {
      mode: 'followUp',
      reason: 'Updated information from FDA',
    });
    expect(answer.body.code).toBe(200);
    expect(answer.body.data).toMatchObject({ caseId: firstCaseId, outcome: 'followUp' });
    expect(await caseCount()).toBe(before);
    const stored = await handle.collection(caseCollectionNames.cases).findOne({ _id: firstCaseId });
    expect(stored!.state).toMatchObject({ version: 2, versionType: 'followUp', isCompleted: false });
    const report = stored!.report as Record<string, unknown>;
    expect(report.reportCode).toMatch(/^CN-XYPHARMA-/);
    expect(report.otherCaseIdentifiers).toContainEqual(
      expect.objectContaining({ identifier: 'US-APHARMA-8744554B-UPDATE-TESTING222' }),
    );
    const history = await handle
      .collection('workflowHistory')
      .find({ caseId: firstCaseId, action: 'followUp' });
    expect(history).toHaveLength(1);
    expect(history[0]!.details).toMatchObject({ importFile: 'faers-update.xml', previousVersion: 1 });
  });

  it('rejects an import for good', async () => {
    const record = await parsed('faers-reject.xml', sample(FAERS1));
    const early = await entry.call('GET', `/imports/${record.id}/ack`);
    expect(early.body.msg).toMatch(/is not finished; no acknowledgement/);
    const unconfirmed = await entry.call('POST', `/imports/${record.id}/reject`, { confirm: false });
    expect(unconfirmed.body.code).toBe(400);
    expect((await as('viewer').call('POST', `/imports/${record.id}/reject`, { confirm: true })).status).toBe(
      403,
    );
    const rejected = await entry.call('POST', `/imports/${record.id}/reject`, {
      confirm: true,
      reason: 'duplicate',
    });
    expect(rejected.body.data).toMatchObject({
      rejected: true,
      finished: true,
      processingStatus: 'processed',
    });
    const detail = (await entry.call('GET', `/imports/${record.id}`)).body.data;
    expect(detail.reports[0].status).toBe('rejected');
    const again = await entry.call('POST', `/imports/${record.id}/reject`, { confirm: true });
    expect(again.body.msg).toMatch(/rejected; this cannot be undone/);
    const generate = await entry.call('POST', `/imports/${record.id}/reports/0/generate`, { mode: 'new' });
    expect(generate.body.msg).toMatch(/rejected; this cannot be undone/);
    const save = await entry.call('PUT', `/imports/${record.id}/reports/0`, { choices: {} });
    expect(save.body.code).toBe(400);
    const ack = await ackOf(record.id);
    expect(ack.code).toBe('AE');
    expect(ack.reports).toEqual([expect.objectContaining({ code: 'CR', text: 'duplicate' })]);
  });

  it('keeps the records of a project to its members', async () => {
    const outsider = as('outsider');
    const refused = await outsider.upload('mine.xml', sample(FAERS1));
    expect(refused.body).toMatchObject({ code: 403, msg: 'You are not a member of this case’s project' });
    expect((await outsider.call('GET', '/imports')).body.data.total).toBe(0);
    expect((await outsider.call('GET', '/imports/options')).body.data.projects).toEqual([]);
    const [some] = (await entry.call('GET', '/imports?parseStatus=completed')).body.data.items;
    expect((await outsider.call('GET', `/imports/${some.id}/reports/0`)).status).toBe(403);
    expect((await outsider.call('POST', `/imports/${some.id}/reject`, { confirm: true })).status).toBe(403);
  });

  it('lists the records newest first, filtered by state', async () => {
    const list = (await entry.call('GET', '/imports?parseStatus=exception')).body.data;
    expect(list.total).toBeGreaterThanOrEqual(3);
    expect(list.items.every((r: { parseStatus: string }) => r.parseStatus === 'exception')).toBe(true);
    const all = (await as('viewer').call('GET', '/imports?size=50')).body.data;
    const times = all.items.map((r: { importedAt: string }) => r.importedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('generates the report with a reaction removed and a reporter added in the pre-processing', async () => {
    const record = await parsed('faers-items.xml', sample('samples/fda-faers_FAERS2022Scenario4.xml'));
    const compare = (await entry.call('GET', `/imports/${record.id}/reports/0`)).body.data;
    const paths: string[] = compare.rows.map((r: { path: string }) => r.path);
    const removedId = compare.rows.find((r: { path: string }) => r.path === '/reactions/1/id').imported;
    // A drug's causality assessment (G.k.9.i) names the reaction to be removed.
    expect(
      compare.rows.some(
        (r: { path: string; imported?: unknown }) =>
          r.path.endsWith('/reactionId') && r.imported === removedId,
      ),
    ).toBe(true);
    const reporters = new Set(paths.filter((p) => p.startsWith('/reporters/')).map((p) => p.split('/')[2]));
    const removing = Object.fromEntries(
      paths.filter((p) => p.startsWith('/reactions/1/')).map((p) => [p, { source: 'edited' }]),
    );
    const adding = {
      [`/reporters/${reporters.size}/reporterGivenName`]: { source: 'edited', value: '新增报告者' },
    };
    const check = (
      await entry.call('POST', `/imports/${record.id}/reports/0/check`, {
        choices: { ...removing, ...adding },
      })
    ).body.data;
    const choices = { ...clearing(check), ...removing, ...adding };
    const saved = await entry.call('PUT', `/imports/${record.id}/reports/0`, { choices });
    expect(saved.body.code).toBe(200);
    const added = saved.body.data.rows.find(
      (r: { path: string }) => r.path === `/reporters/${reporters.size}/reporterGivenName`,
    );
    expect(added).toMatchObject({ chosen: '新增报告者', source: 'edited' });
    const generated = await entry.call('POST', `/imports/${record.id}/reports/0/generate`, { mode: 'new' });
    expect(generated.body.code).toBe(200);
    const stored = await handle
      .collection(caseCollectionNames.cases)
      .findOne({ _id: generated.body.data.caseId });
    const reactions = stored!.reactions as { id: string }[];
    expect(reactions).toHaveLength(1);
    expect(reactions.map((r) => r.id)).not.toContain(removedId);
    const assessed = (stored!.drugs as { reactionAssessments?: { reactionId: string }[] }[]).flatMap(
      (d) => d.reactionAssessments ?? [],
    );
    expect(assessed.map((a) => a.reactionId)).not.toContain(removedId);
    const storedReporters = stored!.reporters as { reporterGivenName?: string }[];
    expect(storedReporters).toHaveLength(reporters.size + 1);
    expect(storedReporters.at(-1)!.reporterGivenName).toBe('新增报告者');
  });
});
