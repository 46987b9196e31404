/**
 * A case's project decides (issue 13, H2, M1, M3): permissions on a case and on what it owns are
 * those of the case's own project, whatever the `projectId` header says; a save never moves a
 * case; a workflow action is taken by the case's handler (or per the project's "edit others'
 * data" switch and permission), before the node's permission and the signature. Runs the real
 * permission model (roles, project members, project roles) on a fresh embedded store.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { permissionsOfArea } from '../access';
import { authorize } from '../access';
import type { ProjectMember, Role } from '../access';
import { C as AuthC } from '../auth';
import { C } from '../cases';
import { demoCaseContent } from '../cases';
import { createCasesModule, workbenchModule } from '../cases/index';
import type { Project } from '../cases';
import {
  defaultReportCodeGenerator,
  defineCaseRigCollections,
  demoProject,
  PASSWORD,
  recordingSigner,
} from '../cases/testing';
import { dictionariesModule } from '../dictionaries/index';
import { exportsModule } from '../exports/index';
import { IMPORT_RECORDS, importsModule } from '../imports/index';
import { EXPORTS } from '../exports';
import { ConfiguratorService } from '../configurator';
import { configurationModule } from '../configuration';
import type { Authenticator } from '../http';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { narrativesModule } from '../narratives';
import { reportCodesModule } from '../report-codes';
import { workflowModule } from '../workflow';

const now = new Date('2026-11-21T08:00:00Z');
const clock = { now: () => now };
const TENANT = 't1';
const ALL = permissionsOfArea('tenant');

const store = await testStore();
afterAll(() => store.close());
const signer = recordingSigner();
// The real permission model: tenant roles, plus the roles the caller holds in the project checked.
const authenticator: Authenticator = {
  authenticate: async (token) => {
    const [tenantId, userId] = token.split(':');
    return tenantId && userId ? { tenantId, userId, name: NAMES[userId] } : null;
  },
  authorize: (principal, permission, context, scope) =>
    authorize(platform.deps, principal, permission, context, scope),
};
const platform = testPlatform({
  store,
  clock,
  authenticator,
  modules: [
    createCasesModule({ signer }),
    workbenchModule,
    workflowModule,
    reportCodesModule,
    narrativesModule,
    exportsModule,
    dictionariesModule,
    importsModule,
    configurationModule,
  ],
});
await platform.ready();
await defineCaseRigCollections(store);

const NAMES: Record<string, string> = {
  author: '录入员小王',
  medical: '医学审评张医生',
  both: '两项目用户',
  p2only: '仅P2成员',
  outsider: '租户角色用户',
  mover: '移动测试用户',
  qc: '质控员小李',
  qcNoEdit: '质控员无编辑他人权限',
};
const handle = store.tenant(TENANT, { userId: 'system:test' });
const roles: (Role & { _id: string })[] = [
  { _id: 'full', name: '全部', type: 'project', identifier: 'full', permissions: ALL },
  { _id: 'tenantFull', name: '租户全部', type: 'business', identifier: 'tenantFull', permissions: ALL },
  {
    _id: 'noEditOthers',
    name: '不可编辑他人',
    type: 'project',
    identifier: 'noEditOthers',
    permissions: ALL.filter((p) => p !== 'activecase:editOthers'),
  },
];
for (const role of roles) await handle.collection<Role>(AuthC.roles).insertOne(role);
const people: { id: string; tenantRoles?: string[]; projects: Record<string, string[]> }[] = [
  { id: 'author', projects: { p1: ['full'] } },
  { id: 'medical', projects: { p1: ['full'] } },
  // The attacker: may delete in P2 only, and is a member of P1 without any role there.
  { id: 'both', projects: { p1: [], p2: ['full'] } },
  { id: 'p2only', projects: { p2: ['full'] } },
  // Every permission through a tenant role, but a member of P2 only.
  { id: 'outsider', tenantRoles: ['tenantFull'], projects: { p2: [] } },
  { id: 'mover', projects: { p1: ['full'], p2: ['full'] } },
  { id: 'qc', projects: { p1: ['full'] } },
  { id: 'qcNoEdit', projects: { p1: ['noEditOthers'] } },
];
for (const person of people) {
  await handle.collection(AuthC.users).insertOne({
    _id: `${person.id}:${TENANT}`,
    accountId: person.id,
    account: person.id,
    accountKey: `${TENANT}:${person.id}`,
    name: NAMES[person.id],
    state: 'enabled',
    organisationIds: [],
    currentOrganisationId: null,
    roleIds: person.tenantRoles ?? [],
  });
  for (const [projectId, roleIds] of Object.entries(person.projects))
    await handle
      .collection<ProjectMember>(AuthC.projectMembers)
      .insertOne({ projectId, userId: person.id, roleIds, permissionKeys: [] });
}
for (const id of ['p1', 'p2']) await handle.collection<Project>(C.projects).insertOne(demoProject(id));
await handle.collection('reportCodeGenerators').insertOne(defaultReportCodeGenerator());

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk arbitrary answer shapes
  body: { code: number; msg: string; data: any };
}

/** A request as `who`, optionally naming a project in the `projectId` header. */
const as =
  (who: string, projectId?: string) =>
  (method: string, path: string, body?: unknown, lang: 'en' | 'cn' = 'en'): Promise<Answer> =>
    call(platform.app, method, `/api${path}`, {
      token: `${TENANT}:${who}`,
      body,
      lang,
      headers: projectId ? { projectId } : {},
    }) as Promise<Answer>;

