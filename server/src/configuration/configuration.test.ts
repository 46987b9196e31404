import { afterAll, describe, expect, it } from 'vitest';
import { completeCase } from '@pv/engine';
import type { Authenticator } from '../http';
import { defineModule } from '../http';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { configurationModule } from './index';
import { CASES, ConfigurationService } from './service';

const store = await testStore();
afterAll(() => store.close());

// Tokens name the tenant and user: `t1-alice`.
const authenticator: Authenticator = {
  authenticate: async (token) => {
    const [tenantId, userId] = token.split('-');
    return tenantId && userId ? { tenantId, userId } : null;
  },
  // mallory works in the tenant but may not configure it.
  authorize: async (principal, permission) =>
    principal.userId !== 'mallory' || permission !== 'authoritymanagement:projectInfo:config',
};
// Stands in for case management's collection: the impact of a publish reads open cases from it.
const casesStandIn = defineModule({
  name: 'cases-stand-in',
  collections: [{ name: CASES, scope: 'tenant' }],
});
const clock = { now: () => new Date('2026-11-21T12:00:00Z') };
const platform = testPlatform({ store, modules: [configurationModule, casesStandIn], authenticator, clock });
await platform.ready();
const { app } = platform;

// Publishing has no route in this module (the configurator's signed publish calls the service).
const asAlice = () => new ConfigurationService(store.tenant('t1', { userId: 'alice' }), clock);
const caseIn = (projectId: string) => {
  const doc = completeCase() as { report: Record<string, unknown> };
  doc.report.studyProjectId = projectId;
  return doc;
};
const siteCodeField = {
  op: 'addField',
  path: 'report.siteCode',
  schema: { type: 'string', maxLength: 20, 'x-label': { zh: '中心编号', en: 'Site code' } },
  required: true,
};
const check = (token: string, projectId: string, environment?: 'UAT' | 'PRO') =>
  call(app, 'POST', '/api/configuration/check', {
    token,
    body: { case: caseIn(projectId), ...(environment ? { environment } : {}) },
  });
const siteCodeMissing = (body: { data: unknown }) =>
  (body.data as { findings: { path: string; ruleId: string }[] }).findings.some(
    (finding) => finding.path === '/report/siteCode' && finding.ruleId === 'schema.required',
  );

