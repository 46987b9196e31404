import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { LINE_LISTING_TYPES, caseListDefinition, codelists } from '@pv/engine';
import { C } from '../cases';
import { createCasesModule, workbenchModule } from '../cases/index';
import type { Project } from '../cases';
import { caseRig, demoProject, filledCaseOf } from '../cases/testing';
import { loadEntity } from '../entities';
import { JobRunner } from '../jobs';
import { masterdataModule } from '../masterdata';
import { reportCodesModule } from '../report-codes';
import { createUnblindingModule } from '../unblinding';
import { workflowModule } from '../workflow';
import { DOWNLOAD_TASKS } from './collections';
import { PURGE_JOB } from './housekeeping';
import { downloadsModule } from './index';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely in assertions

let nowMs = Date.parse('2026-11-21T08:00:00Z');
const rig = await caseRig({
  files: true,
  clock: { now: () => new Date(nowMs) },
  users: [
    { id: 'entry', name: '录入员小王' },
    { id: 'qc', name: '质控员小李' },
    { id: 'other', name: '另一项目录入员' },
    { id: 'stranger', name: '未分配项目的用户' },
  ],
  modules: [
    createCasesModule(),
    workbenchModule,
    workflowModule,
    reportCodesModule,
    masterdataModule,
    createUnblindingModule(),
    downloadsModule,
  ],
});
const files = rig.files!;
afterAll(() => rig.close());
const tenant = rig.store.tenant('t1', { userId: 'system:test' });
await tenant.collection<Project>(C.projects).insertOne(demoProject('p2'));
const members = tenant.collection('projectMembers');
// entry and qc work in p1, other in p2, stranger nowhere.
for (const userId of ['other', 'stranger']) await members.deleteOne({ projectId: 'p1', userId });
await members.insertOne({ projectId: 'p2', userId: 'other', roleIds: [], permissionKeys: [] });
await rig.store
  .platform({ userId: 'system:test' })
  .collection('tenants')
  .insertOne({ _id: 't1', code: 't1', name: '测试租户' });

const p1Cases: Awaited<ReturnType<typeof filledCaseOf>>[] = [];
for (const n of [1, 2, 3]) p1Cases.push(await filledCaseOf(rig, 'entry', 'p1', n));
const p2Case = await filledCaseOf(rig, 'other', 'p2', 4);

const runner = new JobRunner(rig.platform.deps, rig.platform.jobDefinitions, { owner: 'test' });
async function runJobs() {
  await runner.tick();
  await runner.idle();
}

/** A raw download (files are not envelopes). */
function download(taskId: string, userId = 'entry', tenantId = 't1') {
  return rig.platform.app.request(`/api/downloads/tasks/${taskId}/file`, {
    headers: { authorization: `Bearer ${tenantId}:${userId}`, 'lang-type': 'en' },
  });
}

async function sheetRows(response: Response): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: string[][] = [];
  // Every cell up to the header's width: an empty trailing cell reads as ''.
  const width = sheet.getRow(1).cellCount;
  sheet.eachRow((row) => {
    const cells = Array.from({ length: width }, (_, i) => row.getCell(i + 1).value);
    rows.push(cells.map((v) => (v == null ? '' : String(v))));
  });
  return rows;
}

const codeLabel = (list: string, code: unknown) =>
  code == null ? '' : (codelists[list]!.values.find((v) => v.code === code)?.en ?? String(code));

