import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { checkWorkflow, unblindingWorkflow } from '@pv/engine';
import { createCasesModule, workbenchModule } from '../cases/index';
import { TENANT_PERMISSIONS, caseRig, expectRefused, filledCaseOf, recordingSigner } from '../cases/testing';
import { workflowModule } from '../workflow';
import { reportCodesModule } from '../report-codes';
import { projectsModule } from '../projects';
import { auditService } from '../audit';
import { messagesModule } from '../messages';
import { createUnblindingModule } from './index';
import { listWorkbook, uploadList } from './testing';
import { LIST_MAX_INFLATED } from './workbook';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely in assertions

const P = {
  apply: 'casemanagement:unblindingManagement:apply',
  approve: 'casemanagement:unblindingManagement:approve',
  handle: 'casemanagement:unblindingManagement:handle',
  list: 'casemanagement:unblindingManagement:blindBottom',
};
const except = (...allowed: string[]) => Object.values(P).filter((p) => !allowed.includes(p));

const signer = recordingSigner();
const rig = await caseRig({
  modules: [
    createCasesModule({ signer }),
    workbenchModule,
    workflowModule,
    reportCodesModule,
    projectsModule,
    createUnblindingModule({ signer }),
    messagesModule,
  ],
  users: [
    { id: 'entry', name: '录入员小王', deny: except() },
    { id: 'applicant', name: '揭盲申请人', deny: except(P.apply) },
    { id: 'approver', name: '揭盲审批人', deny: except(P.approve) },
    { id: 'person', name: '揭盲人', deny: except(P.handle) },
    { id: 'other', name: '另一揭盲人', deny: except(P.handle) },
    { id: 'owner', name: '盲底管理员', deny: except(P.list) },
    { id: 'nobody', name: '无权限', deny: TENANT_PERMISSIONS },
  ],
});
afterAll(() => rig.close());
await messagesModule.seed!(rig.platform.deps);
/** The caller's messages of cases handed to them, newest first. */
const inbox = async (who: string) =>
  ((await rig.as(who).call('GET', '/messages', undefined, 'en')).body.data.items as Data[]).filter(
    (m) => m.event === 'case.assigned',
  );

const one = await filledCaseOf(rig, 'entry', 'p1', 1);
const subject = (one.doc.patient as { subjectNumber: string }).subjectNumber;
const rows = [
  {
    randomisationNumber: 'R0001',
    subjectNumber: subject,
    treatmentGroup: 'A',
    productNumber: 'PN-7731',
    kitBatch: 'KIT-55',
    route: 'Oral',
  },
  {
    randomisationNumber: 'R0002',
    subjectNumber: 'X-2',
    treatmentGroup: 'B',
    productNumber: 'PN-7732',
    kitBatch: 'KIT-56',
  },
];
const upload = (who: string, name: string, bytes: Uint8Array, lang: 'en' | 'cn' = 'en') =>
  uploadList(rig.platform.app, `t1:${who}`, 'p1', name, bytes, lang);
const versions = async () =>
  ((await rig.as('owner').call('GET', '/unblinding/projects/p1/blinding-list')).body.data as Data)
    .versions as Data[];

describe('the unblinding workflow of schemas/workflows/unblinding.json', () => {
  it('is sound: every state reachable, every state can conclude', () => {
    expect(checkWorkflow(unblindingWorkflow)).toEqual([]);
    expect(unblindingWorkflow.order).toEqual(['notApplied', 'applied', 'approved', 'rejected', 'completed']);
  });
});

