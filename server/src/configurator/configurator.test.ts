import { afterAll, describe, expect, it } from 'vitest';
import { caseWorkflow, workflowOverrideOf } from '@pv/engine';
import type { Authenticator } from '../http';
import { errors } from '../http';
import { defineModule } from '../http';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { configurationModule } from '../configuration/index';
import { createConfiguratorModule, projectFeatures, projectTemplates } from './index';

const store = await testStore();
afterAll(() => store.close());

const authenticator: Authenticator = {
  authenticate: async (token) => {
    const [tenantId, userId] = token.split('-');
    return tenantId && userId ? { tenantId, userId } : null;
  },
  // Bob may read but not configure.
  authorize: (principal) => principal.userId !== 'bob',
};
// Case management's collections as the configurator reads and writes them.
const caseManagementStandIn = defineModule({
  name: 'cases-stand-in',
  collections: [
    { name: 'cases', scope: 'tenant' },
    { name: 'projects', scope: 'tenant' },
    // The access module's memberships: a case is previewed by members of its project.
    { name: 'projectMembers', scope: 'tenant' },
  ],
});
const signatures: string[] = [];
const configurator = createConfiguratorModule({
  signer: async (_deps, principal, password, meaning) => {
    if (password !== 'right') throw errors.badRequest('auth.passwordVerificationFailed');
    signatures.push(`${principal.userId}:${meaning}`);
    return { _id: `sig-${signatures.length}` };
  },
});
const clock = { now: () => new Date('2026-11-21T12:00:00Z') };
const platform = testPlatform({
  store,
  modules: [configurationModule, configurator, caseManagementStandIn],
  authenticator,
  clock,
});
await platform.ready();
const { app } = platform;
const handle = store.tenant('t1', { userId: 'test' });
await handle.collection('projects').insertOne({ _id: 'P1', code: 'P1', name: 'P1' });
await handle.collection('projects').insertOne({ _id: 'Q1', code: 'Q1', name: 'Q1' });
await handle.collection('cases').insertOne({
  _id: 'case-1',
  report: { reportCode: 'CN-ACME-2026-0001', studyProjectId: 'P1' },
  patient: { patientsName: 'ZS' },
});
await handle
  .collection('projectMembers')
  .insertOne({ projectId: 'P1', userId: 'alice', roleIds: [], permissionKeys: [] });

const token = 't1-alice';
type Body = { code: number; msg: string; data: unknown };
const api = async (method: string, path: string, body?: unknown, lang: 'en' | 'cn' = 'en') =>
  (
    await call(app, method, `/api/configurator${path}`, {
      token,
      lang,
      ...(body === undefined ? {} : { body }),
    })
  ).body as Body;
const projectIn = async (projectId: string, environment: 'UAT' | 'PRO') =>
  (await api('GET', `/projects/${projectId}?environment=${environment}`)).data as {
    version: number;
    features: Record<string, unknown>;
    workflow: { override: unknown; definition: typeof caseWorkflow };
    list: { definition: { columns: { id: string }[] } };
    templates: { id: string }[];
  };

const secondReview = structuredClone(caseWorkflow);
secondReview.nodes.medicalReview2 = {
  label: { zh: '第二次医学审评', en: 'Second medical review' },
  transitions: { submit: ['sponsorAudit', 'createSubmissionPlan'], back: ['dataEntry', 'medicalReview'] },
};
secondReview.nodes.medicalReview!.transitions.submit = ['medicalReview2'];
secondReview.order.splice(3, 0, 'medicalReview2');

