import { afterAll, describe, expect, it } from 'vitest';
import { tenancyCollections } from '../tenancy';
import { caseRig, demoProject } from '../cases/testing';
import { createCasesModule } from '../cases';
import { reportCodesModule } from '../report-codes';
import { workflowModule } from '../workflow';
import type { Project } from '../cases';
import { projectsModule } from '.';

const rig = await caseRig({
  modules: [createCasesModule(), workflowModule, reportCodesModule, projectsModule],
});
afterAll(() => rig.close());
for (const definition of tenancyCollections) await rig.store.define(definition);
const tenants = rig.store.platform({ userId: 'system:test' }).collection('tenants');
for (const [id, projects] of [
  ['t1', 3],
  ['t2', 5],
] as const) {
  await tenants.insertOne({
    _id: id,
    name: id,
    code: id,
    status: 'active',
    expiresAt: null,
    limits: { projects, sponsors: 5, users: 50 },
    // The administrator works in every project (cases module's membership rule).
    enterpriseAdminId: 'entry',
  });
}
await rig.store
  .tenant('t2', { userId: 'system:test' })
  .collection<Project>('projects')
  .insertOne(demoProject('q1'));

const admin = rig.as('entry');
const other = rig.as('entry', 't2');
const viewer = rig.as('viewer');

const newProject = (extra: Record<string, unknown> = {}) => ({
  code: 'XY-201-301',
  name: '一项评价XY-201治疗类风湿关节炎的II期研究',
  nameEn: 'A phase II study of XY-201 in rheumatoid arthritis',
  sponsor: '某制药有限公司',
  studyType: '1',
  diseases: '类风湿关节炎',
  treatmentMethods: '口服，每日一次',
  plannedEnrollment: 240,
  startDate: '2026-01-01',
  endDate: '2027-12-31',
  studyStaff: [{ name: '张医生', duty: '主要研究者', phone: '13800138000' }],
  registrations: [{ number: 'CTR20260001', country: 'CN' }],
  ...extra,
});

async function projectCount(tenant = admin): Promise<number> {
  return (await tenant.call('GET', '/projects')).body.data.total;
}