async function start(userId: string, body: Data, lang: 'cn' | 'en' = 'en'): Promise<Data> {
  const answer = await rig.as(userId).call('POST', '/downloads/case-line-listing', body, lang);
  expect(answer.body.code, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as Data;
}

const myTasks = async (userId = 'entry') =>
  (await rig.as(userId).call('GET', '/downloads/tasks')).body.data as { total: number; items: Data[] };

describe('case line listing download task', () => {
  it('writes every case the list query selects, in list order, with the chosen columns and English headers', async () => {
    const query = { tab: 'all', sort: { column: 'reportCode', direction: 'desc' } };
    // transmission: a column the summary holds beside the document's values (source: summary).
    const columns = [
      'reportCode',
      'project',
      'reportType',
      'isSae',
      'drugName',
      'transmission',
      'reportDateFirst',
    ];
    const task = await start('entry', { query, columns });
    expect(task).toMatchObject({
      status: 'queued',
      percent: 0,
      kind: 'caseLineListing',
      // The kind's label comes from its declaration, in both languages.
      label: { zh: '病例列表（XLSX）', en: 'Case line listing (XLSX)' },
      size: null,
    });
    // The file's store id is never shown: the owner-only route is the one way to it.
    expect(task).not.toHaveProperty('fileId');
    expect(task.fileName).toMatch(/^case-line-listing_\d{8}-\d{6}\.xlsx$/);

    await runJobs();
    const [done] = (await myTasks()).items;
    expect(done).toMatchObject({ taskId: task.taskId, status: 'succeeded', percent: 100, rows: 3 });
    expect(done!.size).toBeGreaterThan(0);
    expect(done!.finishedAt).toBe(new Date(nowMs).toISOString());
    expect(done!.expiresAt).toBe(new Date(nowMs + 7 * 86_400_000).toISOString());

    const response = await download(task.taskId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain(task.fileName);
    const rows = await sheetRows(response);
    const label = (id: string) => caseListDefinition.columns.find((c) => c.id === id)!.label.en;
    expect(rows[0]).toEqual(columns.map(label));

    const list = (await rig.as('entry').call('POST', '/cases/search', { ...query, size: 200 })).body.data;
    expect(list.total).toBe(3);
    const expected = list.items.map((item: Data) => [
      item.values.report_reportCode,
      // The project by its code (names as the requester sees them), never its id.
      'PV-P1',
      'Report from study',
      item.values.state_isSae === true ? 'Yes' : item.values.state_isSae === false ? 'No' : '',
      (item.values.drugs_drugName as string[]).join('; '),
      codeLabel('transmissionStatus', item.values.transmission_status),
      // E2B dates in ISO order (20261120 -> 2026-11-20).
      String(item.values.report_reportDateFirst).replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3'),
    ]);
    expect(String(expected[0]![6])).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(rows.slice(1)).toEqual(expected);
    expect(expected[0]![0]).not.toBe('');
  });

  it('writes Chinese headers and values for a caller reading Chinese, and applies the filters', async () => {
    const target = p1Cases[1]!.doc.report.reportCode as string;
    const task = await start(
      'entry',
      { query: { filters: { reportCode: target } }, columns: ['reportCode', 'reportType'] },
      'cn',
    );
    expect(task.fileName).toMatch(/^病例列表_/);
    await runJobs();
    const rows = await sheetRows(await download(task.taskId));
    expect(rows).toEqual([
      ['报告编号', '报告类型'],
      [target, '研究报告'],
    ]);
  });

  it('exports only the cases of the projects the caller works in', async () => {
    const other = await start('other', {});
    await runJobs();
    const rows = await sheetRows(await download(other.taskId, 'other'));
    expect(rows).toHaveLength(2);
    expect(rows[1]![0]).toBe(p2Case.doc.report.reportCode);
    expect(rows.flat()).not.toContain(p1Cases[0]!.doc.report.reportCode);

    const refused = await rig.as('stranger').call('POST', '/downloads/case-line-listing', {});
    expect(refused.body.code).toBe(400);
    expect(refused.body.msg).toBe('There are no reports to export: you are not a member of any project');
    expect((await myTasks('stranger')).total).toBe(0);
  });

  it('refuses an unknown column or tab and starts nothing', async () => {
    const before = (await myTasks()).total;
    for (const body of [{ columns: ['nope'] }, { query: { tab: 'nope' } }, { columns: [] }]) {
      const answer = await rig.as('entry').call('POST', '/downloads/case-line-listing', body);
      expect(answer.body.code, JSON.stringify(body)).toBe(400);
    }
    expect((await myTasks()).total).toBe(before);
  });

  it('lets only the owner list, download and delete a task; other tenants reach nothing', async () => {
    const task = await start('entry', { columns: ['reportCode'] });
    await runJobs();
    expect((await myTasks('qc')).items.map((t) => t.taskId)).not.toContain(task.taskId);
    expect((await download(task.taskId, 'qc')).status).toBe(404);
    expect((await download(task.taskId, 'entry', 't2')).status).toBe(404);
    expect((await rig.as('qc').call('DELETE', `/downloads/tasks/${task.taskId}`)).body.code).toBe(404);
    expect((await download(task.taskId)).status).toBe(200);
  });

  it('deletes a task with its file; a queued task is canceled and leaves no file behind', async () => {
    // Columns no other test exports: the store keeps identical bytes once (content addressed).
    const finished = await start('entry', { columns: ['reportCode', 'version'] });
    const twin = await start('entry', { columns: ['reportCode', 'version'] });
    await runJobs();
    const stored = await tenant.collection(DOWNLOAD_TASKS).findOne({ _id: finished.taskId });
    const fileId = stored!.fileId as string;
    expect(await files.forTenant(tenant).stat(fileId)).not.toBeNull();
    const twinFile = (await tenant.collection(DOWNLOAD_TASKS).findOne({ _id: twin.taskId }))!.fileId;
    expect(twinFile).toBe(fileId);
    // The same bytes held by another task stay until the last task holding them goes.
    await rig.as('entry').call('DELETE', `/downloads/tasks/${twin.taskId}`);
    expect(await files.forTenant(tenant).stat(fileId)).not.toBeNull();
    const deleted = await rig.as('entry').call('DELETE', `/downloads/tasks/${finished.taskId}`);
    expect(deleted.body.data).toEqual({ deleted: true });
    expect(await files.forTenant(tenant).stat(fileId)).toBeNull();
    expect((await download(finished.taskId)).status).toBe(404);
    expect((await myTasks()).items.map((t) => t.taskId)).not.toContain(finished.taskId);

    const queued = await start('entry', { columns: ['reportCode'] });
    await rig.as('entry').call('DELETE', `/downloads/tasks/${queued.taskId}`);
    await runJobs();
    expect(await tenant.collection(DOWNLOAD_TASKS).findOne({ _id: queued.taskId })).toBeNull();
    expect((await rig.platform.deps.jobs.get(`download-${queued.taskId}`))?.status).toBe('canceled');
  });

  it('refuses a fourth task while three of the caller are queued or running', async () => {
    for (let n = 0; n < 3; n += 1) await start('qc', { columns: ['reportCode'] });
    const refused = await rig.as('qc').call('POST', '/downloads/case-line-listing', {});
    expect(refused.body.code).toBe(400);
    expect(refused.body.msg).toBe(
      'You already have 3 download tasks queued or running; export again when one has finished',
    );
    expect((await myTasks('qc')).total).toBe(3);
    await runJobs();
    await start('qc', { columns: ['reportCode'] });
    await runJobs();
  });

  it('refuses a download before the file is built', async () => {
    const task = await start('entry', { columns: ['reportCode'] });
    const early = await download(task.taskId);
    expect(early.status).toBe(400);
    expect(((await early.json()) as Data).msg).toBe(
      'The file is not ready yet; download it when the task has finished',
    );
    await runJobs();
  });

  it('shows a task whose job failed after its retries as failed, with the translated reason', async () => {
    const task = await start('entry', { columns: ['reportCode'] });
    // The job's stored query names a tab the list no longer has: every attempt is refused.
    const jobs = rig.store.platform({ userId: 'system:test' }).collection('jobs');
    await jobs.updateOne(
      { _id: `download-${task.taskId}` },
      { $set: { 'payload.query': { tab: 'retired' }, maxAttempts: 1 } },
    );
    await runJobs();
    const failed = (await myTasks()).items.find((t) => t.taskId === task.taskId)!;
    expect(failed).toMatchObject({ status: 'failed', size: null, rows: null });
    // The refusal in the requester's language when the task started (English here).
    expect(failed.error).toBe('The export failed: Invalid tab: retired');
    const zh = (await rig.as('entry').call('GET', '/downloads/tasks', undefined, 'cn')).body.data.items;
    expect(zh.find((t: Data) => t.taskId === task.taskId).error).toBe('导出失败：Invalid tab: retired');
    expect((await download(task.taskId)).status).toBe(400);
    expect((await rig.as('entry').call('DELETE', `/downloads/tasks/${task.taskId}`)).body.code).toBe(200);
  });

  it('purges expired tasks and their files with the housekeeping job; newer ones stay', async () => {
    const old = await start('entry', { columns: ['reportCode'] });
    await runJobs();
    const oldFile = (await tenant.collection(DOWNLOAD_TASKS).findOne({ _id: old.taskId }))!.fileId as string;
    nowMs += 6 * 86_400_000;
    const fresh = await start('entry', { columns: ['reportCode', 'project'] });
    await runJobs();
    nowMs += 1 * 86_400_000 + 60_000;

    // Past its expiry the file is refused even before the purge runs.
    const expired = await download(old.taskId);
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as Data).msg).toBe(
      'The file has passed its retention period and was removed; export again',
    );

    await rig.platform.deps.jobs.enqueue(PURGE_JOB, {}, { jobId: 'purge-test' });
    await runJobs();
    const purge = await rig.platform.deps.jobs.get('purge-test');
    expect(purge?.status).toBe('succeeded');
    expect((purge?.result as { removed: number }).removed).toBeGreaterThanOrEqual(1);
    const left = (await myTasks()).items.map((t) => t.taskId);
    expect(left).not.toContain(old.taskId);
    expect(left).toContain(fresh.taskId);
    expect(await files.forTenant(tenant).stat(oldFile)).toBeNull();
    expect((await download(fresh.taskId)).status).toBe(200);
  });
});

