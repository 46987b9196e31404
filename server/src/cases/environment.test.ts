import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationService } from '../configuration/index';
import { C } from './collections';
import { caseRig, expectRefused, filledCaseOf, TENANT_PERMISSIONS } from './testing';

const CONFIG = 'authoritymanagement:projectInfo:config';
const now = new Date('2026-11-21T08:00:00Z');
const clock = { now: () => now };
const rig = await caseRig({
  clock,
  users: [
    { id: 'configurator', name: '配置员小赵' },
    { id: 'entry', name: '录入员小王', deny: [CONFIG] },
  ],
});
afterAll(() => rig.close());
const tenant = rig.store.tenant('t1', { userId: 'admin' });
const configurator = rig.as('configurator');

const siteCodeField = {
  op: 'addField' as const,
  path: 'report.siteCode',
  schema: { type: 'string', maxLength: 6, 'x-label': { zh: '中心编号', en: 'Site code' } },
  required: true,
};
const paths = (data: { groups: { findings: { path: string }[] }[] }) =>
  data.groups.flatMap((g) => g.findings.map((f) => f.path));

describe('trying the UAT configuration on a case (POST /cases/:id/check?environment=UAT)', () => {
  it('reports the draft’s findings to a configurator, stores nothing, and leaves saving on PRO', async () => {
    expect(TENANT_PERMISSIONS).toContain(CONFIG);
    const filled = await filledCaseOf(rig, 'configurator', 'p1', 1, now);
    await new ConfigurationService(tenant, clock).saveDraft('p1', [siteCodeField]);
    const before = await tenant.collection(C.cases).findOne({ _id: filled.id });

    const uat = await configurator.call('POST', `/cases/${filled.id}/check?environment=UAT`, {});
    expect(uat.body.code, JSON.stringify(uat.body)).toBe(200);
    expect(uat.body.data).toMatchObject({ environment: 'UAT', configurationVersion: 0 });
    expect(paths(uat.body.data)).toContain('/report/siteCode');
    // An unsaved draft of the case is checked the same way.
    const drafted = { ...filled.doc, report: { ...filled.doc.report, siteCode: 'BJ01' } };
    const fixed = await configurator.call('POST', `/cases/${filled.id}/check?environment=UAT`, {
      document: drafted,
    });
    expect(paths(fixed.body.data)).not.toContain('/report/siteCode');

    // PRO (the default) knows nothing of the draft.
    const pro = await configurator.call('POST', `/cases/${filled.id}/check`, {});
    expect(pro.body.data.environment).toBe('PRO');
    expect(paths(pro.body.data)).not.toContain('/report/siteCode');
    const explicit = await configurator.call('POST', `/cases/${filled.id}/check?environment=PRO`, {});
    expect(paths(explicit.body.data)).toEqual(paths(pro.body.data));

    // The UAT check wrote nothing.
    expect(await tenant.collection(C.cases).findOne({ _id: filled.id })).toEqual(before);

    // Saving validates against PRO: the draft's required field does not block it, a PRO version is recorded.
    const saved = await configurator.call('PUT', `/cases/${filled.id}`, {
      rev: filled.rev,
      document: filled.doc,
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.case.document.state.configurationVersion).toBe('0');
    expect(paths(saved.body.data.check)).not.toContain('/report/siteCode');
  });

  it('is refused, translated, to a user without the configurator permission; PRO checks stay open', async () => {
    const filled = await filledCaseOf(rig, 'entry', 'p1', 2, now);
    await expectRefused(
      rig,
      'entry',
      { method: 'POST', path: `/cases/${filled.id}/check?environment=UAT`, body: {}, caseId: filled.id },
      {
        en: 'Only configurators (project configuration permission) may try the UAT configuration on a case.',
        zh: '只有配置人员（项目配置权限）可以在病例上试用 UAT 配置。',
      },
      403,
    );
    const pro = await rig.as('entry').call('POST', `/cases/${filled.id}/check`, {});
    expect(pro.body.code).toBe(200);
  });

  it('refuses an unknown environment', async () => {
    const filled = await filledCaseOf(rig, 'configurator', 'p1', 3, now);
    const answer = await configurator.call('POST', `/cases/${filled.id}/check?environment=DEV`, {});
    expect(answer.body.code).toBe(400);
  });
});