describe('projects: create and edit with validation', () => {
  let projectId = '';

  it('refuses bad input with a translated reason and stores nothing', async () => {
    const before = await projectCount();
    const chinese = await admin.call('POST', '/projects', newProject({ code: '项目一' }));
    expect(chinese.body).toMatchObject({ code: 400, msg: 'Please check the form data.' });
    expect(chinese.body.data.errors[0].path).toBe('/code');
    const dates = await admin.call('POST', '/projects', newProject({ endDate: '2025-12-31' }), 'cn');
    expect(dates.body).toMatchObject({ code: 400, msg: '结束日期应晚于开始日期' });
    const country = await admin.call(
      'POST',
      '/projects',
      newProject({ registrations: [{ number: 'X1', country: 'QQ' }] }),
    );
    expect(country.body.msg).toBe('Country code QQ is not in the code list');
    const enrollment = await admin.call('POST', '/projects', newProject({ plannedEnrollment: 1.5 }));
    expect(enrollment.body.data.errors[0].path).toBe('/plannedEnrollment');
    const duplicate = await admin.call('POST', '/projects', newProject({ code: 'pv-p1' }));
    expect(duplicate.body).toMatchObject({ code: 409, msg: 'Project code pv-p1 is already in use' });
    expect(await projectCount()).toBe(before);
  });

  it('creates a project, reads it back, and edits it from the revision read', async () => {
    const created = await admin.call('POST', '/projects', newProject());
    expect(created.body.code).toBe(200);
    projectId = created.body.data.projectId;
    const read = await admin.call('GET', `/projects/${projectId}`);
    expect(read.body.data).toMatchObject({
      code: 'XY-201-301',
      plannedEnrollment: 240,
      locked: false,
      sites: [],
      drugs: [],
      studyStaff: [{ name: '张医生', duty: '主要研究者' }],
    });
    const { rev } = read.body.data;
    const edited = await admin.call('PUT', `/projects/${projectId}`, {
      ...newProject({ plannedEnrollment: 300 }),
      diseases: undefined,
      rev,
    });
    expect(edited.body.data).toMatchObject({ plannedEnrollment: 300, diseases: null });
    const stale = await admin.call('PUT', `/projects/${projectId}`, { ...newProject(), rev });
    expect(stale.body.code).toBe(409);
    expect((await admin.call('GET', `/projects/${projectId}`)).body.data.plannedEnrollment).toBe(300);
  });

  it('keeps to the tenant project limit and checks permissions on the server', async () => {
    expect((await admin.call('POST', '/projects', newProject({ code: 'XY-3' }))).body.code).toBe(200);
    const over = await admin.call('POST', '/projects', newProject({ code: 'XY-4' }));
    expect(over.body).toMatchObject({ code: 400, msg: 'The tenant has reached its limit of 3 projects' });
    const denied = await viewer.call('POST', '/projects', newProject({ code: 'XY-5' }));
    expect(denied.body.code).toBe(403);
  });

  it('adds study sites from the hospital catalogue and project drugs, refusing duplicates', async () => {
    const unknownHospital = await admin.call('POST', `/projects/${projectId}/sites`, {
      code: '01',
      name: '北京协和医院',
      country: 'CN',
      hospitalId: 'nope',
    });
    expect(unknownHospital.body.msg).toBe(
      'The chosen hospital or research centre does not exist or is deleted',
    );
    const hospital = await admin.call('POST', '/hospitals', {
      name: '北京协和医院',
      kind: 'hospital',
      country: 'CN',
      postalCode: '100730',
    });
    expect(hospital.body.code).toBe(200);
    const site = await admin.call('POST', `/projects/${projectId}/sites`, {
      code: '01',
      name: '北京协和医院',
      country: 'CN',
      hospitalId: hospital.body.data.id,
      investigator: '张医生',
    });
    expect(site.body.data).toMatchObject({ code: '01', hospitalId: hospital.body.data.id });
    const twice = await admin.call('POST', `/projects/${projectId}/sites`, {
      code: '01',
      name: '另一家',
      country: 'CN',
    });
    expect(twice.body).toMatchObject({ code: 409, msg: 'Site code 01 is already used in this project' });
    const inUse = await admin.call('DELETE', `/hospitals/${hospital.body.data.id}`);
    expect(inUse.body.msg).toBe(
      'The hospital or research centre is used by project XY-201-301 and cannot be deleted',
    );
    const drug = await admin.call('POST', `/projects/${projectId}/drugs`, {
      drugName: 'XY-201片',
      isClinicalDrug: true,
      isBlind: true,
    });
    expect(drug.body.code).toBe(200);
    const sameName = await admin.call('POST', `/projects/${projectId}/drugs`, {
      drugName: 'XY-201片',
      isClinicalDrug: false,
      isBlind: false,
    });
    expect(sameName.body.code).toBe(409);
    const noFlags = await admin.call('POST', `/projects/${projectId}/drugs`, { drugName: '安慰剂' });
    expect(noFlags.body.data.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '/isBlind',
      '/isClinicalDrug',
    ]);
    const project = (await admin.call('GET', `/projects/${projectId}`)).body.data;
    expect(project.sites).toHaveLength(1);
    expect(project.drugs).toEqual([expect.objectContaining({ drugName: 'XY-201片', isBlind: true })]);
  });

  it('lands every site when several are added at once (no lost update)', async () => {
    const added = await Promise.all(
      ['11', '12', '13', '14'].map((code) =>
        admin.call('POST', `/projects/${projectId}/sites`, { code, name: `中心${code}`, country: 'CN' }),
      ),
    );
    expect(added.map((a) => a.body.code)).toEqual([200, 200, 200, 200]);
    const sites = (await admin.call('GET', `/projects/${projectId}/sites`)).body.data;
    expect(sites.map((site: { code: string }) => site.code).sort()).toEqual(['01', '11', '12', '13', '14']);
    for (const site of sites.filter((x: { code: string }) => x.code !== '01'))
      expect((await admin.call('DELETE', `/projects/${projectId}/sites/${site.id}`)).body.code).toBe(200);
  });

  it('locks only when the project code is typed, then refuses every change until unlocked', async () => {
    const wrong = await admin.call(
      'POST',
      `/projects/${projectId}/lock`,
      { confirmationCode: 'XY-201' },
      'cn',
    );
    expect(wrong.body).toMatchObject({ code: 400, msg: '输入的项目编号与该项目不一致，未做任何更改' });
    expect((await admin.call('GET', `/projects/${projectId}`)).body.data.locked).toBe(false);

    const locked = await admin.call('POST', `/projects/${projectId}/lock`, {
      confirmationCode: 'XY-201-301',
    });
    expect(locked.body.data).toMatchObject({ locked: true, lockedBy: 'entry', lockedByName: 'entry' });
    const rev = locked.body.data.rev;
    const edit = await admin.call('PUT', `/projects/${projectId}`, { ...newProject(), rev });
    expect(edit.body.msg).toBe('Project XY-201-301 is locked and cannot be changed');
    const site = await admin.call('POST', `/projects/${projectId}/sites`, {
      code: '02',
      name: '上海市胸科医院',
      country: 'CN',
    });
    expect(site.body.msg).toBe('Project XY-201-301 is locked and cannot be changed');
    expect((await admin.call('DELETE', `/projects/${projectId}`)).body.code).toBe(400);
    const newCase = await admin.call('POST', '/cases', { projectId, reportType: '2', happenCountry: 'CN' });
    expect(newCase.body.code).toBe(400);
    expect(
      (await admin.call('POST', `/projects/${projectId}/lock`, { confirmationCode: 'XY-201-301' })).body.msg,
    ).toBe('Project XY-201-301 is already locked');

    const wrongUnlock = await admin.call('POST', `/projects/${projectId}/unlock`, {
      confirmationCode: 'xy-201-301',
    });
    expect(wrongUnlock.body.code).toBe(400);
    const unlocked = await admin.call('POST', `/projects/${projectId}/unlock`, {
      confirmationCode: 'XY-201-301',
    });
    expect(unlocked.body.data).toMatchObject({ locked: false, lockedBy: null });
    expect((await admin.call('GET', `/projects/${projectId}`)).body.data.rev).toBe(unlocked.body.data.rev);
  });

  it('refuses to delete a project or a site that cases use; deletes softly and restores', async () => {
    const project = (await admin.call('GET', `/projects/${projectId}`)).body.data;
    const siteId = project.sites[0].id;
    const created = await admin.call('POST', '/cases', {
      projectId,
      reportType: '2',
      happenCountry: 'CN',
      hospitalId: siteId,
    });
    expect(created.body.code).toBe(200);
    expect((await admin.call('DELETE', `/projects/${projectId}/sites/${siteId}`)).body.msg).toBe(
      '1 reports belong to this study site; it cannot be removed',
    );
    expect((await admin.call('DELETE', `/projects/${projectId}`)).body.msg).toBe(
      'The project holds 1 reports and cannot be deleted',
    );

    const spare = (await admin.call('GET', '/projects?keyword=XY-3')).body.data.items[0];
    expect((await admin.call('DELETE', `/projects/${spare.projectId}`)).body.code).toBe(200);
    expect((await admin.call('GET', `/projects/${spare.projectId}`)).body.code).toBe(404);
    const cases = await admin.call('POST', '/cases', {
      projectId: spare.projectId,
      reportType: '2',
      happenCountry: 'CN',
    });
    expect(cases.body.code).toBe(400);
    const deleted = await admin.call('GET', '/projects?deleted=true');
    expect(deleted.body.data.items.map((p: { code: string }) => p.code)).toEqual(['XY-3']);
    const restored = await admin.call('POST', `/projects/${spare.projectId}/restore`);
    expect(restored.body.data).toMatchObject({ code: 'XY-3', deleted: false });
  });

  it('keeps tenants apart: another tenant neither reads nor changes these projects', async () => {
    expect((await other.call('GET', `/projects/${projectId}`)).body.code).toBe(404);
    const lock = await other.call('POST', `/projects/${projectId}/lock`, { confirmationCode: 'XY-201-301' });
    expect(lock.body.code).toBe(404);
    const site = await other.call('POST', `/projects/${projectId}/sites`, {
      code: '09',
      name: '外租户中心',
      country: 'CN',
    });
    expect(site.body.code).toBe(404);
    expect((await other.call('DELETE', `/projects/${projectId}`)).body.code).toBe(404);
    const theirs = await other.call('GET', '/projects');
    expect(theirs.body.data.items.map((p: { code: string }) => p.code)).toEqual(['PV-Q1']);
    // The same code is free in another tenant.
    expect((await other.call('POST', '/projects', newProject())).body.code).toBe(200);
    const hospitals = await admin.call('GET', '/hospitals');
    const hospitalId = hospitals.body.data.items[0].id;
    expect((await other.call('GET', '/hospitals')).body.data.total).toBe(0);
    expect((await other.call('DELETE', `/hospitals/${hospitalId}`)).body.code).toBe(404);
    const ours = (await admin.call('GET', `/projects/${projectId}`)).body.data;
    expect(ours).toMatchObject({ locked: false, deleted: false });
    expect(ours.sites).toHaveLength(1);
  });
});