/** A case created by `who` in the project and saved with complete demo content. */
async function filledCase(who: string, projectId: string, n: number) {
  // Creating is checked in the header's project first (no case yet), then in the target project.
  const created = await as(who, projectId)('POST', '/cases', {
    projectId,
    reportType: '2',
    happenCountry: 'CN',
  });
  expect(created.body.code, JSON.stringify(created.body)).toBe(200);
  const { id, document } = created.body.data.case;
  const content = demoCaseContent({ n, project: demoProject(projectId), today: now });
  const doc = { ...content, report: { ...document.report, ...(content.report as object) } };
  const saved = await as(who)('PUT', `/cases/${id}`, { rev: 1, document: doc, confirmMissing: true });
  expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
  return { id: id as string, rev: saved.body.data.case.rev as number };
}

const read = async (id: string) => (await as('author')('GET', `/cases/${id}`)).body.data;

/** The case as its author reads it is what it was (rev, document). */
async function unchanged(id: string, before: { rev: number; document: unknown }) {
  const after = await read(id);
  expect(after.rev).toBe(before.rev);
  expect(after.document).toEqual(before.document);
}

describe("H2: the projectId header lends no project's roles to another project's case", () => {
  it('refuses delete, save, workflow actions and reads of a P1 case to a P2-role holder sending projectId P2', async () => {
    const target = await filledCase('author', 'p1', 1);
    const before = await read(target.id);
    for (const header of ['p2', undefined]) {
      const attacker = as('both', header);
      const deleted = await attacker('POST', '/cases/delete', { caseIds: [target.id], reason: 'x' });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(403);
      const saved = await attacker('PUT', `/cases/${target.id}`, {
        rev: before.rev,
        document: before.document,
        confirmMissing: true,
      });
      expect(saved.status).toBe(403);
      const marked = await attacker('POST', `/cases/${target.id}/mark-invalid`, { opinion: '无效' });
      expect(marked.status).toBe(403);
      const submitted = await attacker('POST', `/cases/${target.id}/submit`, {
        toNode: 'dataQc',
        userId: 'qc',
        password: PASSWORD,
      });
      expect(submitted.status).toBe(403);
      for (const path of ['', '/workflow-history', '/versions', '/change-log']) {
        const answer = await attacker('GET', `/cases/${target.id}${path}`);
        expect(answer.status, path).toBe(403);
        expect(answer.body.data, path).toBeNull();
      }
      const draft = await attacker('POST', `/narratives/cases/${target.id}/draft`, {});
      expect(draft.status).toBe(403);
      expect(draft.body.data).toBeNull();
    }
    await unchanged(target.id, before);
    expect(signer.signed.filter((s) => s.subjectId === target.id)).toEqual([]);
  });

  it('still lets the same user act with that role on the cases of the project that grants it', async () => {
    const own = await filledCase('both', 'p2', 2);
    const deleted = await as('both', 'p2')('POST', '/cases/delete', { caseIds: [own.id] });
    expect(deleted.body.code, JSON.stringify(deleted.body)).toBe(200);
    const restored = await as('both', 'p2')('POST', '/cases/restore', { caseIds: [own.id] });
    expect(restored.body.code, JSON.stringify(restored.body)).toBe(200);
    // On the case's own routes the case's project decides: no header needed.
    expect((await as('both')('GET', `/cases/${own.id}`)).body.code).toBe(200);
    // A batch mixing both projects: the P2 case goes, the P1 case is refused.
    const foreign = await filledCase('author', 'p1', 7);
    const mixed = await as('both', 'p2')('POST', '/cases/delete', { caseIds: [own.id, foreign.id] });
    expect(mixed.body.code).toBe(203);
    expect(mixed.body.data.results).toEqual([
      { caseId: own.id, ok: true, msg: null },
      { caseId: foreign.id, ok: false, msg: 'No permission' },
    ]);
    expect((await read(foreign.id)).document.state.validity).toBe('valid');
  });

  it('refuses a member of P2 only, and a non-member holding the permission by a tenant role', async () => {
    const target = await filledCase('author', 'p1', 3);
    const before = await read(target.id);
    for (const [who, header] of [
      ['p2only', 'p2'],
      ['p2only', 'p1'],
      ['outsider', 'p2'],
      ['outsider', 'p1'],
      ['outsider', undefined],
    ] as const) {
      const caller = as(who, header);
      const got = await caller('GET', `/cases/${target.id}`);
      expect(got.status, `${who} ${header}`).toBe(403);
      expect(got.body.data).toBeNull();
      const deleted = await caller('POST', '/cases/delete', { caseIds: [target.id] });
      expect(deleted.status, `${who} ${header}`).toBe(403);
      const saved = await caller('PUT', `/cases/${target.id}`, {
        rev: before.rev,
        document: before.document,
      });
      expect(saved.status).toBe(403);
      const challenged = await caller('POST', `/cases/${target.id}/challenge`, {
        kind: 'internal',
        userId: 'author',
        opinion: '请核实',
      });
      expect(challenged.status).toBe(403);
    }
    await unchanged(target.id, before);
  });

  it('answers 404 for a case that does not exist, before any permission', async () => {
    const missing = await as('both', 'p2')('GET', '/cases/no-such-case');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('The case does not exist: no-such-case');
  });

  it('creates a case only where the caller may add cases, whatever the header says', async () => {
    const create = { projectId: 'p1', reportType: '2', happenCountry: 'CN' };
    expect((await as('both', 'p2')('POST', '/cases', create)).status).toBe(403);
    const notMember = await as('p2only', 'p2')('POST', '/cases', create);
    expect(notMember.status).toBe(403);
    expect(notMember.body.msg).toBe('You are not a member of this case’s project');
    const unknown = await as('mover', 'p1')('POST', '/cases', { ...create, projectId: 'nope' });
    expect(unknown.body.msg).toBe('The project does not exist: nope');
    expect((await as('author', 'p1')('POST', '/cases', create)).body.code).toBe(200);
  });
});

