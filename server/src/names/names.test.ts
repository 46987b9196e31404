/**
 * Display names (GET /api/names): a batch per kind answers the names the caller may see, scoped to
 * their projects and tenant; unknown and hidden ids are left out alike; a batch is one request.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { caseRig, demoProject } from '../cases/testing';
import { createCasesModule } from '../cases';
import { reportCodesModule } from '../report-codes';
import type { Project } from '../projects';
import { namesModule } from '.';

const rig = await caseRig({
  users: [
    { id: 'entry', name: '录入员小王' },
    { id: 'other', name: '另一项目录入员' },
    { id: 'admin', name: '系统管理员' },
  ],
  modules: [createCasesModule(), reportCodesModule, namesModule],
});
afterAll(() => rig.close());

const tenant = rig.store.tenant('t1', { userId: 'system:test' });
await tenant.collection<Project>('projects').insertOne(demoProject('p2'));
await tenant.collection<Project>('projects').insertOne({ ...demoProject('p3'), deleted: true });
const members = tenant.collection('projectMembers');
// entry works in p1, other in p2 only; admin is the tenant's system administrator (every project).
for (const userId of ['other', 'admin']) await members.deleteOne({ projectId: 'p1', userId });
await members.insertOne({ projectId: 'p2', userId: 'other', roleIds: [], permissionKeys: [] });
await rig.store
  .platform({ userId: 'system:test' })
  .collection('tenants')
  .insertOne({ _id: 't1', code: 't1', name: '测试租户', systemAdminId: 'admin' });
await rig.store.define({ name: 'receivers', scope: 'tenant' });
await tenant.collection('receivers').insertOne({ _id: 'r1', name: '国家药监局' });
await tenant
  .collection('organisations')
  .insertOne({ _id: 'o1', name: '药物警戒部', nameEn: 'PV department', code: 'PV' });
// Tenant t2 has a project and a user of its own.
const t2 = rig.store.tenant('t2', { userId: 'system:test' });
await t2.collection('users').insertOne({ _id: 't2-entry', name: 'B 租户用户', state: 'enabled' });
await t2.collection<Project>('projects').insertOne(demoProject('pb'));
await t2
  .collection('projectMembers')
  .insertOne({ projectId: 'pb', userId: 't2-entry', roleIds: [], permissionKeys: [] });

type Names = Record<string, Record<string, { code?: string; name: string; nameEn?: string }>>;
const query = (asked: Record<string, string[]>) =>
  '/names?' +
  Object.entries(asked)
    .flatMap(([key, ids]) => ids.map((id) => `${key}[]=${encodeURIComponent(id)}`))
    .join('&');
const names = async (who: string, asked: Record<string, string[]>, tenantId = 't1') => {
  const answer = await rig.as(who, tenantId).call('GET', query(asked));
  expect(answer.body.code).toBe(200);
  return answer.body.data as Names;
};

describe('display names (GET /api/names)', () => {
  it('answers a batch of several kinds in one call: project codes, sites, drugs, users, receivers, organisations', async () => {
    const got = await names('entry', {
      projectIds: ['p1'],
      siteIds: ['p1-s1', 'p1-s2'],
      drugIds: ['p1-d1'],
      userIds: ['entry', 'other'],
      receiverIds: ['r1'],
      organisationIds: ['o1'],
    });
    expect(got.project).toEqual({
      p1: { code: 'PV-P1', name: demoProject('p1').name, nameEn: demoProject('p1').nameEn },
    });
    expect(got.site).toEqual({
      'p1-s1': { code: '01', name: '北京协和医院', nameEn: 'Peking Union Medical College Hospital' },
      'p1-s2': { code: '02', name: '复旦大学附属中山医院', nameEn: 'Zhongshan Hospital, Fudan University' },
    });
    expect(got.drug).toEqual({ 'p1-d1': { code: '注射用XY-101', name: 'XY-101注射液' } });
    expect(got.user).toEqual({ entry: { name: '录入员小王' }, other: { name: '另一项目录入员' } });
    expect(got.receiver).toEqual({ r1: { name: '国家药监局' } });
    expect(got.organisation).toEqual({ o1: { code: 'PV', name: '药物警戒部', nameEn: 'PV department' } });
  });

  it('shows projects, their sites and drugs only to their members (administrators: every project)', async () => {
    const asked = { projectIds: ['p1', 'p2'], siteIds: ['p1-s1', 'p2-s1'], drugIds: ['p1-d2', 'p2-d2'] };
    const entry = await names('entry', asked);
    expect(Object.keys(entry.project!)).toEqual(['p1']);
    expect(Object.keys(entry.site!)).toEqual(['p1-s1']);
    expect(Object.keys(entry.drug!)).toEqual(['p1-d2']);
    const other = await names('other', asked);
    expect(Object.keys(other.project!)).toEqual(['p2']);
    expect(Object.keys(other.site!)).toEqual(['p2-s1']);
    const admin = await names('admin', asked);
    expect(Object.keys(admin.project!).sort()).toEqual(['p1', 'p2']);
    expect(Object.keys(admin.drug!).sort()).toEqual(['p1-d2', 'p2-d2']);
  });

  it('answers unknown, deleted and hidden ids alike: left out', async () => {
    const got = await names('other', {
      projectIds: ['p1', 'p3', 'nope'],
      siteIds: ['p3-s1', 'nope'],
      userIds: ['nobody'],
      receiverIds: ['nope'],
    });
    expect(got.project).toEqual({});
    expect(got.site).toEqual({});
    expect(got.user).toEqual({});
    expect(got.receiver).toEqual({});
  });

  it('never names another tenant’s objects', async () => {
    const asked = {
      projectIds: ['p1', 'pb'],
      siteIds: ['p1-s1', 'pb-s1'],
      drugIds: ['p1-d1'],
      userIds: ['entry', 't2-entry'],
      receiverIds: ['r1'],
      organisationIds: ['o1'],
    };
    const b = await names('t2-entry', asked, 't2');
    expect(Object.keys(b.project!)).toEqual(['pb']);
    expect(Object.keys(b.site!)).toEqual(['pb-s1']);
    expect(b.drug).toEqual({});
    expect(b.user).toEqual({ 't2-entry': { name: 'B 租户用户' } });
    expect(b.receiver).toEqual({});
    expect(b.organisation).toEqual({});
    // And t1's administrator sees none of t2's.
    const a = await names('admin', asked);
    expect(Object.keys(a.project!)).toEqual(['p1']);
    expect(Object.keys(a.user!)).toEqual(['entry']);
  });

  it('refuses a batch larger than the limit and an unknown kind, translated', async () => {
    const tooMany = await rig
      .as('entry')
      .call('GET', query({ projectIds: Array.from({ length: 201 }, (_, i) => `p${i}`) }));
    expect(tooMany.status).toBe(400);
    const unknown = await rig.as('entry').call('GET', '/names?caseIds[]=x', undefined, 'cn');
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it('offers pickers the caller’s projects with their sites only (administrators: all; deleted: none)', async () => {
    const ids = async (who: string, tenantId = 't1') => {
      const answer = await rig.as(who, tenantId).call('GET', '/names/projects');
      expect(answer.body.code).toBe(200);
      return (answer.body.data as { id: string; code: string; sites: { id: string }[] }[]).map(
        (p) => `${p.id}:${p.code}:${p.sites.map((s) => s.id).join(',')}`,
      );
    };
    expect(await ids('entry')).toEqual(['p1:PV-P1:p1-s1,p1-s2']);
    expect(await ids('other')).toEqual(['p2:PV-P2:p2-s1,p2-s2']);
    expect(await ids('admin')).toEqual(['p1:PV-P1:p1-s1,p1-s2', 'p2:PV-P2:p2-s1,p2-s2']);
    expect(await ids('t2-entry', 't2')).toEqual(['pb:PV-PB:pb-s1,pb-s2']);
  });

  it('offers a handler picker the users of the caller’s projects only (administrators: the tenant’s)', async () => {
    const users = async (who: string, tenantId = 't1') => {
      const answer = await rig.as(who, tenantId).call('GET', '/names/users');
      expect(answer.body.code).toBe(200);
      return (answer.body.data as { id: string; name: string }[]).map((u) => u.id);
    };
    const entry = await users('entry');
    expect(entry).toContain('entry');
    expect(entry).not.toContain('other');
    expect(entry).not.toContain('admin');
    expect(await users('other')).toEqual(['other']);
    const admin = await users('admin');
    expect(admin).toEqual(expect.arrayContaining(['entry', 'other', 'admin']));
    expect(admin).not.toContain('t2-entry');
    expect(await users('t2-entry', 't2')).toEqual(['t2-entry']);
  });
});
