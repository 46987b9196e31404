import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationService } from '../configuration/index';
import { ConfiguratorService } from '../configurator/index';
import { C } from './collections';
import type { Project } from './projects';
import { caseRig, demoProject, filledCaseOf, PASSWORD } from './testing';

let now = new Date('2026-11-21T08:00:00Z');
const clock = { now: () => now };
const rig = await caseRig({ clock });
afterAll(() => rig.close());
const tenant = rig.store.tenant('t1', { userId: 'admin' });
await tenant.collection<Project>(C.projects).insertOne(demoProject('p2'));
for (const userId of ['entry', 'qc'])
  await tenant
    .collection('projectMembers')
    .insertOne({ projectId: 'p2', userId, roleIds: [], permissionKeys: [] });
const entry = rig.as('entry');
const qc = rig.as('qc');

const filledCase = (projectId: string, n: number) => filledCaseOf(rig, 'entry', projectId, n, now);

const siteCodeField = {
  op: 'addField' as const,
  path: 'report.siteCode',
  schema: { type: 'string', maxLength: 6, 'x-label': { zh: '中心编号', en: 'Site code' } },
  required: true,
};
const signer = async () => ({ _id: 'signature-1' });

describe('cases run with their project’s published PRO configuration', () => {
  it('a custom field published for p1 is required in p1’s cases only; the version is recorded', async () => {
    const p1 = await filledCase('p1', 1);
    const p2 = await filledCase('p2', 2);
    const before = await entry.call('POST', `/cases/${p1.id}/check`, {});
    expect(before.body.data).toMatchObject({ errorCount: 0, configurationVersion: 0 });

    const configuration = new ConfigurationService(tenant, clock);
    await configuration.saveDraft('p1', [siteCodeField]);
    // A draft in UAT changes nothing for the cases.
    expect((await entry.call('POST', `/cases/${p1.id}/check`, {})).body.data.errorCount).toBe(0);
    await configuration.publish('site code for p1');

    const after = (await entry.call('POST', `/cases/${p1.id}/check`, {})).body.data;
    expect(after.configurationVersion).toBe(1);
    const findings = after.groups.flatMap((g: { findings: { path: string }[] }) => g.findings);
    expect(findings.map((f: { path: string }) => f.path)).toContain('/report/siteCode');
    const other = (await entry.call('POST', `/cases/${p2.id}/check`, {})).body.data;
    expect(other).toMatchObject({ errorCount: 0, configurationVersion: 1 });

    // Submitting p1's case is refused until the custom field is filled; p2's goes through.
    const refused = await entry.call('POST', `/cases/${p1.id}/submit`, {
      toNode: 'dataQc',
      userId: 'qc',
      password: PASSWORD,
    });
    expect(refused.body.code).toBe(400);
    const moved = await entry.call('POST', `/cases/${p2.id}/submit`, {
      toNode: 'dataQc',
      userId: 'qc',
      password: PASSWORD,
    });
    expect(moved.body.code, JSON.stringify(moved.body)).toBe(200);

    // A wrong value of the custom field is never saved; a right one is, with the version.
    const tooLong = { ...p1.doc, report: { ...p1.doc.report, siteCode: 'ABCDEFGHIJ' } };
    const wrong = await entry.call('PUT', `/cases/${p1.id}`, { rev: p1.rev, document: tooLong });
    expect(wrong.body.msg).toBe('Please check the form data.');
    const right = { ...p1.doc, report: { ...p1.doc.report, siteCode: 'BJ01' } };
    const saved = await entry.call('PUT', `/cases/${p1.id}`, { rev: p1.rev, document: right });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.case.document.state.configurationVersion).toBe('1');
    expect(saved.body.data.case.document.report.siteCode).toBe('BJ01');
  });
});