describe("H2 in lists: a project's role shows only that project's cases", () => {
  it('lists, selections, exports and workbench feeds leave out the projects where the role is not held', async () => {
    const p1Case = await filledCase('author', 'p1', 10);
    const p2Case = await filledCase('both', 'p2', 11);
    // The P1 case waits for 'both' (a P1 member without any role there).
    const handed = await as('author')('POST', `/cases/${p1Case.id}/submit`, {
      toNode: 'dataQc',
      userId: 'both',
      password: PASSWORD,
    });
    expect(handed.body.code, JSON.stringify(handed.body)).toBe(200);
    const attacker = as('both', 'p2');
    const ids = (answer: Answer) => answer.body.data.items.map((item: { id: string }) => item.id);
    const listed = await attacker('POST', '/cases/search', { size: 200 });
    expect(listed.body.code).toBe(200);
    expect(ids(listed)).toContain(p2Case.id);
    expect(ids(listed)).not.toContain(p1Case.id);
    const todo = await attacker('GET', '/workbench/todo?size=200');
    expect(todo.body.code).toBe(200);
    expect(ids(todo)).not.toContain(p1Case.id);
    expect((await attacker('POST', '/cases/selection', { caseIds: [p1Case.id] })).status).toBe(403);
    const selected = await attacker('POST', '/cases/selection', { query: { size: 200 } });
    expect(selected.body.data.caseIds).not.toContain(p1Case.id);
    const exported = await attacker('POST', '/exports/selection', { receiverId: 'r', caseIds: [p1Case.id] });
    expect(exported.status).toBe(403);
    expect((await attacker('POST', `/exports/cases/${p1Case.id}`, { receiverId: 'r' })).status).toBe(403);
    // Recoding a project's cases (which saves them) is checked in that project.
    const recode = await attacker('POST', '/dictionaries/coding/projects/p1/recode', { version: '27.0' });
    expect(recode.status).toBe(403);
    expect(
      (await attacker('POST', '/dictionaries/coding/projects/nope/recode', { version: '27.0' })).status,
    ).toBe(404);
    // The P1 member with a role there still sees it.
    expect(ids(await as('author', 'p1')('POST', '/cases/search', { size: 200 }))).toContain(p1Case.id);
  });
});