describe('configuration service', () => {
  it('a project override requiring a new field fails cases in that project only, and only once published to PRO', async () => {
    const before = await check('t1-alice', 'P1');
    expect(before.body.code).toBe(200);
    expect(before.body.data).toMatchObject({ errorCount: 0, configurationVersion: 0 });

    const saved = await call(app, 'PUT', '/api/configuration/uat/projects/P1', {
      token: 't1-alice',
      body: { edits: [siteCodeField] },
    });
    expect(saved.body.code).toBe(200);
    // Drafts live in UAT: PRO still accepts the case, UAT already refuses it.
    expect(siteCodeMissing((await check('t1-alice', 'P1')).body)).toBe(false);
    expect(siteCodeMissing((await check('t1-alice', 'P1', 'UAT')).body)).toBe(true);

    // Two open cases of P1 and one of P2 are in the store when publishing.
    const cases = store.tenant('t1', { userId: 'test' }).collection(CASES);
    await cases.insertMany([
      caseIn('P1'),
      caseIn('P1'),
      caseIn('P2'),
      { ...caseIn('P1'), state: { ...(caseIn('P1') as { state?: object }).state, isCompleted: true } },
    ]);

    const published = { body: { data: await asAlice().publish('site code for P1') } };
    expect(published.body.data).toMatchObject({
      version: 1,
      publishedBy: 'alice',
      note: 'site code for P1',
      impact: { openCases: 3, newlyFailingCases: 2, byRule: [{ ruleId: 'schema.required', cases: 2 }] },
    });
    const changes = (
      published.body.data as {
        changes: { scope: string; changes: { kind: string; path: string; text: { en: string } }[] }[];
      }
    ).changes;
    expect(changes.find((scope) => scope.scope === 'P1')?.changes).toEqual([
      expect.objectContaining({
        kind: 'fieldAdded',
        path: 'report.siteCode',
        text: { zh: '新增字段：中心编号（必填）', en: 'Field added: Site code (required)' },
      }),
    ]);

    const after = await check('t1-alice', 'P1');
    expect(after.body.data).toMatchObject({ configurationVersion: 1 });
    expect(siteCodeMissing(after.body)).toBe(true);
    expect(siteCodeMissing((await check('t1-alice', 'P2')).body)).toBe(false);
    // Another tenant is untouched.
    expect((await check('t2-bob', 'P1')).body.data).toMatchObject({ errorCount: 0, configurationVersion: 0 });
    // A case that holds the field passes in P1.
    const withSite = caseIn('P1');
    withSite.report.siteCode = 'S-01';
    const ok = await call(app, 'POST', '/api/configuration/check', {
      token: 't1-alice',
      body: { case: withSite },
    });
    expect(ok.body.data).toMatchObject({ errorCount: 0, configurationVersion: 1 });
  });

  it('refuses a bad edit with a translated message and keeps the draft', async () => {
    const refused = await call(app, 'PUT', '/api/configuration/uat/tenant', {
      token: 't1-alice',
      lang: 'en',
      body: { edits: [{ op: 'hideField', path: 'report.reportCode' }] },
    });
    expect(refused.body.code).toBe(400);
    expect(refused.body.msg).toBe('Field report.reportCode is mandatory for E2B and cannot be hidden');
    const zh = await call(app, 'PUT', '/api/configuration/uat/projects/P1', {
      token: 't1-alice',
      body: { edits: [{ op: 'require', path: 'report.nothing' }] },
    });
    expect(zh.body.msg).toBe('“report.nothing”处没有字段');
    expect((await call(app, 'GET', '/api/configuration/uat', { token: 't1-alice' })).body.data).toEqual({
      tenant: [],
      projects: { P1: [siteCodeField] },
    });
    expect(
      (
        await call(app, 'PUT', '/api/configuration/uat/tenant', {
          token: 't1-alice',
          body: { edits: [{ op: 'explode' }] },
        })
      ).body.code,
    ).toBe(400);
  });

  it('keeps versions immutable and rolls back by publishing an earlier content as a new version', async () => {
    await call(app, 'PUT', '/api/configuration/uat/projects/P1', { token: 't1-alice', body: { edits: [] } });
    expect(await asAlice().publish()).toMatchObject({ version: 2, impact: { newlyFailingCases: 0 } });
    expect(siteCodeMissing((await check('t1-alice', 'P1')).body)).toBe(false);

    expect(await asAlice().rollback(1)).toMatchObject({
      version: 3,
      rollbackOf: 1,
      projects: { P1: [siteCodeField] },
    });
    const afterRollback = await check('t1-alice', 'P1');
    expect(afterRollback.body.data).toMatchObject({ configurationVersion: 3 });
    expect(siteCodeMissing(afterRollback.body)).toBe(true);

    const list = await call(app, 'GET', '/api/configuration/versions', { token: 't1-alice' });
    expect((list.body.data as { version: number }[]).map((version) => version.version)).toEqual([3, 2, 1]);
    expect(
      (await call(app, 'GET', '/api/configuration/versions/1', { token: 't1-alice' })).body.data,
    ).toMatchObject({ version: 1, projects: { P1: [siteCodeField] } });
    await expect(asAlice().rollback(9)).rejects.toMatchObject({
      code: 404,
      messageKey: 'configuration.versionNotFound',
    });
    // Neither publish nor rollback can be reached without the configurator's e-signature.
    for (const path of ['/api/configuration/publish', '/api/configuration/rollback'])
      expect((await call(app, 'POST', path, { token: 't1-alice', body: { version: 1 } })).body.code).toBe(
        404,
      );
  });

  it('serves the resolved configuration of a project with its version and hash', async () => {
    const resolved = await call(app, 'GET', '/api/configuration/resolved?projectId=P1', {
      token: 't1-alice',
    });
    const data = resolved.body.data as {
      version: number;
      hash: string;
      schemas: Record<string, { properties?: Record<string, unknown> }>;
    };
    expect(data.version).toBe(3);
    expect(data.schemas['https://schemas.pv.local/case/report.schema.json']!.properties).toHaveProperty(
      'siteCode',
    );
    const checked = await check('t1-alice', 'P1');
    expect((checked.body.data as { configurationHash: string }).configurationHash).toBe(data.hash);
  });

  it('lays out fields by moveField edits, refusing one into a group of another shape in zh and en with nothing changed', async () => {
    const project = 'P-layout';
    const refused = await call(app, 'PUT', `/api/configuration/uat/projects/${project}`, {
      token: 't1-alice',
      body: { edits: [siteCodeField, { op: 'moveField', path: 'report.siteCode', group: 'drugs' }] },
      lang: 'en',
    });
    expect(refused.body).toMatchObject({
      code: 400,
      msg: 'Field report.siteCode cannot go into group drugs: that group edits data at another level',
    });
    const zh = await call(app, 'PUT', `/api/configuration/uat/projects/${project}`, {
      token: 't1-alice',
      body: { edits: [{ op: 'moveField', path: 'report.reportType', group: 'nowhere' }] },
    });
    expect(zh.body).toMatchObject({ code: 400, msg: '表单中没有分组 nowhere' });
    const uat = await call(app, 'GET', '/api/configuration/uat', { token: 't1-alice' });
    expect((uat.body.data as { projects: Record<string, unknown> }).projects[project]).toBeUndefined();

    const moved = await call(app, 'PUT', `/api/configuration/uat/projects/${project}`, {
      token: 't1-alice',
      body: { edits: [siteCodeField, { op: 'moveField', path: 'report.siteCode', group: 'study' }] },
    });
    expect(moved.body.code).toBe(200);
    const resolved = await call(
      app,
      'GET',
      `/api/configuration/resolved?projectId=${project}&environment=UAT`,
      { token: 't1-alice' },
    );
    const groups = (
      resolved.body.data as { layout: { tabs: { groups: { id: string; fields: string[] }[] }[] } }
    ).layout.tabs.flatMap((tab) => tab.groups);
    expect(groups.find((group) => group.id === 'study')!.fields).toContain('/report/siteCode');
    expect(groups.find((group) => group.id === 'report')!.fields).not.toContain('/report/siteCode');
    // The case page's form: PRO by default (nothing of P-layout published), UAT on request.
    type Form = {
      tabs: { groups: { id: string; fields: string[]; properties: Record<string, unknown> }[] }[];
    };
    const form = async (environment: string) =>
      (
        (
          await call(app, 'GET', `/api/configuration/form?projectId=${project}&environment=${environment}`, {
            token: 't1-alice',
          })
        ).body.data as Form
      ).tabs.flatMap((tab) => tab.groups);
    expect((await form('PRO')).find((group) => group.id === 'study')!.fields).not.toContain(
      '/report/siteCode',
    );
    const study = (await form('UAT')).find((group) => group.id === 'study')!;
    expect(study.properties['/report/siteCode']).toMatchObject({
      'x-custom': true,
      'x-label': { zh: '中心编号', en: 'Site code' },
    });
  });

  it('lets only configurators edit UAT drafts', async () => {
    const refused = await call(app, 'PUT', '/api/configuration/uat/projects/P-mallory', {
      token: 't1-mallory',
      body: { edits: [siteCodeField] },
    });
    expect(refused.body.code).not.toBe(200);
    expect((await call(app, 'GET', '/api/configuration/uat', { token: 't1-mallory' })).body.code).not.toBe(
      200,
    );
    const uat = await call(app, 'GET', '/api/configuration/uat', { token: 't1-alice' });
    expect((uat.body.data as { projects: Record<string, unknown[]> }).projects['P-mallory']).toBeUndefined();
    // Reading what a project runs with needs no configuration right (the case page reads its form).
    expect(
      (await call(app, 'GET', '/api/configuration/form?projectId=P1', { token: 't1-mallory' })).body.code,
    ).toBe(200);
  });

  it('shows UAT drafts only to configurators (form, resolved configuration and check)', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/configuration/form?projectId=P1&environment=UAT', undefined],
      ['GET', '/api/configuration/resolved?projectId=P1&environment=UAT', undefined],
      ['POST', '/api/configuration/check', { case: caseIn('P1'), environment: 'UAT' }],
    ] as const) {
      const refused = await call(app, method, path, { token: 't1-mallory', body, lang: 'en' });
      expect(refused.body.code).toBe(403);
      expect(refused.body.msg).toContain('UAT configuration drafts');
      const zh = await call(app, method, path, { token: 't1-mallory', body });
      expect(zh.body.msg).toContain('UAT 配置草稿');
      expect((await call(app, method, path, { token: 't1-alice', body })).body.code).toBe(200);
    }
    // PRO stays open to every signed-in user.
    expect((await check('t1-mallory', 'P1', 'PRO')).body.code).toBe(200);
  });

  it('needs a session', async () => {
    expect((await call(app, 'GET', '/api/configuration/uat')).body.code).toBe(400001);
  });
});
