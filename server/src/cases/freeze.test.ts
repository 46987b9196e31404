import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfiguratorService } from '../configurator/index';
import { C } from './collections';
import type { Project } from './projects';
import {
  caseRig,
  demoProject,
  expectRefused as refusedInBoth,
  filledCaseOf,
  PASSWORD,
  TENANT_PERMISSIONS,
} from './testing';

let now = new Date('2026-11-21T08:00:00Z');
const clock = { now: () => now };
/** History and audit lines are ordered by time: each step a minute later. */
const later = () => (now = new Date(now.getTime() + 60_000));
const rig = await caseRig({
  clock,
  users: [
    { id: 'entry', name: '录入员小王' },
    { id: 'qc', name: '质控员小李' },
    { id: 'lead', name: '数据经理老赵' },
    { id: 'clerk', name: '无冻结权限', deny: ['activecase:freeze'] },
    {
      id: 'viewer',
      name: '只读用户',
      deny: TENANT_PERMISSIONS.filter((p) => p !== 'casemanagement:caseview' && p !== 'activecase'),
    },
  ],
});
afterAll(() => rig.close());
const tenant = rig.store.tenant('t1', { userId: 'admin' });
await tenant.collection<Project>(C.projects).insertOne(demoProject('p2'));
for (const userId of ['entry', 'lead'])
  await tenant
    .collection('projectMembers')
    .insertOne({ projectId: 'p2', userId, roleIds: [], permissionKeys: [] });
const entry = rig.as('entry');
const lead = rig.as('lead');
const configurator = () => new ConfiguratorService(tenant, clock);
const signer = async () => ({ _id: 'signature-1' });
const filledCase = (projectId: string, n: number) => filledCaseOf(rig, 'entry', projectId, n, now);

type Action = { action: string; allowed: boolean; messageKey?: string };
const actionOf = (answer: { actions: Action[] }, id: string) => answer.actions.find((a) => a.action === id);

/** A refusal in en and zh that leaves the case as it was (read by the data manager). */
const expectRefused = (
  who: string,
  method: string,
  path: string,
  body: unknown,
  caseId: string,
  texts: { en: string; zh: string },
) => refusedInBoth(rig, who, { method, path, body, caseId, reader: 'lead' }, texts);

describe('the freeze switch off (SPEC 6)', () => {
  it('offers no freeze action and refuses freezing, translated; nothing changes', async () => {
    const c = await filledCase('p1', 1);
    const answer = (await lead.call('GET', `/cases/${c.id}`)).body.data;
    expect(answer.frozen).toBe(false);
    expect(actionOf(answer, 'freeze')).toBeUndefined();
    expect(actionOf(answer, 'unfreeze')).toBeUndefined();
    expect((await lead.call('GET', '/cases/freeze/projects')).body.data.projectIds).toEqual([]);
    await expectRefused('lead', 'POST', `/cases/${c.id}/freeze`, {}, c.id, {
      en: "Freezing is not enabled for this case's project",
      zh: '该病例所属项目未启用冻结功能',
    });
  });
});