describe('M1: a save does not move a case to another project', () => {
  it('refuses another project (a member one, a foreign one, one that does not exist), translated', async () => {
    const target = await filledCase('mover', 'p1', 4);
    const before = await read(target.id);
    for (const [who, projectId] of [
      ['mover', 'p2'],
      ['author', 'p2'],
      ['mover', 'no-such-project'],
      ['mover', ''],
    ] as const) {
      const document = {
        ...before.document,
        report: { ...before.document.report, studyProjectId: projectId },
      };
      const body = { rev: before.rev, document, confirmMissing: true };
      const en = await as(who)('PUT', `/cases/${target.id}`, body, 'en');
      expect(en.status, `${who} ${projectId}`).toBe(400);
      expect(en.body.msg).toBe('Saving a case cannot change its project');
      const zh = await as(who)('PUT', `/cases/${target.id}`, body, 'cn');
      expect(zh.body.msg).toBe('保存病例不能更改其所属项目');
    }
    await unchanged(target.id, before);
    // The same project, or none given, saves and keeps the project.
    const same = await as('mover')('PUT', `/cases/${target.id}`, {
      rev: before.rev,
      document: before.document,
      confirmMissing: true,
    });
    expect(same.body.code, JSON.stringify(same.body)).toBe(200);
    const withoutProject = structuredClone(before.document);
    delete withoutProject.report.studyProjectId;
    const kept = await as('mover')('PUT', `/cases/${target.id}`, {
      rev: same.body.data.case.rev,
      document: withoutProject,
      confirmMissing: true,
    });
    expect(kept.body.code, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.data.case.document.report.studyProjectId).toBe('p1');
    expect((await as('p2only')('GET', `/cases/${target.id}`)).status).toBe(403);
  });
});

describe("M3: workflow actions are the case's handler's", () => {
  const configurator = new ConfiguratorService(store.tenant(TENANT, { userId: 'author' }), clock);
  const editOthers = async (on: boolean) => {
    await configurator.saveFeatures('p1', { editOthersData: on });
    await configurator.publish(async () => ({ _id: `signature-${String(on)}` }), PASSWORD, 'edit others');
  };

  it("refuses qc on a case handed to another user, before the node's permission and the signature; the switch with the permission allows it", async () => {
    const target = await filledCase('author', 'p1', 5);
    const handed = await as('author')('POST', `/cases/${target.id}/submit`, {
      rev: target.rev,
      toNode: 'dataQc',
      userId: 'medical',
      password: PASSWORD,
    });
    expect(handed.body.code, JSON.stringify(handed.body)).toBe(200);
    expect(handed.body.data.case.document.state.handlerId).toBe('medical');
    await editOthers(false);
    const before = await read(target.id);
    const signedBefore = signer.signed.length;
    // No password: the handler is checked first, so the refusal is not "enter your password".
    const submit = { toNode: 'medicalReview', userId: 'author' };
    const en = await as('qc')('POST', `/cases/${target.id}/submit`, submit, 'en');
    expect(en.status, JSON.stringify(en.body)).toBe(403);
    expect(en.body.msg).toBe('Only the case’s current handler (医学审评张医生) can do this');
    const zh = await as('qc')('POST', `/cases/${target.id}/submit`, submit, 'cn');
    expect(zh.body.msg).toBe('只有该病例的当前处理人（医学审评张医生）可以执行此操作');
    const back = await as('qc')('POST', `/cases/${target.id}/back`, { toNode: 'dataEntry', opinion: '退回' });
    expect(back.body.msg).toBe('Only the case’s current handler (医学审评张医生) can do this');
    // The header offers qc no handler action, and says why.
    const offered = (await as('qc')('GET', `/cases/${target.id}`)).body.data.actions;
    expect(offered.find((a: { action: string }) => a.action === 'submit')).toMatchObject({
      allowed: false,
      messageKey: 'workflow.notHandler',
    });
    await unchanged(target.id, before);
    expect(signer.signed.length).toBe(signedBefore);

    // The switch on: qc (holding "edit others' data" in p1) may; qcNoEdit still may not.
    await editOthers(true);
    const refusedStill = await as('qcNoEdit')('POST', `/cases/${target.id}/submit`, {
      ...submit,
      password: PASSWORD,
    });
    expect(refusedStill.status).toBe(403);
    expect(refusedStill.body.msg).toBe('Only the case’s current handler (医学审评张医生) can do this');
    // The signature comes after the handler: without a password qc is now asked for it.
    const unsigned = await as('qc')('POST', `/cases/${target.id}/submit`, submit);
    expect(unsigned.body.msg).toBe('Enter your password to sign');
    const allowed = await as('qc')('POST', `/cases/${target.id}/submit`, { ...submit, password: PASSWORD });
    expect(allowed.body.code, JSON.stringify(allowed.body)).toBe(200);
    expect(allowed.body.data.case.document.state).toMatchObject({
      workflowNode: 'medicalReview',
      handlerId: 'author',
    });
  });

  it('lets the handler act with the switch off', async () => {
    await editOthers(false);
    const target = await filledCase('author', 'p1', 6);
    const handed = await as('author')('POST', `/cases/${target.id}/submit`, {
      toNode: 'dataQc',
      userId: 'qc',
      password: PASSWORD,
    });
    expect(handed.body.code, JSON.stringify(handed.body)).toBe(200);
    const byHandler = await as('qc')('POST', `/cases/${target.id}/back`, {
      toNode: 'dataEntry',
      opinion: '退回',
    });
    expect(byHandler.body.code, JSON.stringify(byHandler.body)).toBe(200);
    await editOthers(true);
  });
});