describe('drug and hospital catalogues', () => {
  it('requires the approval number and holder of an approved drug, not of a clinical study drug', async () => {
    const missing = await admin.call('POST', '/drug-catalogue', {
      kind: 'approved',
      drugName: '阿司匹林肠溶片',
    });
    expect(missing.body.code).toBe(400);
    const required = missing.body.data.errors.filter((e: { keyword: string }) => e.keyword === 'required');
    expect(required.map((e: { path: string }) => e.path).sort()).toEqual(['/approvalNumber', '/holder']);
    const approved = await admin.call('POST', '/drug-catalogue', {
      kind: 'approved',
      drugName: '阿司匹林肠溶片',
      genericName: '阿司匹林肠溶片',
      approvalNumber: '国药准字H20065051',
      holder: '某药业',
      licenceCountry: 'CN',
      atcCode: 'B01AC06',
    });
    expect(approved.body.code).toBe(200);
    const clinical = await admin.call('POST', '/drug-catalogue', {
      kind: 'clinical',
      drugName: 'XY-201片',
      investigationalCode: 'XY-201',
    });
    expect(clinical.body.code).toBe(200);
    // A project drug taken from the catalogue gets its empty fields from the entry; a deleted entry is refused.
    const taken = await admin.call('POST', '/projects/p1/drugs', {
      drugName: '阿司匹林肠溶片',
      isClinicalDrug: false,
      isBlind: false,
      catalogueDrugId: approved.body.data.id,
    });
    expect(taken.body.data).toMatchObject({
      genericName: '阿司匹林肠溶片',
      approvalNumber: '国药准字H20065051',
      catalogueDrugId: approved.body.data.id,
    });
    const inUse = await admin.call('DELETE', `/drug-catalogue/${approved.body.data.id}`);
    expect(inUse.body.msg).toBe('The drug is used by project PV-P1 and cannot be deleted');
    expect((await admin.call('DELETE', `/drug-catalogue/${clinical.body.data.id}`)).body.code).toBe(200);
    const gone = await admin.call('POST', '/projects/p1/drugs', {
      drugName: 'XY-201片',
      isClinicalDrug: true,
      isBlind: false,
      catalogueDrugId: clinical.body.data.id,
    });
    expect(gone.body.msg).toBe('The chosen catalogue drug does not exist or is deleted');
    expect((await admin.call('POST', `/drug-catalogue/${clinical.body.data.id}/restore`)).body.code).toBe(
      200,
    );
    const list = await admin.call('GET', '/drug-catalogue?kind=clinical');
    expect(list.body.data.items.map((d: { drugName: string }) => d.drugName)).toEqual(['XY-201片']);
    const badCountry = await admin.call('POST', '/drug-catalogue', {
      kind: 'clinical',
      drugName: 'Z',
      licenceCountry: 'ZZ',
    });
    expect(badCountry.body.msg).toBe('Country code ZZ is not in the code list');
  });

  it('edits from the revision read, clears left-out fields, deletes softly and restores', async () => {
    const hospital = await admin.call('POST', '/hospitals', {
      name: '上海市胸科医院',
      kind: 'researchCentre',
      country: 'CN',
      city: '上海',
    });
    const { id, rev } = hospital.body.data;
    const edited = await admin.call('PUT', `/hospitals/${id}`, {
      name: '上海市胸科医院',
      kind: 'researchCentre',
      country: 'CN',
      rev,
    });
    expect(edited.body.data.city).toBeUndefined();
    expect(
      (await admin.call('PUT', `/hospitals/${id}`, { name: 'x', kind: 'hospital', country: 'CN', rev })).body
        .code,
    ).toBe(409);
    const twin = await admin.call('POST', '/hospitals', {
      name: '上海市胸科医院',
      kind: 'hospital',
      country: 'CN',
    });
    expect(twin.body.msg).toBe('Hospital or research centre 上海市胸科医院 already exists');
    expect((await admin.call('DELETE', `/hospitals/${id}`)).body.code).toBe(200);
    expect((await admin.call('GET', '/hospitals?keyword=胸科')).body.data.total).toBe(0);
    expect((await admin.call('GET', '/hospitals?deleted=true')).body.data.items[0].id).toBe(id);
    expect((await admin.call('POST', `/hospitals/${id}/restore`)).body.data.deleted).toBe(false);
    expect((await admin.call('GET', '/hospitals?keyword=胸科')).body.data.total).toBe(1);
  });
});

