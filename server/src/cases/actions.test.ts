import { afterAll, describe, expect, it } from 'vitest';
import { caseRig, demoProject, PASSWORD } from './testing';
import { demoCaseContent } from './demo/factory';
import { ConfiguratorService } from '../configurator';

const rig = await caseRig();
afterAll(() => rig.close());
const entry = rig.as('entry');

async function filledCase(n = 1, patch: (doc: Record<string, unknown>) => void = () => {}) {
  const created = await entry.call('POST', '/cases', {
    projectId: 'p1',
    reportType: '2',
    happenCountry: 'CN',
  });
  const { id, document } = created.body.data.case;
  const content = demoCaseContent({ n, project: demoProject('p1'), today: rig.clock.now() });
  const doc = { ...content, report: { ...document.report, ...(content.report as object) } };
  patch(doc);
  const saved = await entry.call('PUT', `/cases/${id}`, { rev: 1, document: doc, confirmMissing: true });
  expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
  return { id: id as string, rev: saved.body.data.case.rev as number };
}

const submit = (who: string, id: string, rev: number, toNode: string, userId: string) =>
  rig.as(who).call('POST', `/cases/${id}/submit`, { rev, toNode, userId, password: PASSWORD });

describe('selection messages (SPEC 8)', () => {
  it('asks for a selection before delete, restore, copy and export', async () => {
    expect((await entry.call('POST', '/cases/delete', { caseIds: [] }, 'en')).body.msg).toBe(
      'No data selected, fail to delete',
    );
    expect((await entry.call('POST', '/cases/delete', {}, 'cn')).body.msg).toBe('未选择数据，删除失败');
    expect((await entry.call('POST', '/cases/restore', { caseIds: [] })).body.msg).toBe(
      'Please select at least one data line.',
    );
    expect((await entry.call('POST', '/cases/copy', {})).body.msg).toBe('Please select the report to copy');
    expect((await entry.call('POST', '/cases/selection', {})).body.msg).toBe(
      'The report to be exported has not been selected',
    );
    expect((await entry.call('POST', '/cases/selection', { query: { tab: 'deleted' } })).body.msg).toBe(
      'The report to be exported has not been selected',
    );
  });
});