describe('the blinding list', () => {
  it('is refused to anyone but the blind owner (upload, versions, rows, template)', async () => {
    const bytes = await listWorkbook(rows);
    for (const who of ['entry', 'applicant', 'approver', 'person']) {
      expect((await upload(who, 'list.xlsx', bytes)).body.code).toBe(403);
      for (const path of ['', '/rows', '/reads', '/template'])
        expect(
          (await rig.as(who).call('GET', `/unblinding/projects/p1/blinding-list${path}`)).body.code,
        ).toBe(403);
    }
  });

  it('offers a template that, filled in, is accepted', async () => {
    const res = await rig.platform.app.request('/api/unblinding/projects/p1/blinding-list/template', {
      headers: { authorization: 'Bearer t1:owner', 'lang-type': 'en' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['List', 'Groups']);
    expect(workbook.worksheets[0]!.getRow(1).getCell(1).value).toBe('Randomisation number');
  });

  it('stores a valid upload as version 1 with its rows, apart from case data', async () => {
    const first = await upload('owner', 'list.xlsx', await listWorkbook(rows));
    expect(first.body).toMatchObject({ code: 200, data: { version: 1, rowCount: 2 } });
    expect(await versions()).toMatchObject([{ version: 1, current: true, rowCount: 2, uploadedBy: 'owner' }]);
    // The case document knows nothing of it.
    const detail = JSON.stringify((await rig.as('owner').call('GET', `/cases/${one.id}`)).body.data);
    expect(detail).not.toContain('PN-7731');
  });

  const refusedCases: [string, () => Promise<Uint8Array>, string, { en: RegExp; zh: RegExp }][] = [
    [
      'a missing column',
      () => listWorkbook(rows, { omit: 'productNumber' }),
      'list.xlsx',
      {
        en: /sheet List, row 1, column F\): The column Product number is missing/,
        zh: /第 1 行，第 F 列）：缺少列 药物编号/,
      },
    ],
    [
      'a duplicate randomisation number',
      () => listWorkbook([...rows, { ...rows[0]!, subjectNumber: 'X-3' }]),
      'list.xlsx',
      {
        en: /sheet List, row 4, column A\): Randomisation number R0001 appears again \(first in row 2\)/,
        zh: /第 4 行，第 A 列）：随机号 R0001 重复（首次出现在第 2 行）/,
      },
    ],
    [
      'an empty group',
      () => listWorkbook([...rows, { randomisationNumber: 'R0009', productNumber: 'PN-9' }]),
      'list.xlsx',
      {
        en: /sheet List, row 4, column C\): Treatment group cannot be empty/,
        zh: /第 4 行，第 C 列）：治疗组 不能为空/,
      },
    ],
    [
      'an unknown group',
      () =>
        listWorkbook([...rows, { randomisationNumber: 'R0009', treatmentGroup: 'Z', productNumber: 'PN-9' }]),
      'list.xlsx',
      {
        en: /row 4, column C\): Treatment group Z is not declared on the Groups sheet/,
        zh: /治疗组 Z 未在治疗组工作表中声明/,
      },
    ],
    [
      'a file that is not an XLSX',
      async () => new TextEncoder().encode('randomisation,group\nR1,A\n'),
      'list.xlsx',
      { en: /list\.xlsx is not an XLSX workbook/, zh: /list\.xlsx 不是 XLSX 工作簿/ },
    ],
    [
      'a zip that is no workbook',
      async () => zipSync({ 'readme.txt': new TextEncoder().encode('hello') }),
      'list.xlsx',
      { en: /is not an XLSX workbook/, zh: /不是 XLSX 工作簿/ },
    ],
    [
      'a zip bomb renamed .xlsx',
      async () =>
        zipSync(
          { 'xl/worksheets/sheet1.xml': new Uint8Array(LIST_MAX_INFLATED + 1024 * 1024) },
          { level: 9 },
        ),
      'bomb.xlsx',
      {
        en: /bomb\.xlsx unpacks to more than 60 MB; it is refused/,
        zh: /bomb\.xlsx 解压后超过 60 MB，已拒绝/,
      },
    ],
    [
      'a workbook not named .xlsx',
      () => listWorkbook(rows),
      'list.csv',
      { en: /list\.csv is not an XLSX workbook/, zh: /list\.csv 不是 XLSX 工作簿/ },
    ],
  ];
  for (const [what, bytes, name, texts] of refusedCases)
    it(`refuses ${what} with the place and a translated message, keeping the previous version`, async () => {
      const before = await versions();
      const file = await bytes();
      const en = await upload('owner', name, file, 'en');
      expect(en.status).toBe(400);
      expect(en.body.msg).toMatch(texts.en);
      const zh = await upload('owner', name, file, 'cn');
      expect(zh.body.msg).toMatch(texts.zh);
      expect(await versions()).toEqual(before);
    });

  it('lists every problem with its row and column', async () => {
    const res = await upload(
      'owner',
      'list.xlsx',
      await listWorkbook([...rows, { randomisationNumber: 'R0001', treatmentGroup: '', productNumber: '' }]),
    );
    expect((res.body.data as Data).problems.map((p: Data) => `${p.row}${p.column}`)).toEqual([
      '4C',
      '4D',
      '4A',
    ]);
  });

  it('keeps the previous version when a new one is uploaded, and records every read of the rows', async () => {
    const second = await upload('owner', 'list-v2.xlsx', await listWorkbook(rows.slice(0, 1)));
    expect(second.body.data).toMatchObject({ version: 2, rowCount: 1 });
    expect((await versions()).map((v) => [v.version, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    const old = await rig.as('owner').call('GET', '/unblinding/projects/p1/blinding-list/rows?version=1');
    expect(old.body.data.rows).toHaveLength(2);
    const reads = (await rig.as('owner').call('GET', '/unblinding/projects/p1/blinding-list/reads')).body.data
      .items;
    expect(reads[0]).toMatchObject({ readerId: 'owner', purpose: 'view', version: 1 });
    // The read is in the audit trail (an insert into the audited read log).
    const trail = await auditService(rig.store.tenant('t1', { userId: 'system:test' })).byDocument(
      'blindingListReads',
    );
    expect(trail[0]).toMatchObject({ userId: 'owner', operation: 'insert' });
    // Back to the two-row list for the applications below.
    expect((await upload('owner', 'list-v3.xlsx', await listWorkbook(rows))).body.data).toMatchObject({
      version: 3,
    });
  });
});

describe('unblinding applications', () => {
  const apply = (
    who: string,
    body: Data = { reason: 'SUSAR: expedited report to CDE', description: 'Fatal hepatic failure' },
  ) => rig.as(who).call('POST', `/unblinding/cases/${one.id}/apply`, body);
  const header = async (who: string) =>
    (await rig.as(who).call('GET', `/unblinding/cases/${one.id}`)).body.data as Data;

  it('refuses applying to a user without the permission, and without a reason', async () => {
    expect((await apply('entry')).body.code).toBe(403);
    expect((await apply('applicant', { reason: ' ' })).body).toMatchObject({
      code: 400,
      msg: 'The reason for unblinding is required',
    });
  });

  it('takes one application per case: a second is refused with the SPEC message in en and zh', async () => {
    const first = await apply('applicant');
    expect(first.body).toMatchObject({
      code: 200,
      data: { status: 'applied', applicantId: 'applicant', actions: [] },
    });
    await expectRefused(
      rig,
      'applicant',
      { method: 'POST', path: `/unblinding/cases/${one.id}/apply`, body: { reason: 'again' } },
      {
        en: 'Unblinding has already been applied for this case; it cannot be applied for twice',
        zh: '该病例已申请揭盲，不能重复申请',
      },
    );
    expect((await header('approver')).applications[0]).toMatchObject({
      actions: ['approve'],
      can: { approve: true, handle: false },
    });
    const personsAnswer = await rig.as('approver').call('GET', '/unblinding/persons');
    expect(personsAnswer.body.code).toBe(200);
    const persons = personsAnswer.body.data.items as Data[];
    expect(persons.map((p) => p.id).sort()).toEqual(['other', 'person']);
    expect((await rig.as('applicant').call('GET', '/unblinding/persons')).body.code).toBe(403);
  });

  it('requires the approval result and, to agree, an unblinding person who may handle', async () => {
    const path = `/unblinding/cases/${one.id}/approve`;
    expect(
      (await rig.as('applicant').call('POST', path, { result: 'agree', unblindingPersonId: 'person' })).body
        .code,
    ).toBe(403);
    await expectRefused(
      rig,
      'approver',
      { method: 'POST', path, body: { result: 'agree' } },
      { en: 'Choose an unblinding person', zh: '请选择揭盲人' },
    );
    expect((await rig.as('approver').call('POST', path, {})).body.code).toBe(400);
  });

  it('approves once: agreeing names the person; a second approval is refused', async () => {
    const path = `/unblinding/cases/${one.id}/approve`;
    const agreed = await rig
      .as('approver')
      .call('POST', path, { result: 'agree', opinion: 'ok', unblindingPersonId: 'person' });
    expect(agreed.body.data).toMatchObject({
      status: 'approved',
      unblindingPersonId: 'person',
      unblindingPersonName: '揭盲人',
    });
    // The work goes to the person named.
    expect((await inbox('person'))[0]).toMatchObject({ link: `/activecase?caseId=${one.id}` });
    expect((await inbox('person'))[0]!.body).toMatch(/已审批|Approved/);
    await expectRefused(
      rig,
      'approver',
      { method: 'POST', path, body: { result: 'agree', unblindingPersonId: 'person' } },
      { en: 'The application has already been approved', zh: '该申请已审批，不能重复审批' },
    );
  });

  it('is handled by the designated person only: the assignment is read from the list, a snapshot kept', async () => {
    const path = `/unblinding/cases/${one.id}/handle`;
    expect((await rig.as('other').call('POST', path, {})).body.code).toBe(403);
    const handled = await rig.as('person').call('POST', path, {});
    expect(handled.body.data).toMatchObject({
      status: 'completed',
      revealed: true,
      assignment: {
        treatmentGroup: 'A',
        productNumber: 'PN-7731',
        kitBatch: 'KIT-55',
        route: 'Oral',
        groupKind: 'active',
        listVersion: 3,
      },
      snapshot: { type: 'unblinding', caseVersion: 1 },
      // The case re-assessed with the list's product (schemas/rules/unblinding-outcome.json).
      outcome: {
        groupKind: 'active',
        changes: expect.arrayContaining([expect.objectContaining({ field: 'drugName', after: 'XY-101' })]),
        reason: { en: expect.stringContaining('investigational product') },
      },
    });
    expect(handled.body.data.outcome.clocks).toHaveLength(4);
    // The re-assessment goes to the approver, with its reason; not to the applicant.
    expect((await inbox('approver'))[0]!.body).toContain('investigational product');
    expect(JSON.stringify(await inbox('applicant'))).not.toContain('investigational product');
    // The case data every member reads is not changed.
    const detail = (await rig.as('entry').call('GET', `/cases/${one.id}`)).body.data as Data;
    expect(detail.document.drugs[0]).toMatchObject({ drugName: (one.doc.drugs as Data[])[0]!.drugName });
    const reads = (await rig.as('owner').call('GET', '/unblinding/projects/p1/blinding-list/reads')).body.data
      .items;
    expect(reads[0]).toMatchObject({
      readerId: 'person',
      purpose: 'handle',
      caseId: one.id,
      randomisationNumber: 'R0001',
    });
    expect(reads[0].reportCode).toMatch(/^CN-XYPHARMA-/);
  });

  it('shows the assignment to the approver, the person and the owner, never to the applicant or a member', async () => {
    for (const who of ['approver', 'person', 'owner'])
      expect((await header(who)).applications[0].assignment).toMatchObject({ treatmentGroup: 'A' });
    for (const who of ['applicant', 'entry']) {
      const seen = await header(who);
      expect(seen.applications[0]).toMatchObject({
        status: 'completed',
        revealed: false,
        assignment: null,
        outcome: null,
      });
      expect(JSON.stringify(seen)).not.toMatch(/PN-7731|KIT-55|"A"/);
      const list = await rig.as(who).call('GET', '/unblinding/applications');
      expect(JSON.stringify(list.body)).not.toContain('PN-7731');
    }
  });

  it('writes each step as a line of the case history without the assignment', async () => {
    const history = (await rig.as('entry').call('GET', `/cases/${one.id}/workflow-history`)).body
      .data as Data;
    const items = (Array.isArray(history) ? history : history.items) as Data[];
    const lines = items.filter((h) => String(h.action).startsWith('unblinding'));
    expect(lines.map((h) => [h.action, h.result, h.processerId])).toEqual([
      ['unblindingApply', 'unblindingApplied', 'applicant'],
      ['unblindingApprove', 'unblindingReviewed', 'approver'],
      ['unblindingHandle', 'unblindingCompleted', 'person'],
    ]);
    expect(JSON.stringify(items)).not.toContain('PN-7731');
  });

  it('after a rejection accepts a new application', async () => {
    const two = await filledCaseOf(rig, 'entry', 'p1', 2);
    const path = (step: string) => `/unblinding/cases/${two.id}/${step}`;
    expect((await rig.as('applicant').call('POST', path('apply'), { reason: 'r' })).body.code).toBe(200);
    const rejected = await rig
      .as('approver')
      .call('POST', path('approve'), { result: 'disagree', opinion: 'not a SUSAR' });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', unblindingPersonId: null });
    await expectRefused(
      rig,
      'approver',
      { method: 'POST', path: path('approve'), body: { result: 'agree', unblindingPersonId: 'person' } },
      {
        en: 'The application is rejected; this step is not possible now',
        zh: '该申请当前为 已驳回，不能进行此操作',
      },
    );
    const again = await rig.as('applicant').call('POST', path('apply'), { reason: 'new facts' });
    expect(again.body.data).toMatchObject({ status: 'applied' });
    const seen = (await rig.as('applicant').call('GET', `/unblinding/cases/${two.id}`)).body.data as Data;
    expect(seen.applications.map((a: Data) => a.status)).toEqual(['applied', 'rejected']);
  });

  it('lists applications with filters and counts for the workbench', async () => {
    const all = (await rig.as('approver').call('GET', '/unblinding/applications')).body.data as Data;
    expect(all.total).toBe(3);
    const completed = (await rig.as('approver').call('GET', '/unblinding/applications?status=completed')).body
      .data as Data;
    expect(completed.items.map((a: Data) => a.caseId)).toEqual([one.id]);
    expect(
      (await rig.as('approver').call('GET', '/unblinding/applications?applicant=nobody')).body.data.total,
    ).toBe(0);
    expect(
      (await rig.as('approver').call('GET', '/unblinding/applications?projectId=p2')).body.data.total,
    ).toBe(0);
    expect((await rig.as('approver').call('GET', '/unblinding/applications?status=%24ne')).body.code).toBe(
      400,
    );
    const counts = (await rig.as('approver').call('GET', '/unblinding/applications/counts')).body
      .data as Data;
    expect(counts).toMatchObject({
      byState: { applied: 1, completed: 1, rejected: 1, approved: 0 },
      toApprove: 1,
      toHandle: 0,
    });
    expect((await rig.as('nobody').call('GET', '/unblinding/applications/counts')).body.code).toBe(403);
  });

  it('asks for the e-signature where the project requires it', async () => {
    await rig.store
      .tenant('t1', { userId: 'system:test' })
      .collection('projects')
      .updateOne(
        { _id: 'p1' },
        { $set: { unblindingWorkflowOverride: { actions: { apply: { signature: true } } } } },
      );
    const three = await filledCaseOf(rig, 'entry', 'p1', 3);
    const path = `/unblinding/cases/${three.id}/apply`;
    expect((await rig.as('applicant').call('POST', path, { reason: 'r' })).body.msg).toMatch(/password/i);
    const signed = await rig.as('applicant').call('POST', path, { reason: 'r', password: 'Correct-Horse-1' });
    expect(signed.body.code).toBe(200);
    expect(signer.signed.at(-1)).toMatchObject({
      userId: 'applicant',
      meaning: 'unblinding:apply',
      subjectId: three.id,
    });
  });
});

describe('batch unblinding', () => {
  it('takes one application and approval for the selection and unblinds each case in a job', async () => {
    const four = await filledCaseOf(rig, 'entry', 'p1', 4);
    const five = await filledCaseOf(rig, 'entry', 'p1', 5);
    const open = await filledCaseOf(rig, 'entry', 'p1', 7);
    // p1 asks for the e-signature on applying since the test above.
    const opened = await rig
      .as('applicant')
      .call('POST', `/unblinding/cases/${open.id}/apply`, { reason: 'r', password: 'Correct-Horse-1' });
    expect(opened.body.code).toBe(200);
    const subjectOf = (c: { doc: Record<string, unknown> }) =>
      (c.doc.patient as { subjectNumber: string }).subjectNumber;
    const listed = [
      {
        randomisationNumber: 'R0101',
        subjectNumber: subjectOf(four),
        treatmentGroup: 'B',
        productNumber: 'PN-8801',
      },
      {
        randomisationNumber: 'R0102',
        subjectNumber: subjectOf(open),
        treatmentGroup: 'A',
        productNumber: 'PN-8802',
      },
    ];
    expect(
      (await upload('owner', 'list-batch.xlsx', await listWorkbook([...rows, ...listed]))).body.code,
    ).toBe(200);

    const path = '/unblinding/projects/p1/batches';
    expect(
      (await rig.as('nobody').call('POST', path, { reason: 'study end', caseIds: [four.id] })).body.code,
    ).toBe(403);
    const applied = await rig.as('approver').call('POST', path, {
      reason: 'study end',
      caseIds: [four.id, five.id, open.id],
    });
    expect(applied.body.data).toMatchObject({ status: 'applied', caseCount: 3 });
    const batchId = applied.body.data.id as string;
    expect((await rig.as('approver').call('POST', `${path}/handle`, { batchId })).body.code).toBe(403);
    const approved = await rig.as('approver').call('POST', `${path}/approve`, {
      batchId,
      result: 'agree',
      unblindingPersonId: 'person',
    });
    expect(approved.body.data).toMatchObject({ status: 'approved', unblindingPersonId: 'person' });
    expect((await rig.as('other').call('POST', `${path}/handle`, { batchId })).body.code).toBe(403);
    const started = await rig.as('person').call('POST', `${path}/handle`, { batchId });
    expect(started.body.data.job).toMatchObject({ state: 'queued', total: 3 });
    expect((await rig.as('person').call('POST', `${path}/handle`, { batchId })).body.code).toBe(400);

    const { JobRunner } = await import('../jobs');
    const runner = new JobRunner(rig.platform.deps, rig.platform.jobDefinitions, {
      owner: 'unblinding-test',
    });
    await runner.tick();
    await runner.idle();
    const batch = ((await rig.as('person').call('GET', path)).body.data.items as Data[]).find(
      (b) => b.id === batchId,
    )!;
    expect(batch).toMatchObject({ status: 'completed', job: { state: 'done', done: 3, unblinded: 1 } });
    expect(batch.job.skipped.map((s: Data) => s.caseId).sort()).toEqual([five.id, open.id].sort());

    const seen = (await rig.as('person').call('GET', `/unblinding/cases/${four.id}`)).body.data as Data;
    expect(seen.applications[0]).toMatchObject({
      status: 'completed',
      batchId,
      assignment: { treatmentGroup: 'B', groupKind: 'placebo', productNumber: 'PN-8801' },
      snapshot: { type: 'unblinding' },
    });
    const blinded = (await rig.as('entry').call('GET', `/unblinding/cases/${four.id}`)).body.data as Data;
    expect(blinded.applications[0]).toMatchObject({ revealed: false, assignment: null });
    const history = (await rig.as('entry').call('GET', `/cases/${four.id}/workflow-history`)).body
      .data as Data;
    const items = (Array.isArray(history) ? history : history.items) as Data[];
    expect(items.filter((h) => h.action === 'unblindingHandle').map((h) => h.details.batchId)).toEqual([
      batchId,
    ]);
  });
});