describe('configurator', () => {
  it('publishes a baseline first', async () => {
    const baseline = await api('POST', '/publish', { password: 'right', note: 'baseline' });
    expect(baseline.code).toBe(200);
    expect(baseline.data).toMatchObject({ version: 1 });
  });

  it('lists the projects to configure', async () => {
    expect((await api('GET', '/projects')).data).toEqual([
      { id: 'P1', code: 'P1', name: 'P1', nameEn: 'P1' },
      { id: 'Q1', code: 'Q1', name: 'Q1', nameEn: 'Q1' },
    ]);
  });

  it('refuses configuration to a caller without the permission', async () => {
    const res = await call(app, 'PUT', '/api/configurator/uat/projects/P1/features', {
      token: 't1-bob',
      body: { features: { sdv: true } },
    });
    expect(res.status).toBe(403);
    expect((await projectIn('P1', 'UAT')).features).toMatchObject({ sdv: false });
  });

  it('refuses invalid feature switches with a zh/en reason and changes nothing', async () => {
    const refused = await api('PUT', '/uat/projects/P1/features', { features: { qrPhoneBinding: true } });
    expect(refused.code).not.toBe(200);
    expect(refused.msg).toBe('QR-code and phone binding needs the patient side to be enabled');
    const zh = await api('PUT', '/uat/projects/P1/features', { features: { editTimeLimitHours: 0 } }, 'cn');
    expect(zh.msg).toBe('数据编辑时限须为 1 至 87600 的整数小时，留空表示不限');
    expect((await projectIn('P1', 'UAT')).features).toMatchObject({
      qrPhoneBinding: false,
      editTimeLimitHours: null,
    });
  });

  it('keeps switches in UAT until published', async () => {
    const saved = await api('PUT', '/uat/projects/P1/features', {
      features: { editOthersData: false, editTimeLimitHours: 72, sdv: true },
    });
    expect(saved.code).toBe(200);
    expect((await projectIn('P1', 'UAT')).features).toMatchObject({
      editOthersData: false,
      editTimeLimitHours: 72,
    });
    expect((await projectIn('P1', 'PRO')).features).toMatchObject({
      editOthersData: true,
      editTimeLimitHours: null,
    });
    expect(await projectFeatures(handle, 'P1')).toMatchObject({ editOthersData: true });
    expect(await projectFeatures(handle, 'P1', 'UAT')).toMatchObject({ editOthersData: false });
  });

  it('refuses a workflow with an unreachable node, accepts a second medical review', async () => {
    const orphan = structuredClone(caseWorkflow);
    for (const node of Object.values(orphan.nodes))
      for (const [key, targets] of Object.entries(node.transitions))
        node.transitions[key] = targets.filter((id) => id !== 'sponsorAudit');
    const refused = await api('PUT', '/uat/projects/P1/workflow', {
      override: workflowOverrideOf(caseWorkflow, orphan),
    });
    expect(refused.code).not.toBe(200);
    expect(refused.msg).toBe('Node sponsorAudit cannot be reached');
    expect((refused.data as { problems: unknown[] }).problems).toContainEqual({
      messageKey: 'workflow.problem.unreachable',
      params: { node: 'sponsorAudit' },
    });
    expect((await projectIn('P1', 'UAT')).workflow.override).toBeNull();

    const saved = await api('PUT', '/uat/projects/P1/workflow', {
      override: workflowOverrideOf(caseWorkflow, secondReview),
    });
    expect(saved.code).toBe(200);
    expect((await projectIn('P1', 'UAT')).workflow.definition.nodes.medicalReview2).toBeDefined();
    expect((await projectIn('Q1', 'UAT')).workflow.definition.nodes.medicalReview2).toBeUndefined();
  });

  it('refuses a list override that drops the fixed report-code column', async () => {
    const refused = await api('PUT', '/uat/projects/P1/list', {
      override: { columns: ['isSae', 'updatedAt'] },
    });
    expect(refused.msg).toBe('The fixed column reportCode cannot be removed from the case list');
    const saved = await api('PUT', '/uat/projects/P1/list', {
      override: { columns: ['reportCode', 'isSae', 'updatedAt'], filters: ['reportType'] },
    });
    expect(saved.code).toBe(200);
    expect((await projectIn('P1', 'UAT')).list.definition.columns.map((column) => column.id)).toEqual([
      'reportCode',
      'isSae',
      'updatedAt',
    ]);
  });

  it('refuses a template that does not compile with its line, previews one that does', async () => {
    const broken = {
      kind: 'narrative',
      name: { zh: '叙述', en: 'Narrative' },
      body: 'Case {{report.reportCode}}\n{{#if patient}}x',
    };
    const refused = await api('PUT', '/uat/projects/P1/templates/narrative-1', broken);
    // H.1 narratives are checked by the narratives module; message templates by the configurator.
    expect(refused.msg).toMatch(/^The template does not compile at line 2: /);
    const zh = await api('PUT', '/uat/projects/P1/templates/narrative-1', broken, 'cn');
    expect(zh.msg).toMatch(/^模板第 2 行有误：/);
    const message = await api('PUT', '/uat/projects/P1/templates/message-1', { ...broken, kind: 'message' });
    expect(message.msg).toMatch(/^The template does not compile: line 2: Expecting/);
    const unknownHelper = await api('PUT', '/uat/projects/P1/templates/narrative-1', {
      ...broken,
      body: '{{shout x}}',
    });
    expect(unknownHelper.msg).toBe('The template uses an unknown helper: shout');
    expect((await projectIn('P1', 'UAT')).templates).toEqual([]);
    const mismatched = await api('POST', '/templates/preview', { body: 'a\n{{#if x}}y{{/each}}' });
    expect(mismatched.data).toMatchObject({ problem: { line: 2 }, text: null });

    // Rendering over a case is the cases module's (cases/template-preview.test.ts): not taken here.
    const body = 'Case {{report.reportCode}}: patient {{patient.patientsName}} <b>';
    expect(await api('POST', '/templates/preview', { body })).toMatchObject({
      data: { problem: null, text: null, renderError: null },
    });
    expect((await api('POST', '/templates/preview', { body, caseId: 'case-1' })).code).toBe(400);
    const saved = await api('PUT', '/uat/projects/P1/templates/narrative-1', { ...broken, body });
    expect(saved.code).toBe(200);
  });

  it('shows the diff before publishing and refuses a publish without the right password', async () => {
    const preview = (await api('GET', '/publish/preview')).data as {
      changes: { scope: string; text: { en: string } }[];
    };
    const lines = preview.changes.map((change) => `${change.scope} ${change.text.en}`);
    expect(lines).toContain("project:P1 Edit others' entered data: on → off");
    expect(lines).toContain('project:P1 Data edit time limit (hours): unlimited → 72');
    expect(lines).toContain(
      'project:P1 Workflow: nodes added Second medical review; nodes changed Medical review',
    );
    expect(lines).toContain('project:P1 Template added: Narrative');

    const wrong = await api('POST', '/publish', { password: 'wrong' });
    expect(wrong.msg).toBe('Password verification failed.');
    expect(((await api('GET', '/versions')).data as unknown[]).length).toBe(1);
    expect((await projectIn('P1', 'PRO')).features).toMatchObject({ editOthersData: true });
  });

  it('publishes to PRO: switches, workflow on the project, templates; history names who and the changes', async () => {
    const published = await api('POST', '/publish', { password: 'right', note: 'P1 setup' });
    expect(published.code).toBe(200);
    expect(published.data).toMatchObject({ version: 2, configurator: { version: 2, signatureId: 'sig-2' } });
    const pro = await projectIn('P1', 'PRO');
    expect(pro.features).toMatchObject({ editOthersData: false, editTimeLimitHours: 72, sdv: true });
    expect(pro.workflow.definition.nodes.medicalReview2).toBeDefined();
    expect(await projectTemplates(handle, 'P1', 'narrative')).toHaveLength(1);
    expect(await projectTemplates(handle, 'Q1', 'narrative')).toHaveLength(0);
    const p1 = await handle.collection<{ workflowOverride?: unknown }>('projects').findOne({ _id: 'P1' });
    expect(p1?.workflowOverride).toEqual(workflowOverrideOf(caseWorkflow, secondReview));
    const q1 = await handle.collection<{ workflowOverride?: unknown }>('projects').findOne({ _id: 'Q1' });
    expect(q1?.workflowOverride).toBeUndefined();

    const history = (await api('GET', '/versions')).data as {
      version: number;
      publishedBy: string;
      note?: string;
      configuratorChanges: unknown[];
    }[];
    expect(history.map((entry) => entry.version)).toEqual([2, 1]);
    expect(history[0]).toMatchObject({ publishedBy: 'alice', note: 'P1 setup' });
    expect(history[0]!.configuratorChanges.length).toBeGreaterThan(3);
    expect(signatures).toEqual(['alice:configuration.publish', 'alice:configuration.publish']);
  });

  it('rolls back to an earlier version as a new signed version', async () => {
    const rolled = await api('POST', '/rollback', { version: 1, password: 'right' });
    expect(rolled.code).toBe(200);
    expect(rolled.data).toMatchObject({ version: 3, rollbackOf: 1, configurator: { rollbackOf: 1 } });
    const pro = await projectIn('P1', 'PRO');
    expect(pro.features).toMatchObject({ editOthersData: true, editTimeLimitHours: null });
    expect(pro.workflow.definition.nodes.medicalReview2).toBeUndefined();
    expect(pro.templates).toEqual([]);
    const p1 = await handle.collection<{ workflowOverride?: unknown }>('projects').findOne({ _id: 'P1' });
    expect(p1?.workflowOverride).toBeUndefined();
    // UAT keeps the drafts: rolling back PRO does not throw away work in progress.
    expect((await projectIn('P1', 'UAT')).features).toMatchObject({ editOthersData: false });
    expect((await api('POST', '/rollback', { version: 9, password: 'right' })).code).not.toBe(200);
  });
});