describe('delete and restore (SPEC 4)', () => {
  it('soft-deletes, lists under the deleted tab, and restores the validity the case had', async () => {
    const a = await filledCase(1);
    const b = await filledCase(2);
    const invalid = await entry.call('POST', `/cases/${b.id}/mark-invalid`, { opinion: '重复报告' });
    expect(invalid.body.data.case.document.state.validity).toBe('invalid');
    const noReason = await entry.call('POST', `/cases/${a.id}/mark-invalid`, {});
    expect(noReason.body.msg).toBe('Please enter an opinion');
    const deleted = await entry.call('POST', '/cases/delete', { caseIds: [a.id, b.id], reason: '录入错误' });
    expect(deleted.body.data.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
    const tab = await entry.call('POST', '/cases/search', { tab: 'deleted' });
    expect(tab.body.data.items.map((i: { id: string }) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect((await entry.call('PUT', `/cases/${a.id}`, { rev: 99, document: {} })).body.code).toBe(409);
    const current = (await entry.call('GET', `/cases/${a.id}`)).body.data;
    expect(
      (await entry.call('PUT', `/cases/${a.id}`, { rev: current.rev, document: current.document })).body.msg,
    ).toBe('The report is deleted; restore it first');
    expect((await entry.call('POST', '/cases/delete', { caseIds: [a.id] })).body.msg).toBe(
      'The report is already deleted',
    );
    const restored = await entry.call('POST', '/cases/restore', { caseIds: [a.id, b.id] });
    expect(restored.body.code).toBe(200);
    expect((await entry.call('GET', `/cases/${a.id}`)).body.data.document.state.validity).toBe('valid');
    expect((await entry.call('GET', `/cases/${b.id}`)).body.data.document.state.validity).toBe('invalid');
    expect((await entry.call('POST', '/cases/restore', { caseIds: [a.id] })).body.msg).toBe(
      'The report is not deleted',
    );
    const log = (await entry.call('GET', `/cases/${a.id}/change-log`)).body.data.items;
    expect(log.find((e: { reason: string | null }) => e.reason === '录入错误')).toBeTruthy();
  });

  it('refuses deleting a case of a locked project, and reports partial batches', async () => {
    const a = await filledCase(3);
    const b = await filledCase(4);
    await rig.store
      .tenant('t1', { userId: 'system:test' })
      .collection('projects')
      .updateOne({ _id: 'p1' }, { $set: { locked: true } });
    expect((await entry.call('POST', '/cases/delete', { caseIds: [a.id] })).body.msg).toBe(
      'The case is locked and cannot be deleted',
    );
    const current = (await entry.call('GET', `/cases/${a.id}`)).body.data;
    expect(
      (await entry.call('PUT', `/cases/${a.id}`, { rev: current.rev, document: current.document })).body.msg,
    ).toBe('The case is locked and cannot be changed');
    expect(
      (await entry.call('POST', '/cases', { projectId: 'p1', reportType: '2', happenCountry: 'CN' })).body
        .msg,
    ).toBe('Project PV-P1 is locked');
    await rig.store
      .tenant('t1', { userId: 'system:test' })
      .collection('projects')
      .updateOne({ _id: 'p1' }, { $set: { locked: false } });
    let rev = b.rev;
    for (const [who, toNode, next] of [
      ['entry', 'dataQc', 'qc'],
      ['qc', 'medicalReview', 'medical'],
      ['medical', 'createSubmissionPlan', 'submitter'],
    ]) {
      rev = (await submit(who!, b.id, rev, toNode!, next!)).body.data.case.rev;
    }
    const partial = await entry.call('POST', '/cases/delete', { caseIds: [a.id, b.id] });
    expect(partial.body).toMatchObject({ code: 203, msg: '1 done, 1 failed' });
    expect(partial.body.data.results[1]).toMatchObject({
      caseId: b.id,
      ok: false,
      msg: 'The report is at regulatory submission and cannot be deleted',
    });
  });
});

describe('back, challenge, plans and completion', () => {
  it('goes back to a chosen node and to whoever handled it last', async () => {
    const c = await filledCase(5);
    let rev = (await submit('entry', c.id, c.rev, 'dataQc', 'qc')).body.data.case.rev;
    rev = (await submit('qc', c.id, rev, 'medicalReview', 'medical')).body.data.case.rev;
    const back = await rig
      .as('medical')
      .call('POST', `/cases/${c.id}/back`, { rev, toNode: 'dataEntry', opinion: '剂量缺失' });
    expect(back.body.data.case.document.state).toMatchObject({
      workflowNode: 'dataEntry',
      handlerId: 'entry',
      handlerName: '录入员小王',
    });
    const notEarlier = await rig
      .as('entry')
      .call('POST', `/cases/${c.id}/back`, { toNode: 'dataQc', opinion: 'x' });
    expect(notEarlier.body.msg).toBe('This action is not available at the current node');
    const history = (await entry.call('GET', `/cases/${c.id}/workflow-history`)).body.data.items;
    expect(history.at(-1)).toMatchObject({
      action: 'back',
      result: 'returned',
      opinion: '剂量缺失',
      nextProcesserId: 'entry',
    });
  });

  it('challenges internally or externally without moving the case', async () => {
    const c = await filledCase(6);
    const none = await rig
      .as('qc')
      .call('POST', `/cases/${c.id}/challenge`, { userId: 'entry', opinion: '请核实发生日期' });
    expect(none.body.msg).toBe('Please choose an internal or an external challenge');
    const ok = await rig.as('qc').call('POST', `/cases/${c.id}/challenge`, {
      kind: 'external',
      userId: 'entry',
      opinion: '请核实发生日期',
    });
    expect(ok.body.code).toBe(200);
    expect(ok.body.data.case.rev).toBe(c.rev);
    expect(ok.body.data.history).toMatchObject({
      action: 'challenge',
      option: 'external',
      node: 'dataEntry',
      nextNode: 'dataEntry',
    });
  });

  it('needs the submission information before a plan, and regulatory submission before completion', async () => {
    const c = await filledCase(7, (doc) => {
      doc.submissionPlans = [];
    });
    expect((await entry.call('POST', `/cases/${c.id}/mark-completed`, {})).body.msg).toBe(
      'A report can be marked finished only at regulatory submission',
    );
    let rev = (await submit('entry', c.id, c.rev, 'dataQc', 'qc')).body.data.case.rev;
    rev = (await submit('qc', c.id, rev, 'medicalReview', 'medical')).body.data.case.rev;
    rev = (await submit('medical', c.id, rev, 'createSubmissionPlan', 'submitter')).body.data.case.rev;
    const plan = await rig
      .as('submitter')
      .call('POST', `/cases/${c.id}/create-plan`, { rev, userId: 'sponsor' }, 'cn');
    expect(plan.body.msg).toBe('请先保存监管递交信息');
    const stale = await rig.as('submitter').call('POST', `/cases/${c.id}/mark-completed`, { rev: rev - 1 });
    expect(stale.body.code).toBe(409);
  });

  it('refuses to submit a case with errors and answers the findings by tab', async () => {
    const c = await filledCase(8, (doc) => {
      (doc.narrative as Record<string, unknown>).caseNarrative = undefined;
    });
    const res = await submit('entry', c.id, c.rev, 'dataQc', 'qc');
    expect(res.body).toMatchObject({ code: 400, msg: 'Please check the form data.' });
    expect(res.body.data.groups.map((g: { tab: string }) => g.tab)).toContain('analysis');
    expect(rig.signer.signed.some((s) => s.subjectId === c.id)).toBe(false);
  });

  it('copies a case into a new report at data entry', async () => {
    const c = await filledCase(9);
    const copy = await entry.call('POST', '/cases/copy', { caseIds: [c.id] });
    expect(copy.body.code).toBe(200);
    const original = (await entry.call('GET', `/cases/${c.id}`)).body.data.document;
    expect(copy.body.data.document.report.reportCode).not.toBe(original.report.reportCode);
    expect(copy.body.data.document.patient).toEqual(original.patient);
    expect(copy.body.data.document.submissionPlans).toBeUndefined();
    expect(copy.body.data.document.state).toMatchObject({
      workflowNode: 'dataEntry',
      version: 1,
      isCompleted: false,
    });
  });

  it('answers the header actions the workflow allows at the node', async () => {
    const c = await filledCase(10);
    const detail = (await entry.call('GET', `/cases/${c.id}`)).body.data;
    const byId = Object.fromEntries(detail.actions.map((a: { action: string }) => [a.action, a]));
    expect(byId.submit).toMatchObject({
      allowed: true,
      targets: ['dataQc'],
      signature: true,
      needsUser: true,
    });
    expect(byId.back.allowed).toBe(false);
    expect(byId.followUp).toMatchObject({ allowed: false, messageKey: 'cases.followUpOnlyCompleted' });
    expect(detail.node).toEqual({ id: 'dataEntry', label: { zh: '数据录入', en: 'Data entry' } });
  });
});

describe('project workflow overrides', () => {
  it('follows a project that skips data QC, and refuses an override with an unreachable node', async () => {
    const refused = await entry.call('PUT', '/workflow/case/projects/p1', {
      override: {
        order: [
          ...[
            'dataEntry',
            'dataQc',
            'medicalReview',
            'sponsorAudit',
            'createSubmissionPlan',
            'approveSubmissionPlan',
            'submissionTransmission',
          ],
          'island',
        ],
        nodes: { island: { label: { zh: '孤岛', en: 'Island' }, transitions: {} } },
      },
    });
    expect(refused.body.code).toBe(400);
    expect(refused.body.data.problems).toContainEqual({
      messageKey: 'workflow.problem.unreachable',
      params: { node: 'island' },
    });
    const saved = await entry.call('PUT', '/workflow/case/projects/p1', {
      override: { nodes: { dataEntry: { transitions: { submit: ['medicalReview'] } } } },
    });
    expect(saved.body.code).toBe(200);
    // The override lands in UAT; cases follow it once it is published (signed) to PRO.
    await new ConfiguratorService(rig.store.tenant('t1', { userId: 'x' }), rig.clock).publish(
      async () => ({ _id: 's' }),
      'pw',
    );
    const c = await filledCase(11);
    // The case answer names the project's nodes for the action dialog.
    const opened = await entry.call('GET', `/cases/${c.id}`);
    expect(opened.body.data.nodeLabels.medicalReview).toMatchObject({
      zh: expect.any(String),
      en: expect.any(String),
    });
    expect(
      (await submit('entry', c.id, c.rev, 'medicalReview', 'medical')).body.data.case.document.state
        .workflowNode,
    ).toBe('medicalReview');
    const def = await entry.call('GET', '/workflow/case?projectId=p1');
    expect(def.body.data.nodes.dataEntry.transitions.submit).toEqual(['medicalReview']);
    const check = await entry.call('POST', '/workflow/case/check', {
      override: { nodes: { dataQc: { transitions: { submit: ['dataEntry'] } } } },
    });
    expect(check.body.data.problems.map((p: { messageKey: string }) => p.messageKey)).toContain(
      'workflow.problem.noWayToGoal',
    );
  });
});