describe('exports and transmission lines are read in the projects of their cases', () => {
  /** An export record as the exports module writes it (the fields the views read). */
  const record = (id: string, caseIds: string[], projectIds?: string[]) => ({
    _id: id,
    receiverId: 'receiver-1',
    receiverName: '国家药品监督管理局',
    receiverIdentifier: 'CNNMPA',
    messageReceiverIdentifier: null,
    senderIdentifier: 'XYPHARMA',
    batchId: `XYPHARMA-${id}`,
    cases: [],
    caseIds,
    fileId: `file-${id}`,
    fileName: `${id}.xml`,
    size: 1,
    exportedAt: now.toISOString(),
    exportedBy: 'author',
    exportedByName: NAMES.author,
    status: 'exported',
    failureText: null,
    ack: null,
    ...(projectIds ? { projectIds } : {}),
  });

  it('refuses a P2-role holder sending projectId P2, and needs every project of a batch', async () => {
    const p1Case = await filledCase('author', 'p1', 8);
    const p2Case = await filledCase('mover', 'p2', 9);
    const exports = store.tenant(TENANT, { userId: 'author' }).collection(EXPORTS);
    await exports.insertOne(record('export-p1', [p1Case.id], ['p1']));
    // Written before records kept their projects: the cases' projects are read.
    await exports.insertOne(record('export-old', [p1Case.id]));
    await exports.insertOne(record('export-both', [p1Case.id, p2Case.id], ['p1', 'p2']));
    for (const id of ['export-p1', 'export-old']) {
      for (const path of [`/exports/records/${id}`, `/exports/transmissions/${id}`]) {
        const refused = await as('both', 'p2')('GET', path);
        expect(refused.status, path).toBe(403);
        expect(refused.body.data).toBeNull();
        expect((await as('p2only', 'p2')('GET', path)).status, path).toBe(403);
        const allowed = await as('author')('GET', path);
        expect(allowed.body.code, path).toBe(200);
        expect(allowed.body.data.exportId).toBe(id);
      }
    }
    // A batch of P1 and P2 cases: members of one of them only are refused, with any header.
    expect((await as('author', 'p2')('GET', '/exports/records/export-both')).status).toBe(403);
    expect((await as('both', 'p2')('GET', '/exports/records/export-both')).status).toBe(403);
    expect((await as('mover')('GET', '/exports/records/export-both')).body.code).toBe(200);
    expect((await as('mover')('GET', '/exports/records/no-such-export')).status).toBe(404);
  });
});