describe('project feature switches (SPEC 6)', () => {
  const configurator = () => new ConfiguratorService(tenant, clock);

  it("refuses editing another user's entered case when 'edit others' entered data' is off", async () => {
    const mine = await filledCase('p1', 3);
    const theirs = await filledCase('p2', 4);
    await configurator().saveFeatures('p1', { editOthersData: false });
    // Only once published to PRO.
    const stillOpen = (await qc.call('GET', `/cases/${mine.id}`)).body.data;
    const draftOnly = await qc.call('PUT', `/cases/${mine.id}`, {
      rev: stillOpen.rev,
      document: stillOpen.document,
      confirmMissing: true,
    });
    expect(draftOnly.body.code, JSON.stringify(draftOnly.body)).toBe(200);
    await configurator().publish(signer, PASSWORD, 'no edits of others’ data in p1');

    const current = (await qc.call('GET', `/cases/${mine.id}`)).body.data;
    // The header offers no save to qc, and says why.
    expect(current.actions.find((a: { action: string }) => a.action === 'save')).toMatchObject({
      allowed: false,
      messageKey: 'configurator.feature.editOthersRefused',
    });
    expect(current.editRefusal).toBe('This project does not allow editing data entered by another user');
    const asEntry = (await entry.call('GET', `/cases/${mine.id}`)).body.data;
    expect(asEntry.editRefusal).toBeNull();
    expect(asEntry.actions.find((a: { action: string }) => a.action === 'save').allowed).toBe(true);
    const refused = await qc.call('PUT', `/cases/${mine.id}`, {
      rev: current.rev,
      document: current.document,
      confirmMissing: true,
    });
    expect(refused.body.code).toBe(400);
    expect(refused.body.msg).toBe('This project does not allow editing data entered by another user');
    const cn = await qc.call(
      'PUT',
      `/cases/${mine.id}`,
      { rev: current.rev, document: current.document, confirmMissing: true },
      'cn',
    );
    expect(cn.body.msg).toBe('本项目不允许编辑他人录入的数据');
    expect((await qc.call('GET', `/cases/${mine.id}`)).body.data.rev).toBe(current.rev);
    // The one who entered it still may; other projects keep the default.
    expect(
      (
        await entry.call('PUT', `/cases/${mine.id}`, {
          rev: current.rev,
          document: current.document,
          confirmMissing: true,
        })
      ).body.code,
    ).toBe(200);
    const other = (await qc.call('GET', `/cases/${theirs.id}`)).body.data;
    expect(
      (
        await qc.call('PUT', `/cases/${theirs.id}`, {
          rev: other.rev,
          document: other.document,
          confirmMissing: true,
        })
      ).body.code,
    ).toBe(200);
  });

  it('refuses edits after the data edit time limit (hours after entry)', async () => {
    await configurator().saveFeatures('p2', { editTimeLimitHours: 24 });
    await configurator().publish(signer, PASSWORD, 'p2: 24 hours');
    const entered = await filledCase('p2', 5);
    now = new Date(now.getTime() + 23 * 3_600_000);
    const inTime = (await entry.call('GET', `/cases/${entered.id}`)).body.data;
    const ok = await entry.call('PUT', `/cases/${entered.id}`, {
      rev: inTime.rev,
      document: inTime.document,
      confirmMissing: true,
    });
    expect(ok.body.code, JSON.stringify(ok.body)).toBe(200);
    now = new Date(now.getTime() + 2 * 3_600_000);
    const late = (await entry.call('GET', `/cases/${entered.id}`)).body.data;
    const refused = await entry.call('PUT', `/cases/${entered.id}`, {
      rev: late.rev,
      document: late.document,
      confirmMissing: true,
    });
    expect(refused.body.msg).toBe(
      'The data edit time limit of this project (24 hours after entry) has passed',
    );
    const cn = await entry.call(
      'PUT',
      `/cases/${entered.id}`,
      { rev: late.rev, document: late.document, confirmMissing: true },
      'cn',
    );
    expect(cn.body.msg).toBe('已超过本项目的数据编辑时限（录入后 24 小时）');
    expect((await entry.call('GET', `/cases/${entered.id}`)).body.data.rev).toBe(late.rev);
  });
});
