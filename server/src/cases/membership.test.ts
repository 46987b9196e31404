import { afterAll, describe, expect, it } from 'vitest';
import { call } from '../testing';
import { C } from './collections';
import type { Project } from './projects';
import { caseRig, demoProject, filledCaseOf, PASSWORD } from './testing';

const rig = await caseRig({
  users: [
    { id: 'entry', name: '录入员小王' },
    { id: 'qc', name: '质控员小李' },
    { id: 'other', name: '另一项目录入员' },
    { id: 'admin', name: '系统管理员' },
    { id: 'stranger', name: '未分配项目的用户' },
  ],
});
afterAll(() => rig.close());
const tenant = rig.store.tenant('t1', { userId: 'system:test' });
await tenant.collection<Project>(C.projects).insertOne(demoProject('p2'));
const members = tenant.collection('projectMembers');
// entry and qc work in p1, other in p2, admin is the tenant's system administrator, stranger nowhere.
for (const userId of ['other', 'admin', 'stranger']) await members.deleteOne({ projectId: 'p1', userId });
await members.insertOne({ projectId: 'p2', userId: 'other', roleIds: [], permissionKeys: [] });
await rig.store
  .platform({ userId: 'system:test' })
  .collection('tenants')
  .insertOne({ _id: 't1', code: 't1', name: '测试租户', systemAdminId: 'admin' });

const filledCase = (who: string, projectId: string, n: number) => filledCaseOf(rig, who, projectId, n);

const ids = (answer: { body: { data: { items: { id: string }[] } } }) =>
  answer.body.data.items.map((item) => item.id).sort();

const a = await filledCase('entry', 'p1', 1);
const b = await filledCase('other', 'p2', 2);

describe('project membership (SPEC 6)', () => {
  it('lists only the cases of the caller’s projects; administrators see all; the header narrows', async () => {
    expect(ids(await rig.as('entry').call('POST', '/cases/search', {}))).toEqual([a.id]);
    expect(ids(await rig.as('other').call('POST', '/cases/search', {}))).toEqual([b.id]);
    expect(ids(await rig.as('admin').call('POST', '/cases/search', {}))).toEqual([a.id, b.id].sort());
    const none = await rig.as('stranger').call('POST', '/cases/search', {});
    expect(none.body.data).toMatchObject({ total: 0, items: [] });
    const narrowed = await call(rig.platform.app, 'POST', '/api/cases/search', {
      token: 't1:admin',
      body: {},
      headers: { studyProjectIds: 'p2' },
    });
    expect((narrowed.body.data as { items: { id: string }[] }).items.map((i) => i.id)).toEqual([b.id]);
    // The header cannot widen a member's projects.
    const widened = await call(rig.platform.app, 'POST', '/api/cases/search', {
      token: 't1:entry',
      body: {},
      headers: { studyProjectIds: 'p1,p2' },
    });
    expect((widened.body.data as { items: { id: string }[] }).items.map((i) => i.id)).toEqual([a.id]);
  });

  it('refuses every case route on another project’s case, translated, and changes nothing', async () => {
    const entry = rig.as('entry');
    const stored = (await rig.as('other').call('GET', `/cases/${b.id}`)).body.data;
    const refusals = [
      await entry.call('GET', `/cases/${b.id}`),
      await entry.call('PUT', `/cases/${b.id}`, { rev: stored.rev, document: stored.document }),
      await entry.call('POST', `/cases/${b.id}/check`, {}),
      await entry.call('POST', `/cases/${b.id}/submit`, {
        toNode: 'dataQc',
        userId: 'qc',
        password: PASSWORD,
      }),
      await entry.call('POST', `/cases/${b.id}/mark-invalid`, { opinion: '重复' }),
      await entry.call('GET', `/cases/${b.id}/workflow-history`),
      await entry.call('GET', `/cases/${b.id}/versions`),
      await entry.call('GET', `/cases/${b.id}/compare?from=current&to=current`),
      await entry.call('GET', `/cases/${b.id}/change-log`),
      await entry.call('POST', '/cases/copy', { caseIds: [b.id] }),
      await entry.call('POST', '/cases/delete', { caseIds: [b.id] }),
      await entry.call('POST', '/cases/selection', { caseIds: [b.id] }),
      await entry.call('POST', '/cases', { projectId: 'p2', reportType: '2', happenCountry: 'CN' }),
    ];
    for (const answer of refusals) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
      expect(answer.body.msg).toBe('You are not a member of this case’s project');
    }
    expect((await entry.call('GET', `/cases/${b.id}`, undefined, 'cn')).body.msg).toBe(
      '您不是该病例所属项目的成员',
    );
    const after = (await rig.as('other').call('GET', `/cases/${b.id}`)).body.data;
    expect(after.rev).toBe(stored.rev);
    expect(after.document.state.validity).toBe('valid');
    // The administrator may act on it.
    expect((await rig.as('admin').call('GET', `/cases/${b.id}`)).body.code).toBe(200);
  });

  it('does not hand a case to a user outside its project', async () => {
    const refused = await rig
      .as('entry')
      .call('POST', `/cases/${a.id}/submit`, { toNode: 'dataQc', userId: 'other', password: PASSWORD });
    expect(refused.body.msg).toBe('另一项目录入员 is not a member of this case’s project');
    const moved = await rig
      .as('entry')
      .call('POST', `/cases/${a.id}/submit`, { toNode: 'dataQc', userId: 'qc', password: PASSWORD });
    expect(moved.body.code, JSON.stringify(moved.body)).toBe(200);
  });

  it('feeds the workbench from the caller’s projects only', async () => {
    const feeds = ['/workbench/todo', '/workbench/overdue', '/workbench/predue?days=30'];
    const seen = async (who: string) => {
      const all = new Set<string>();
      for (const path of feeds)
        for (const item of (await rig.as(who).call('GET', path)).body.data.items) all.add(item.id);
      return all;
    };
    // Everyone's to-do holds the cases they handle; the case of p2 never reaches entry's feeds.
    expect([...(await seen('other'))]).toContain(b.id);
    expect([...(await seen('entry'))]).not.toContain(b.id);
    expect([...(await seen('stranger'))]).toEqual([]);
    const counts = (await rig.as('stranger').call('GET', '/workbench/counts')).body.data;
    expect(counts).toMatchObject({ todo: 0, overdue: 0 });
    expect((await rig.as('stranger').call('GET', '/workbench/predue?days=8')).body.msg).toBe(
      'Reminder days must be one of 7/15/30',
    );
    const adminPredue = (await rig.as('admin').call('GET', '/workbench/predue?days=30')).body.data.total;
    const entryPredue = (await rig.as('entry').call('GET', '/workbench/predue?days=30')).body.data.total;
    const otherPredue = (await rig.as('other').call('GET', '/workbench/predue?days=30')).body.data.total;
    expect(adminPredue).toBe(entryPredue + otherPredue);
  });
});