describe('line-listing templates', () => {
  const catalogue = rig.store.platform({ userId: 'system:test' }).collection('lineListingFields');
  const field = (fieldKey: string, nameCn: string, nameEn: string, casePath: string, e2bId?: string) =>
    catalogue.insertOne({
      fieldKey,
      nameCn,
      nameEn,
      casePath,
      ...(e2bId ? { e2bId } : {}),
      valueType: 'text',
      status: 'normal',
      deleted: false,
    });
  const base = '/downloads/line-listing-templates';

  it('keeps a project template of catalogue fields, refuses duplicates, copies only to a named project', async () => {
    await field('caseNo', '病例编号', 'Case number', '/report/reportCode', 'C.1.1');
    await field('pt', '首选术语', 'Preferred term', '/reactions/*/meddraPtName');
    await field('sex', '性别', 'Sex', '/patient/gender', 'D.5');
    await catalogue.insertOne({
      fieldKey: 'old',
      nameCn: '旧',
      nameEn: 'Old',
      casePath: '/x',
      status: 'disabled',
    });
    // The template editor's choices: the fields in use, each named with its E2B id or case path.
    const choices = await rig.as('entry').call('GET', '/downloads/line-listing-fields?page=1&size=200');
    expect(choices.body.data.items.map((c: Data) => [c.fieldKey, c.labelEn])).toEqual([
      ['caseNo', 'Case number (C.1.1)'],
      ['pt', 'Preferred term (/reactions/*/meddraPtName)'],
      ['sex', 'Sex (D.5)'],
    ]);
    expect((await rig.as('other').call('GET', '/downloads/line-listing-fields')).status).toBe(200);
    // The editor's form and the body are the entity's; its types are the engine's.
    expect(loadEntity('line-listing-template').properties.type?.enum).toEqual([...LINE_LISTING_TYPES]);
    const body = {
      projectId: 'p1',
      type: 'susar',
      name: 'SUSAR 列表',
      fields: [{ fieldKey: 'caseNo' }, { fieldKey: 'pt', nameEn: 'PT' }, { fieldKey: 'sex' }],
    };
    const created = await rig.as('entry').call('POST', base, body);
    expect(created.status).toBe(200);
    expect(created.body.data.fields.map((f: Data) => [f.nameEn, f.ref])).toEqual([
      ['Case number', 'C.1.1'],
      ['PT', '/reactions/*/meddraPtName'],
      ['Sex', 'D.5'],
    ]);
    // SPEC 5: duplicate Chinese or English field names, a name taken, a field outside the catalogue.
    const dupZh = await rig
      .as('entry')
      .call(
        'POST',
        base,
        { ...body, name: 'x', fields: [{ fieldKey: 'caseNo' }, { fieldKey: 'pt', nameCn: '病例编号' }] },
        'cn',
      );
    expect(dupZh.status).toBe(400);
    expect(dupZh.body.msg).toBe('模板中中文字段名 病例编号 重复');
    const dupEn = await rig.as('entry').call('POST', base, {
      ...body,
      name: 'y',
      fields: [{ fieldKey: 'caseNo' }, { fieldKey: 'sex', nameEn: 'case NUMBER' }],
    });
    expect(dupEn.body.msg).toBe('The English field name case NUMBER is used twice in the template');
    expect((await rig.as('entry').call('POST', base, body)).body.msg).toContain('already has');
    expect(
      (await rig.as('entry').call('POST', base, { ...body, name: 'z', fields: [{ fieldKey: 'nope' }] }))
        .status,
    ).toBe(400);
    expect((await rig.as('entry').call('POST', base, { ...body, name: ' ' })).status).toBe(400);

    const id = created.body.data.id as string;
    expect((await rig.as('entry').call('POST', `${base}/${id}/copy`, {})).status).toBe(400);
    // The target project is checked in its own right: entry works in p1 only.
    expect((await rig.as('entry').call('POST', `${base}/${id}/copy`, { projectId: 'p2' })).status).toBe(403);
    expect(
      (await rig.as('other').call('PUT', `${base}/${id}`, { ...body, projectId: undefined, rev: 1 })).status,
    ).toBe(403);
    const copy = await rig
      .as('entry')
      .call('POST', `${base}/${id}/copy`, { projectId: 'p1', name: 'SUSAR 副本' });
    expect(copy.body.data).toMatchObject({ projectId: 'p1', name: 'SUSAR 副本', type: 'susar' });

    const listed = (await rig.as('entry').call('GET', base)).body.data.items as Data[];
    expect(listed[0]).toMatchObject({
      id: 'builtin:dsurSeriousAdr',
      builtIn: true,
      name: 'DSUR serious ADR line listing',
    });
    expect(listed.map((t) => t.name)).toEqual(expect.arrayContaining(['SUSAR 列表', 'SUSAR 副本']));
    expect((await rig.as('other').call('GET', base)).body.data.items).toHaveLength(1);
  });

  it('lays the line listing out by a chosen template, and the DSUR fields exist as a built-in one', async () => {
    const listed = (await rig.as('entry').call('GET', `${base}?type=susar`)).body.data.items as Data[];
    const template = listed.find((t) => t.name === 'SUSAR 列表')!;
    // Another project's template cannot lay out someone's listing.
    expect(
      (await rig.as('other').call('POST', '/downloads/case-line-listing', { templateId: template.id }))
        .status,
    ).toBe(400);
    const task = await start('entry', { templateId: template.id, query: { tab: 'all' } });
    const dsur = await start('entry', { templateId: 'builtin:dsurSeriousAdr' }, 'cn');
    await runJobs();
    const rows = await sheetRows(await download(task.taskId));
    expect(rows[0]).toEqual(['Case number', 'PT', 'Sex']);
    expect(
      rows
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(p1Cases.map((c) => c.doc.report.reportCode).sort());
    const dsurRows = await sheetRows(await download(dsur.taskId));
    expect(dsurRows[0]).toHaveLength(24);
    expect(dsurRows[0]!.slice(0, 3)).toEqual(['系统器官分类', 'EudraCT/试验编号', '病例编号']);
    expect(dsurRows).toHaveLength(1 + p1Cases.length);
  });
});