describe("imports are read in their record's project", () => {
  it('refuses a P2-role holder sending projectId P2 a P1 import, and leaves it out of the list', async () => {
    await store.tenant(TENANT, { userId: 'author' }).collection(IMPORT_RECORDS).insertOne({
      _id: 'import-p1',
      fileName: 'p1-reports.xml',
      fileId: 'file-import-p1',
      size: 1,
      processingStatus: 'pending',
      parseStatus: 'parsed',
      finished: false,
      importerId: 'author',
      importerName: NAMES.author,
      receiptDate: '20261120',
      pvInformedDate: null,
      caseProcessorId: null,
      caseProcessorName: null,
      importedAt: now.toISOString(),
      completedAt: null,
      exception: null,
      projectId: 'p1',
      meddraVersionId: 'meddra-27.0',
      whodrugVersionId: 'whodrug-2024',
      format: 'r3',
      profile: null,
      reportCount: 0,
      rejected: false,
    });
    const attacker = as('both', 'p2');
    const refused = await attacker('GET', '/imports/import-p1');
    expect(refused.status).toBe(403);
    expect(refused.body.data).toBeNull();
    expect((await attacker('POST', '/imports/import-p1/reject', { reason: 'x' })).status).toBe(403);
    const ids = (answer: Answer) => answer.body.data.items.map((item: { id: string }) => item.id);
    expect(ids(await attacker('GET', '/imports'))).not.toContain('import-p1');
    expect(ids(await as('author', 'p1')('GET', '/imports'))).toContain('import-p1');
    expect((await attacker('GET', '/imports/no-such-import')).status).toBe(404);
  });
});

describe("a project's own routes are authorized in the project of the path", () => {
  it("ignores the header's project roles, counts tenant roles, and answers 404 for an unknown project", async () => {
    const path = '/workflow/case/projects/p1';
    // A body the route refuses: only who passes the permission check reaches the 400.
    const invalid = { notAnOverride: true };
    expect((await as('p2only', 'p2')('PUT', path, invalid)).status).toBe(403);
    expect((await as('both', 'p2')('PUT', path, invalid)).status).toBe(403);
    // A tenant-wide configurator configures any project, member or not.
    expect((await as('outsider', 'p2')('PUT', path, invalid)).status).toBe(400);
    // P1's own role holders do, whatever the header says.
    expect((await as('author', 'p2')('PUT', path, invalid)).status).toBe(400);
    const unknown = await as('outsider')('PUT', '/workflow/case/projects/no-such-project', invalid);
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('The project does not exist: no-such-project');
  });
});

describe("report-code generators are listed in their own project's right", () => {
  it("leaves another project's generators out of the list and refuses naming that project", async () => {
    const generators = handle.collection('reportCodeGenerators');
    await generators.insertOne({ ...defaultReportCodeGenerator(), name: 'P1 规则', projectId: 'p1' });
    await generators.insertOne({ ...defaultReportCodeGenerator(), name: 'P2 规则', projectId: 'p2' });
    const names = (answer: Answer) =>
      (answer.body.data.items as { name: string }[]).map((g) => g.name).sort();
    // P2's role holder, header P2: P2's generator only (no tenant role, so not the tenant-wide one).
    const p2 = await as('p2only', 'p2')('GET', '/report-codes/generators');
    expect(p2.status).toBe(200);
    expect(names(p2)).toEqual(['P2 规则']);
    expect((await as('both', 'p2')('GET', '/report-codes/generators?projectId=p1')).status).toBe(403);
    // A tenant-wide holder sees every project's and the tenant's.
    expect(names(await as('outsider', 'p2')('GET', '/report-codes/generators'))).toEqual([
      'P1 规则',
      'P2 规则',
      '默认规则',
    ]);
  });
});

describe("a project's configuration is read in that project", () => {
  it('refuses the form, the resolved configuration and a check of P1 to P2 members, whatever the header', async () => {
    for (const path of ['/configuration/form?projectId=p1', '/configuration/resolved?projectId=p1']) {
      expect((await as('p2only', 'p2')('GET', path)).status).toBe(403);
      expect((await as('both', 'p2')('GET', path)).status).toBe(403);
      expect((await as('author', 'p2')('GET', path)).status).toBe(200);
    }
    expect((await as('author')('GET', '/configuration/form?projectId=no-such-project')).status).toBe(404);
  });
});