describe('freezing a case of a project with the switch on', () => {
  beforeAll(async () => {
    await configurator().saveFeatures('p1', { freeze: true });
    await configurator().publish(signer, PASSWORD, 'freeze in p1');
  });

  it('needs the freeze permission; the header offers freeze', async () => {
    const c = await filledCase('p1', 2);
    const answer = (await lead.call('GET', `/cases/${c.id}`)).body.data;
    expect(actionOf(answer, 'freeze')).toMatchObject({ allowed: true, needsOpinion: false });
    expect(actionOf(answer, 'unfreeze')).toBeUndefined();
    const refused = await rig.as('clerk').call('POST', `/cases/${c.id}/freeze`, {});
    expect(refused.status).toBe(403);
    expect((await lead.call('GET', `/cases/${c.id}`)).body.data.frozen).toBe(false);
  });

  it('freezes: no edit, submit, back, delete, restore, completion, invalidation or follow-up by anyone', async () => {
    const c = await filledCase('p1', 3);
    const moved = await entry.call('POST', `/cases/${c.id}/submit`, {
      rev: c.rev,
      toNode: 'dataQc',
      userId: 'qc',
      password: PASSWORD,
    });
    expect(moved.body.code, JSON.stringify(moved.body)).toBe(200);
    const frozen = await lead.call('POST', `/cases/${c.id}/freeze`, {
      rev: moved.body.data.case.rev,
      reason: '数据库锁定前冻结',
    });
    expect(frozen.body.code, JSON.stringify(frozen.body)).toBe(200);
    expect(frozen.body.data.case.document.state).toMatchObject({ isFrozen: true, workflowNode: 'dataQc' });
    expect(frozen.body.data.history).toMatchObject({
      action: 'freeze',
      result: 'frozen',
      node: 'dataQc',
      nextNode: 'dataQc',
      opinion: '数据库锁定前冻结',
      processerId: 'lead',
      nextProcesserId: null,
    });
    expect(frozen.body.data.case.document.state.handlerId).toBe('qc');

    const answer = (await rig.as('qc').call('GET', `/cases/${c.id}`)).body.data;
    expect(answer.frozen).toBe(true);
    expect(answer.editRefusal).toBe('The case is frozen and cannot be edited');
    expect(actionOf(answer, 'save')).toMatchObject({ allowed: false, messageKey: 'cases.frozenCannotEdit' });
    expect(actionOf(answer, 'submit')).toMatchObject({
      allowed: false,
      messageKey: 'cases.frozenCannotSubmit',
    });
    expect(actionOf(answer, 'back')).toMatchObject({ allowed: false, messageKey: 'cases.frozenCannotBack' });
    expect(actionOf(answer, 'delete')).toMatchObject({
      allowed: false,
      messageKey: 'cases.frozenCannotDelete',
    });
    expect(actionOf(answer, 'challenge')?.allowed).toBe(true);
    expect(actionOf(answer, 'freeze')).toMatchObject({ allowed: false, messageKey: 'cases.alreadyFrozen' });
    expect(actionOf(answer, 'unfreeze')).toMatchObject({ allowed: true, needsOpinion: true });

    const rev = answer.rev as number;
    // The handler, the one who entered it, and the one who froze it alike; a stale revision too.
    for (const who of ['qc', 'entry', 'lead'])
      await expectRefused(
        who,
        'PUT',
        `/cases/${c.id}`,
        { rev, document: answer.document, confirmMissing: true },
        c.id,
        { en: 'The case is frozen and cannot be edited', zh: '病例已冻结，不能编辑' },
      );
    await expectRefused(
      'qc',
      'PUT',
      `/cases/${c.id}`,
      { rev: 1, document: answer.document, confirmMissing: true },
      c.id,
      { en: 'The case is frozen and cannot be edited', zh: '病例已冻结，不能编辑' },
    );
    await expectRefused(
      'qc',
      'POST',
      `/cases/${c.id}/submit`,
      { rev, toNode: 'medicalReview', userId: 'lead', password: PASSWORD },
      c.id,
      { en: 'The case is frozen and cannot be submitted', zh: '病例已冻结，不能提交' },
    );
    await expectRefused(
      'qc',
      'POST',
      `/cases/${c.id}/back`,
      { rev, toNode: 'dataEntry', opinion: '请补充' },
      c.id,
      { en: 'The case is frozen and cannot be sent back', zh: '病例已冻结，不能回退' },
    );
    await expectRefused('qc', 'POST', '/cases/delete', { caseIds: [c.id] }, c.id, {
      en: 'The case is frozen and cannot be deleted',
      zh: '病例已冻结，不能删除',
    });
    await expectRefused('qc', 'POST', `/cases/${c.id}/mark-invalid`, { rev, opinion: '重复' }, c.id, {
      en: 'The case is frozen and cannot be marked invalid',
      zh: '病例已冻结，不能标记无效',
    });
    await expectRefused('qc', 'POST', `/cases/${c.id}/mark-completed`, { rev }, c.id, {
      en: 'The case is frozen and cannot be marked finished',
      zh: '病例已冻结，不能标记完成',
    });
    await expectRefused(
      'qc',
      'POST',
      `/cases/${c.id}/follow-up`,
      { rev, reason: '新信息', latestInformationDate: '20261120' },
      c.id,
      { en: 'The case is frozen: no follow-up can be created', zh: '病例已冻结，不能创建随访' },
    );
    await expectRefused('lead', 'POST', `/cases/${c.id}/freeze`, {}, c.id, {
      en: 'The case is already frozen',
      zh: '病例已冻结',
    });

    // A batch delete goes on with the others and says which one was refused.
    const other = await filledCase('p1', 4);
    const batch = await rig.as('qc').call('POST', '/cases/delete', { caseIds: [c.id, other.id] });
    expect(batch.body.code).toBe(203);
    expect(batch.body.data.results).toEqual([
      { caseId: c.id, ok: false, msg: 'The case is frozen and cannot be deleted' },
      { caseId: other.id, ok: true, msg: null },
    ]);
  });

  it('can still be read, checked, challenged, copied, selected for export, and its history viewed', async () => {
    const c = await filledCase('p1', 5);
    expect((await lead.call('POST', `/cases/${c.id}/freeze`, {})).body.code).toBe(200);
    const qc = rig.as('qc');
    expect((await qc.call('POST', `/cases/${c.id}/check`, {})).body.data.errorCount).toBe(0);
    expect((await qc.call('GET', `/cases/${c.id}/versions`)).body.code).toBe(200);
    expect((await qc.call('GET', `/cases/${c.id}/compare?from=current&to=current`)).body.code).toBe(200);
    const selected = await qc.call('POST', '/cases/selection', { caseIds: [c.id] });
    expect(selected.body.data.caseIds).toEqual([c.id]);
    const challenged = await entry.call('POST', `/cases/${c.id}/challenge`, {
      kind: 'internal',
      userId: 'qc',
      opinion: '请核对合并用药',
    });
    expect(challenged.body.code, JSON.stringify(challenged.body)).toBe(200);
    const copy = await entry.call('POST', '/cases/copy', { caseIds: [c.id] });
    expect(copy.body.code).toBe(200);
    expect(copy.body.data.document.state.isFrozen).toBeUndefined();
    expect((await entry.call('GET', `/cases/${copy.body.data.id}`)).body.data.frozen).toBe(false);

    // The list: the frozen tab and the flag column.
    const list = await qc.call('POST', '/cases/search', { tab: 'frozen', size: 200 });
    const ids = list.body.data.items.map((row: { id: string }) => row.id);
    expect(ids).toContain(c.id);
    expect(ids).not.toContain(copy.body.data.id);
    const row = list.body.data.items.find((r: { id: string }) => r.id === c.id);
    expect(row.values.state_isFrozen).toBe(true);
    expect(row.state.isFrozen).toBe(true);
  });

  it('unfreezes only with a reason; both are in the workflow history and the audit trail', async () => {
    const c = await filledCase('p1', 6);
    expect((await lead.call('POST', `/cases/${c.id}/freeze`, { reason: '中期分析' })).body.code).toBe(200);
    await expectRefused('lead', 'POST', `/cases/${c.id}/unfreeze`, {}, c.id, {
      en: 'Please enter the reason for unfreezing',
      zh: '请填写解冻原因',
    });
    await expectRefused('lead', 'POST', `/cases/${c.id}/unfreeze`, { reason: '   ' }, c.id, {
      en: 'Please enter the reason for unfreezing',
      zh: '请填写解冻原因',
    });
    expect((await rig.as('clerk').call('POST', `/cases/${c.id}/unfreeze`, { reason: 'x' })).status).toBe(403);
    later();
    const thawed = await lead.call('POST', `/cases/${c.id}/unfreeze`, { reason: '医学审评需补充随访信息' });
    expect(thawed.body.code, JSON.stringify(thawed.body)).toBe(200);
    expect(thawed.body.data.case.document.state.isFrozen).toBeUndefined();
    await expectRefused('lead', 'POST', `/cases/${c.id}/unfreeze`, { reason: '再次' }, c.id, {
      en: 'The case is not frozen',
      zh: '病例未冻结',
    });

    const history = (await entry.call('GET', `/cases/${c.id}/workflow-history`)).body.data.items;
    expect(
      history.map((h: { action: string; opinion: string | null; processerName: string }) => [
        h.action,
        h.opinion,
        h.processerName,
      ]),
    ).toEqual([
      ['freeze', '中期分析', '数据经理老赵'],
      ['unfreeze', '医学审评需补充随访信息', '数据经理老赵'],
    ]);
    const log = (await entry.call('GET', `/cases/${c.id}/change-log`)).body.data.items;
    const frozenChanges = log.filter((entry: { changes: { path: string }[] }) =>
      entry.changes.some((change) => change.path === '/state/isFrozen'),
    );
    expect(frozenChanges.map((e: { reason: string | null; userId: string }) => [e.reason, e.userId])).toEqual(
      [
        ['医学审评需补充随访信息', 'lead'],
        ['中期分析', 'lead'],
      ],
    );

    // Editable again.
    const answer = (await entry.call('GET', `/cases/${c.id}`)).body.data;
    expect(answer.editRefusal).toBeNull();
    const saved = await entry.call('PUT', `/cases/${c.id}`, {
      rev: answer.rev,
      document: answer.document,
      confirmMissing: true,
    });
    expect(saved.body.code).toBe(200);
  });

  it('a save cannot set the flag; a deleted frozen case cannot be restored', async () => {
    const c = await filledCase('p1', 7);
    const answer = (await entry.call('GET', `/cases/${c.id}`)).body.data;
    const document = { ...answer.document, state: { ...answer.document.state, isFrozen: true } };
    const saved = await entry.call('PUT', `/cases/${c.id}`, {
      rev: answer.rev,
      document,
      confirmMissing: true,
    });
    expect(saved.body.code).toBe(200);
    expect(saved.body.data.case.document.state.isFrozen).toBeUndefined();

    expect((await entry.call('POST', '/cases/delete', { caseIds: [c.id] })).body.code).toBe(200);
    expect((await lead.call('POST', `/cases/${c.id}/freeze`, {})).body.code).toBe(200);
    await expectRefused('entry', 'POST', '/cases/restore', { caseIds: [c.id] }, c.id, {
      en: 'The case is frozen and cannot be restored',
      zh: '病例已冻结，不能恢复',
    });
  });

  it('freezes a selection from the list; other projects and the frozen ones are reported', async () => {
    // The list offers freezing where the switch is on: p1, not p2 (lead works in both).
    expect((await lead.call('GET', '/cases/freeze/projects')).body.data.projectIds).toEqual(['p1']);
    expect((await rig.as('clerk').call('GET', '/cases/freeze/projects')).status).toBe(403);
    const a = await filledCase('p1', 8);
    const b = await filledCase('p2', 9);
    const batch = await lead.call('POST', '/cases/freeze', { caseIds: [a.id, b.id], reason: '锁库' });
    expect(batch.body.code).toBe(203);
    expect(batch.body.data.results).toEqual([
      { caseId: a.id, ok: true, msg: null },
      { caseId: b.id, ok: false, msg: "Freezing is not enabled for this case's project" },
    ]);
    const again = await lead.call('POST', '/cases/unfreeze', { caseIds: [a.id] });
    expect(again.body.msg).toBe('Please enter the reason for unfreezing');
    expect((await lead.call('POST', '/cases/freeze', { caseIds: [] }, 'cn')).body.msg).toBe(
      '请至少选择一条数据。',
    );
  });

  it('turning the switch off keeps frozen cases frozen and offers only unfreeze', async () => {
    const c = await filledCase('p1', 10);
    expect((await lead.call('POST', `/cases/${c.id}/freeze`, {})).body.code).toBe(200);
    await configurator().saveFeatures('p1', { freeze: false });
    await configurator().publish(signer, PASSWORD, 'no freeze in p1');
    const answer = (await lead.call('GET', `/cases/${c.id}`)).body.data;
    expect(answer.frozen).toBe(true);
    expect(actionOf(answer, 'freeze')).toBeUndefined();
    expect(actionOf(answer, 'unfreeze')?.allowed).toBe(true);
    expect(actionOf(answer, 'save')?.allowed).toBe(false);
    expect((await lead.call('POST', `/cases/${c.id}/unfreeze`, { reason: '项目取消冻结' })).body.code).toBe(
      200,
    );
    const thawed = (await lead.call('GET', `/cases/${c.id}`)).body.data;
    expect(actionOf(thawed, 'freeze')).toBeUndefined();
    expect(actionOf(thawed, 'unfreeze')).toBeUndefined();
  });
});
