/**
 * Line-listing and Excel imports through import templates: the templates' own checks and scope, a
 * 200-row Chinese-header line listing into its 60 cases, and malformed workbooks refused with the
 * cell named and nothing half-imported.
 */
import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMeddra, generateWhodrug, meddraFiles, SMALL_MEDDRA, whodrugFiles } from '@pv/engine';
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

const TENANT = permissionsOfArea('tenant');
const authenticator: Authenticator = {
  authenticate: async (token) => {
    const [tenantId, userId] = token.split(':');
    return tenantId && userId ? { tenantId, userId, name: `user ${userId}` } : null;
  },
  authorize: (principal, permission) =>
    TENANT.includes(permission) &&
    !(principal.userId === 'viewer' && /:(import|template)$/.test(permission)) &&
    // E2B importers hold no line-listing permission; line-listing importers no E2B import one.
    !(principal.userId === 'e2bOnly' && permission.startsWith('reportmanagment:lineListing')) &&
    !(principal.userId === 'sheetOnly' && permission.startsWith('reportmanagment:importReport')),
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
const meddra = generateMeddra(SMALL_MEDDRA).en;
const whodrug = generateWhodrug({ records: 30 });

beforeAll(async () => {
  await platform.ready();
  for (const definition of [...usersCollections, ...accessCollections]) await store.define(definition);
  for (const id of ['entry', 'viewer', 'outsider', 'e2bOnly', 'sheetOnly'])
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
  await handle.collection(caseCollectionNames.projects).insertOne({ ...demoProject('p2'), code: 'P2' });
  for (const [projectId, userId] of [
    ['p1', 'entry'],
    ['p2', 'entry'],
    ['p1', 'viewer'],
    ['p2', 'outsider'],
    ['p1', 'e2bOnly'],
    ['p1', 'sheetOnly'],
  ])
    await handle
      .collection('projectMembers')
      .insertOne({ projectId, userId, roleIds: [], permissionKeys: [] });
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
  const m = await dictionaries.importMeddra(handle, meddraFiles(meddra));
  const w = await dictionaries.importWhodrug(handle, whodrugFiles(whodrug), { version: whodrug.version });
  meddraVersionId = m.version.versionId;
  whodrugVersionId = w.version.versionId;
});
afterAll(async () => {
  await runner.stop(1000);
  await files.close();
  await store.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary answer shapes
type Answer = { status: number; body: { code: number; msg: string; data: any } };
const as = (userId: string, lang: 'en' | 'cn' = 'en') => ({
  call: (method: string, path: string, body?: unknown) =>
    call(platform.app, method, `/api${path}`, { token: `t1:${userId}`, body, lang }) as Promise<Answer>,
  upload: (path: string, fileName: string, bytes: Uint8Array, choices: Record<string, string> = {}) => {
    const query = new URLSearchParams({
      projectId: 'p1',
      meddraVersionId,
      whodrugVersionId,
      fileName,
      ...choices,
    });
    return call(platform.app, 'POST', `/api/imports${path}?${query}`, {
      token: `t1:${userId}`,
      rawBody: new Blob([bytes as Uint8Array<ArrayBuffer>]),
      headers: { 'content-type': 'application/octet-stream' },
      lang,
    }) as Promise<Answer>;
  },
});
const entry = as('entry');

/** A line listing template: Chinese headers (English alternatives), one row per reaction or drug. */
const lineListingTemplate = (projectId = 'p1') => ({
  name: '合作方列表',
  kind: 'lineListing',
  projectId,
  headerRow: 1,
  grouping: 'grouped',
  caseColumn: '病例编号',
  dateFormats: ['YYYY-MM-DD', 'YYYY/M/D', 'DD.MM.YYYY'],
  columns: [
    { header: '病例编号', headerAlt: 'Case number', field: 'C.1.1', required: true },
    { header: '报告类型', field: 'C.1.3', valueMap: [{ from: '自发报告', to: '1' }] },
    {
      header: '性别',
      field: 'D.5',
      valueMap: [
        { from: '男', to: '1' },
        { from: 'M', to: '1' },
        { from: '女', to: '2' },
        { from: 'F', to: '2' },
      ],
    },
    { header: '年龄（岁）', field: 'D.2.2a', unit: 'a' },
    { header: '不良反应', field: 'E.i.1.1a', required: true },
    { header: '发生日期', field: 'E.i.4' },
    { header: '药品名称', field: 'G.k.2.2' },
  ],
  defaults: [
    { field: 'G.k.1', value: '1' },
    { field: 'C.1.3', value: '1' },
    { field: 'E.i.9', value: 'CN' },
  ],
});

async function workbook(rows: unknown[][], shape?: (sheet: ExcelJS.Worksheet) => void): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('病例');
  for (const row of rows) sheet.addRow(row);
  shape?.(sheet);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

const HEADER = ['病例编号', '报告类型', '性别', '年龄（岁）', '不良反应', '发生日期', '药品名称'];
const pad = (n: number) => String(n).padStart(2, '0');
const FORMATS = [
  (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`,
  (y: number, m: number, d: number) => `${y}/${m}/${d}`,
  (y: number, m: number, d: number) => `${pad(d)}.${pad(m)}.${y}`,
];

/** 60 cases over 200 rows: each row one reaction and one drug; reactions and drugs repeat across rows. */
function listing() {
  const rows: unknown[][] = [HEADER];
  const expected: { key: string; sex: string; reactions: Set<string>; drugs: Set<string> }[] = [];
  let row = 0;
  for (let i = 0; i < 60; i++) {
    const key = `CN-PARTNER-${String(i + 1).padStart(4, '0')}`;
    const count = i < 20 ? 4 : 3;
    const sex = i % 2 ? '女' : i % 3 ? 'M' : '男';
    const item = { key, sex: i % 2 ? '2' : '1', reactions: new Set<string>(), drugs: new Set<string>() };
    for (let j = 0; j < count; j++, row++) {
      const reaction = meddra.llts[(i + (j % 2)) % meddra.llts.length]!.name;
      const drug = whodrug.drugs[(i + Math.floor(j / 2)) % whodrug.drugs.length]!.name;
      const day = 1 + ((i + (j % 2)) % 27);
      item.reactions.add(reaction);
      item.drugs.add(drug);
      // The same onset written in another of the three formats on each row.
      rows.push([
        key,
        '自发报告',
        sex,
        30 + (i % 40),
        reaction,
        FORMATS[row % 3]!(2024, 1 + (i % 12), day),
        drug,
      ]);
    }
    expected.push(item);
  }
  return { rows, expected };
}

let templateId = '';

async function parsed(path: string, fileName: string, bytes: Uint8Array, id = templateId) {
  const uploaded = await entry.upload(path, fileName, bytes, { templateId: id });
  expect(uploaded.body.code, uploaded.body.msg).toBe(200);
  await runner.tick();
  await runner.idle();
  return (await entry.call('GET', `/imports${path}/${uploaded.body.data.id}`)).body.data;
}

const reportsOf = (recordId: string) => handle.collection('importReports').count({ recordId });

describe('import templates', () => {
  it('are created in a project, checked, and refused with the column named in zh and en', async () => {
    const created = await entry.call('POST', '/imports/templates', lineListingTemplate());
    expect(created.body.code, created.body.msg).toBe(200);
    templateId = created.body.data.id;

    const bad = {
      ...lineListingTemplate(),
      name: 'bad',
      columns: [
        ...lineListingTemplate().columns,
        { header: '性别2', field: 'D.5' },
        { header: '结局', field: 'E.i.7', valueMap: [{ from: '痊愈', to: '9' }] },
        { header: '未知', field: 'X.1' },
      ],
    };
    const refused = await entry.call('POST', '/imports/templates', bad);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(
      "The import template has 3 problems: Columns '性别2' and '性别' both map to case field D.5",
    );
    expect(refused.body.data.problems.map((p: { key: string }) => p.key)).toEqual([
      'imports.template.duplicateMapping',
      'imports.template.unknownCode',
      'imports.template.unknownField',
    ]);
    const zh = await as('entry', 'cn').call('POST', '/imports/templates', bad);
    expect(zh.body.msg).toBe('导入模板有 3 处错误：列“性别2”与列“性别”都映射到病例字段 D.5');
    // Same name and kind in the same project: refused.
    expect((await entry.call('POST', '/imports/templates', lineListingTemplate())).body.msg).toMatch(
      /already has an import template/,
    );
    expect(await handle.collection('importTemplates').count()).toBe(1);
  });

  it('are read, edited and copied in their own project only', async () => {
    const read = await entry.call('GET', `/imports/templates/${templateId}`);
    expect(read.body.data).toMatchObject({ name: '合作方列表', projectId: 'p1', grouping: 'grouped' });
    // Not a member of p1: the template is not theirs to read, whatever header they send.
    expect((await as('outsider').call('GET', `/imports/templates/${templateId}`)).status).toBe(403);
    expect(
      (await as('viewer').call('PUT', `/imports/templates/${templateId}`, { ...read.body.data })).status,
    ).toBe(403);
    const { id: _id, projectId: _p, createdAt: _c, updatedAt: _u, ...editable } = read.body.data;
    const edited = await entry.call('PUT', `/imports/templates/${templateId}`, {
      ...editable,
      sheet: '病例',
    });
    expect(edited.body.code, edited.body.msg).toBe(200);
    expect(edited.body.data).toMatchObject({ sheet: '病例', projectId: 'p1' });
    // Copying needs a target project the caller may configure.
    expect((await entry.call('POST', `/imports/templates/${templateId}/copy`, {})).status).toBe(400);
    expect(
      (await as('viewer').call('POST', `/imports/templates/${templateId}/copy`, { projectId: 'p2' })).status,
    ).toBe(403);
    const copy = await entry.call('POST', `/imports/templates/${templateId}/copy`, { projectId: 'p2' });
    expect(copy.body.data).toMatchObject({ projectId: 'p2', name: '合作方列表', sheet: '病例' });
    const listed = await as('outsider').call('GET', '/imports/templates');
    expect(listed.body.data.items.map((t: { projectId: string }) => t.projectId)).toEqual(['p2']);
  });
});

describe('line-listing import', () => {
  it('imports 200 rows in Chinese headers, three date formats, into the right 60 cases', async () => {
    const { rows, expected } = listing();
    const record = await parsed('/line-listings', 'partner.xlsx', await workbook(rows));
    expect(record).toMatchObject({
      kind: 'lineListing',
      parseStatus: 'completed',
      reportCount: 60,
      templateName: '合作方列表',
      exception: null,
    });
    expect(record.reports).toHaveLength(60);
    const stored = await handle
      .collection<{ index: number; senderReportId: string; document: Record<string, never> }>('importReports')
      .find({ recordId: record.id }, { sort: { index: 1 } });
    stored.forEach((report, i) => {
      const want = expected[i]!;
      const doc = report.document as unknown as {
        report: { reportCode: string; reportType: string };
        patient: { gender: string; age: number; ageUnit: string };
        reactions: {
          reactionNative: string;
          startDate: string;
          meddraCode?: string;
          meddraPtCode?: string;
        }[];
        drugs: { drugName: string; drugCharacterisation: string; whodrugCode?: string }[];
      };
      expect(report.senderReportId).toBe(want.key);
      expect(doc.report).toMatchObject({ reportCode: want.key, reportType: '1' });
      expect(doc.patient.gender).toBe(want.sex);
      expect(doc.patient.ageUnit).toBe('a');
      expect(doc.reactions.map((r) => r.reactionNative).sort()).toEqual([...want.reactions].sort());
      expect(doc.drugs.map((d) => d.drugName).sort()).toEqual([...want.drugs].sort());
      // The verbatims are LLT names of the chosen release: coded; the drug names are WHODrug names: coded.
      for (const reaction of doc.reactions) {
        expect(reaction.meddraCode).toMatch(/^\d+$/);
        expect(reaction.meddraPtCode).toMatch(/^\d+$/);
        expect(reaction.startDate).toMatch(/^2024\d{4}$/);
      }
      for (const drug of doc.drugs) {
        expect(drug.whodrugCode).toBeTruthy();
        expect(drug.drugCharacterisation).toBe('1');
      }
    });

    // The line-listing menu's own permissions, not the E2B import's (the record's kind decides).
    const e2bOnly = as('e2bOnly');
    expect((await e2bOnly.call('GET', `/imports/line-listings/${record.id}/reports/0`)).status).toBe(403);
    expect((await e2bOnly.call('GET', `/imports/${record.id}/reports/0`)).status).toBe(404);
    const sheetOnly = as('sheetOnly');
    expect((await sheetOnly.call('GET', '/imports/line-listings/options')).status).toBe(200);
    expect((await sheetOnly.call('GET', '/imports/options')).status).toBe(403);
    expect((await sheetOnly.call('GET', `/imports/line-listings/${record.id}`)).status).toBe(200);
    // Through the comparison screen and generation.
    const compared = await sheetOnly.call('GET', `/imports/line-listings/${record.id}/reports/0`);
    expect(compared.body.code, compared.body.msg).toBe(200);
    const generated = await sheetOnly.call('POST', `/imports/line-listings/${record.id}/reports/0/generate`, {
      mode: 'new',
    });
    expect(generated.body.code, generated.body.msg).toBe(200);
    const listed = await entry.call('GET', '/imports/line-listings?page=1&size=10');
    expect(listed.body.data.items[0]).toMatchObject({ id: record.id, processingStatus: 'processing' });
    // The E2B list does not show workbook imports.
    const e2b = await entry.call('GET', '/imports?page=1&size=10');
    expect(e2b.body.data.items.map((r: { id: string }) => r.id)).not.toContain(record.id);
  });

  it('refuses an .xls, and a template of another project or kind, before storing anything', async () => {
    const before = await handle.collection('importRecords').count();
    const xls = await entry.upload('/line-listings', 'old.xls', new Uint8Array([1, 2, 3]), { templateId });
    expect(xls.body).toMatchObject({
      code: 400,
      msg: 'Old .xls files are not supported; save the file as .xlsx in Excel and import it again',
    });
    const zh = await as('entry', 'cn').upload('/line-listings', 'old.xls', new Uint8Array([1]), {
      templateId,
    });
    expect(zh.body.msg).toBe('不支持旧版 .xls 文件，请在 Excel 中另存为 .xlsx 后再导入');
    const wrongKind = await entry.upload('/excel', 'a.xlsx', new Uint8Array([1]), { templateId });
    expect(wrongKind.status).toBe(400);
    const viewer = await as('viewer').upload('/line-listings', 'a.xlsx', new Uint8Array([1]), { templateId });
    expect(viewer.status).toBe(403);
    expect(await handle.collection('importRecords').count()).toBe(before);
  });

  it('takes a CIOMS PDF through its own path, permissions and parse job; a file that is no PDF is refused with the reason', async () => {
    // The CIOMS menu's own import permission is checked (the viewer holds no `:import` button).
    expect((await as('viewer').upload('/cioms', 'form.pdf', new Uint8Array([1]))).status).toBe(403);
    expect((await entry.upload('/cioms', 'form.xlsx', new Uint8Array([1]))).status).toBe(400);
    const uploaded = await entry.upload('/cioms', 'form.pdf', new TextEncoder().encode('not a pdf'));
    expect(uploaded.body.code, uploaded.body.msg).toBe(200);
    await runner.tick();
    await runner.idle();
    const record = (await entry.call('GET', `/imports/cioms/${uploaded.body.data.id}`)).body.data;
    expect(record).toMatchObject({ kind: 'cioms', parseStatus: 'exception', processingStatus: 'exception' });
    expect(record.exception.message.en).toMatch(/form\.pdf is not a PDF file/);
    expect((await entry.call('GET', `/imports/${uploaded.body.data.id}`)).status).toBe(404);
    const listed = await entry.call('GET', '/imports/cioms?page=1&size=10');
    expect(listed.body.data.items.map((r: { id: string }) => r.id)).toContain(record.id);
  });

  const refusals: [string, () => Promise<Uint8Array>, RegExp][] = [
    [
      'a missing required column',
      () =>
        workbook([HEADER.filter((h) => h !== '不良反应'), ['C-1', '自发报告', '男', 40, '2024-01-02', 'x']]),
      /The required column '不良反应' \(E\.i\.1\.1a\) is missing/,
    ],
    [
      'an unknown code',
      () =>
        workbook([
          HEADER,
          ['C-1', '自发报告', '男', 40, 'Headache-like', '2024-01-02', 'x'],
          ['C-2', '自发报告', 'X', 40, 'r', '2024-01-02', 'x'],
        ]),
      /Sheet '病例', row 3, column C \(性别\): 'X' is not a code of field D\.5/,
    ],
    [
      'merged header cells',
      () =>
        workbook([HEADER, ['C-1', '自发报告', '男', 40, 'r', '2024-01-02', 'x']], (s) =>
          s.mergeCells('A1:B1'),
        ),
      /header row has merged cells A1:B1/,
    ],
    [
      'a formula cell',
      () =>
        workbook([HEADER, ['C-1', '自发报告', '男', 40, 'r', '2024-01-02', 'x']], (s) => {
          s.getCell('D2').value = { formula: '20*2', result: 40 };
        }),
      /row 2, column D \(年龄（岁）\): The cell holds a formula/,
    ],
    [
      'a zip bomb renamed .xlsx',
      async () =>
        zipSync({ 'xl/worksheets/sheet1.xml': new Uint8Array(20 * 1024 * 1024).fill(32) }, { level: 9 }),
      /compression ratio limit/,
    ],
    ['a file that is no workbook', async () => strToU8('name,sex\na,b\n'), /not a valid \.xlsx workbook/],
  ];
  for (const [what, make, message] of refusals)
    it(`refuses ${what} with the place named, nothing imported`, async () => {
      const record = await parsed('/line-listings', 'bad.xlsx', await make());
      expect(record).toMatchObject({ parseStatus: 'exception', processingStatus: 'exception', reports: [] });
      expect(record.exception.message.en).toMatch(message);
      expect(record.exception.message.zh).not.toBe(record.exception.message.en);
      expect(await reportsOf(record.id)).toBe(0);
    });

  it('reads past 10 MB of empty rows and imports the cases around them', async () => {
    const small = await workbook([HEADER, ['E-1', '自发报告', '男', 40, 'r1', '2024-01-02', 'x']]);
    const parts = unzipSync(small);
    const sheet = new TextDecoder().decode(parts['xl/worksheets/sheet1.xml']);
    const empty: string[] = [];
    for (let r = 3; r < 360_000; r++) empty.push(`<row r="${r}" spans="1:7"/>`);
    const last = `<row r="360000"><c r="A360000" t="inlineStr"><is><t>E-1</t></is></c><c r="E360000" t="inlineStr"><is><t>r2</t></is></c></row>`;
    parts['xl/worksheets/sheet1.xml'] = strToU8(
      sheet.replace('</sheetData>', `${empty.join('')}${last}</sheetData>`),
    );
    const bytes = zipSync(parts, { level: 6 });
    expect(parts['xl/worksheets/sheet1.xml']!.length).toBeGreaterThan(10_000_000);
    const record = await parsed('/line-listings', 'empty-rows.xlsx', bytes);
    expect(record.exception).toBeNull();
    expect(record.reportCount).toBe(1);
    const [report] = await handle
      .collection<{ document: { reactions: { reactionNative: string }[] } }>('importReports')
      .find({ recordId: record.id });
    expect(report!.document.reactions.map((r) => r.reactionNative)).toEqual(['r1', 'r2']);
  });
});

describe('duplicates at intake', () => {
  it('shows the candidates of a re-sent case, makes one the follow-up of its candidate and rejects another as a duplicate', async () => {
    // The first listing's case CN-PARTNER-0001 became a case (report 0 above); mark it completed.
    const [first] = await handle
      .collection<{ _id: string; report: { otherCaseIdentifiers?: { identifier: string }[] } }>(
        caseCollectionNames.cases,
      )
      .find({});
    await handle
      .collection(caseCollectionNames.cases)
      .updateOne({ _id: first!._id }, { $set: { 'state.isCompleted': true } });
    // The partner sends the same two patients again under new numbers, one with an onset a day off.
    const { rows } = listing();
    const again = rows.slice(0, 5).map((row, i) => (i === 0 ? row : [...row]));
    for (const row of again.slice(1)) row[0] = 'CN-OTHER-0001';
    (again[1] as unknown[])[5] = '2024-01-02';
    const record = await parsed('/line-listings', 'resent.xlsx', await workbook(again));
    expect(record.reportCount).toBe(1);
    const compared = (await entry.call('GET', `/imports/line-listings/${record.id}/reports/0`)).body.data;
    // No shared identifier: the sender-id match finds nothing, the probabilistic match does.
    expect(compared.existing).toBeNull();
    const candidate = compared.duplicates.find((d: { caseId: string }) => d.caseId === first!._id);
    expect(candidate).toMatchObject({ identifierMatch: false });
    expect(candidate.score).toBeGreaterThan(0);
    expect(candidate.matched).toEqual(expect.arrayContaining(['sex', 'reactions', 'suspectDrugs']));

    // Compared with the candidate: its values are offered field by field; the choice is saved.
    const chosen = (
      await entry.call('GET', `/imports/line-listings/${record.id}/reports/0?caseId=${first!._id}`)
    ).body.data;
    expect(chosen.existing).toMatchObject({ caseId: first!._id, matchedBy: 'chosen' });
    expect(
      (await as('outsider').call('GET', `/imports/line-listings/${record.id}/reports/0?caseId=${first!._id}`))
        .status,
    ).toBe(403);
    const saved = await entry.call('PUT', `/imports/line-listings/${record.id}/reports/0`, {
      choices: {},
      caseId: first!._id,
    });
    expect(saved.body.code, saved.body.msg).toBe(200);
    const followUp = await entry.call('POST', `/imports/line-listings/${record.id}/reports/0/generate`, {
      mode: 'followUp',
      reason: 'Partner re-sent the case',
    });
    expect(followUp.body.code, followUp.body.msg).toBe(200);
    expect(followUp.body.data).toMatchObject({ caseId: first!._id, outcome: 'followUp' });
    const stored = await handle
      .collection<{ state: { version: number } }>(caseCollectionNames.cases)
      .findOne({ _id: first!._id });
    expect(stored!.state.version).toBe(2);

    // The same file again: rejected as a duplicate of that case, for good.
    const third = await parsed('/line-listings', 'resent-again.xlsx', await workbook(again));
    const unknown = await entry.call('POST', `/imports/line-listings/${third.id}/reports/0/reject`, {
      confirm: true,
      duplicateOf: 'no-such-case',
    });
    expect(unknown.status).toBe(400);
    const rejected = await entry.call('POST', `/imports/line-listings/${third.id}/reports/0/reject`, {
      confirm: true,
      duplicateOf: first!._id,
    });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', duplicateOf: first!._id });
    const after = (await entry.call('GET', `/imports/line-listings/${third.id}`)).body.data;
    expect(after).toMatchObject({ processingStatus: 'processed', finished: true });
    expect(
      (await entry.call('POST', `/imports/line-listings/${third.id}/reports/0/generate`, { mode: 'new' }))
        .status,
    ).toBe(400);
  });
});