describe('projects: the tenant sponsor limit', () => {
  it('counts distinct sponsors of the projects in use, on create, edit and restore', async () => {
    await tenants.insertOne({
      _id: 't3',
      name: 't3',
      code: 't3',
      status: 'active',
      expiresAt: null,
      limits: { projects: 10, sponsors: 2, users: 50 },
      enterpriseAdminId: 'entry',
    });
    const t3 = rig.as('entry', 't3');
    const create = (code: string, sponsor: string) =>
      t3.call('POST', '/projects', newProject({ code, sponsor }));
    expect((await create('S-1', '甲制药')).body.code).toBe(200);
    // The same sponsor, spelt with other spaces and case, is not a new one.
    expect((await create('S-2', ' 甲制药 ')).body.code).toBe(200);
    const second = await create('S-3', 'Beta  Pharma');
    expect(second.body.code).toBe(200);
    expect((await create('S-4', 'beta pharma')).body.code).toBe(200);
    const over = await create('S-5', '丙制药');
    expect(over.body).toMatchObject({ code: 400, msg: 'The tenant has reached its limit of 2 sponsors' });
    expect((await t3.call('GET', '/projects')).body.data.total).toBe(4);

    // Editing a project to a third sponsor is refused too and changes nothing.
    const { projectId: id, rev } = second.body.data;
    const edited = await t3.call('PUT', `/projects/${id}`, {
      ...newProject({ code: 'S-3', sponsor: '丙制药' }),
      rev,
    });
    expect(edited.body.code).toBe(400);
    expect((await t3.call('GET', `/projects/${id}`)).body.data.sponsor).toBe('Beta  Pharma');

    // Once no project in use names Beta Pharma, a third sponsor fits; the deleted project cannot come back.
    const fourth = (await t3.call('GET', '/projects?keyword=S-4')).body.data.items[0];
    expect(fourth.code).toBe('S-4');
    expect((await t3.call('DELETE', `/projects/${id}`)).body.code).toBe(200);
    expect((await t3.call('DELETE', `/projects/${fourth.projectId}`)).body.code).toBe(200);
    expect((await create('S-5', '丙制药')).body.code).toBe(200);
    const restored = await t3.call('POST', `/projects/${id}/restore`);
    expect(restored.body).toMatchObject({ code: 400, msg: 'The tenant has reached its limit of 2 sponsors' });
  });
});
