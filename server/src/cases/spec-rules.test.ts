/**
 * SPEC section 4 (case states and transitions) and the case messages of section 8, each refusal
 * asserted with its exact text in en and in zh and with the case left unchanged. The map from each
 * rule and message to its test is server/src/cases/SPEC-COVERAGE.md.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { C } from './collections';
import { caseRig, expectRefused, filledCaseOf, PASSWORD } from './testing';
import type { Texts } from './testing';

const rig = await caseRig();
afterAll(() => rig.close());
const entry = rig.as('entry');
const system = rig.store.tenant('t1', { userId: 'system:test' });

const filledCase = async (n: number, patch?: (doc: Record<string, unknown>) => void) => {
  const c = await filledCaseOf(rig, 'entry', 'p1', n);
  if (!patch) return { id: c.id, rev: c.rev };
  const current = (await entry.call('GET', `/cases/${c.id}`)).body.data;
  const document = structuredClone(current.document);
  patch(document);
  const saved = await entry.call('PUT', `/cases/${c.id}`, {
    rev: current.rev,
    document,
    confirmMissing: true,
  });
  expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
  return { id: c.id, rev: saved.body.data.case.rev as number };
};

/** Who hands the case on at each node, to which node and user. */
const ROUTE: Record<string, [who: string, toNode: string, next: string]> = {
  dataEntry: ['entry', 'dataQc', 'qc'],
  dataQc: ['qc', 'medicalReview', 'medical'],
  medicalReview: ['medical', 'sponsorAudit', 'sponsor'],
  sponsorAudit: ['sponsor', 'createSubmissionPlan', 'submitter'],
};

/** A complete case moved along the workflow until it is at `target` (submit, plan, approval, completion). */
async function caseAt(
  n: number,
  target: string,
  complete = false,
): Promise<{ id: string; rev: number; node: string }> {
  const c = await filledCase(n);
  let rev = c.rev;
  let node = 'dataEntry';
  const step = async (who: string, path: string, body: Record<string, unknown>) => {
    const res = await rig.as(who).call('POST', `/cases/${c.id}/${path}`, { rev, ...body });
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    rev = res.body.data.case.rev;
    node = res.body.data.case.document.state.workflowNode;
  };
  while (node !== target) {
    if (ROUTE[node]) {
      const [who, toNode, next] = ROUTE[node]!;
      await step(who, 'submit', { toNode, userId: next, password: PASSWORD });
    } else if (node === 'createSubmissionPlan') await step('submitter', 'create-plan', { userId: 'sponsor' });
    else if (node === 'approveSubmissionPlan')
      await step('sponsor', 'approve-plan', { result: 'agree', userId: 'submitter', password: PASSWORD });
    else throw new Error(`cannot reach ${target} from ${node}`);
  }
  if (complete) await step('submitter', 'mark-completed', {});
  return { id: c.id, rev, node };
}

const refused = (
  who: string,
  method: string,
  path: string,
  body: unknown,
  caseId: string | undefined,
  texts: Texts,
) => expectRefused(rig, who, { method, path, body, ...(caseId ? { caseId, reader: 'entry' } : {}) }, texts);

const resubmit = (c: { id: string; rev: number }) => ({ rev: c.rev, userId: 'qc', password: PASSWORD });

describe('SPEC 4 case workflow', () => {
  it('nodes: data entry, data QC, medical review, sponsor audit, then regulatory submission in three sub-steps', async () => {
    const c = await filledCase(1);
    const seen = ['dataEntry'];
    let rev = c.rev;
    for (const [who, toNode, next] of Object.values(ROUTE)) {
      const res = await rig.as(who).call('POST', `/cases/${c.id}/submit`, {
        rev,
        toNode,
        userId: next,
        password: PASSWORD,
      });
      expect(res.body.data.case.document.state).toMatchObject({ workflowNode: toNode, handlerId: next });
      rev = res.body.data.case.rev;
      seen.push(toNode);
    }
    const plan = await rig
      .as('submitter')
      .call('POST', `/cases/${c.id}/create-plan`, { rev, userId: 'sponsor' });
    seen.push(plan.body.data.case.document.state.workflowNode);
    rev = plan.body.data.case.rev;
    const approved = await rig.as('sponsor').call('POST', `/cases/${c.id}/approve-plan`, {
      rev,
      result: 'agree',
      userId: 'submitter',
      password: PASSWORD,
    });
    seen.push(approved.body.data.case.document.state.workflowNode);
    expect(seen).toEqual([
      'dataEntry',
      'dataQc',
      'medicalReview',
      'sponsorAudit',
      'createSubmissionPlan',
      'approveSubmissionPlan',
      'submissionTransmission',
    ]);
    const history = (await entry.call('GET', `/cases/${c.id}/workflow-history`)).body.data.items;
    expect(history.map((h: { action: string }) => h.action)).toEqual([
      'submit',
      'submit',
      'submit',
      'submit',
      'createPlan',
      'approvePlan',
    ]);
  });

  it('a report at regulatory submission cannot be submitted again (en and zh), at any of its sub-steps', async () => {
    const texts = {
      en: 'The report is already at regulatory submission and cannot be submitted again',
      zh: '报告已处于监管递交节点，不能再次提交',
    };
    const atPlan = await caseAt(2, 'createSubmissionPlan');
    await refused('submitter', 'POST', `/cases/${atPlan.id}/submit`, resubmit(atPlan), atPlan.id, texts);
    const atApproval = await caseAt(3, 'approveSubmissionPlan');
    await refused(
      'sponsor',
      'POST',
      `/cases/${atApproval.id}/submit`,
      resubmit(atApproval),
      atApproval.id,
      texts,
    );
  });

  it('a report in submission transmission cannot be submitted again (en and zh)', async () => {
    const c = await caseAt(4, 'submissionTransmission');
    await refused('submitter', 'POST', `/cases/${c.id}/submit`, resubmit(c), c.id, {
      en: 'The report is already in submission transmission and cannot be submitted again',
      zh: '报告已处于递交传输节点，不能再次提交',
    });
  });
});

describe('SPEC 4 completion', () => {
  it('only a report marked finished can be followed up (en and zh); a finished one can', async () => {
    const c = await caseAt(5, 'submissionTransmission');
    const today = rig.clock.now().toISOString().slice(0, 10).replace(/-/g, '');
    const body = { rev: c.rev, reason: '随访到新的化验结果', latestInformationDate: today };
    await refused('entry', 'POST', `/cases/${c.id}/follow-up`, body, c.id, {
      en: 'Only report marked as finished can be used to create a follow-up report.',
      zh: '只有已标记完成的报告才能创建随访报告。',
    });
    const done = await rig.as('submitter').call('POST', `/cases/${c.id}/mark-completed`, { rev: c.rev });
    expect(done.body.data.case.document.state.isCompleted).toBe(true);
    const followUp = await entry.call('POST', `/cases/${c.id}/follow-up`, {
      ...body,
      rev: done.body.data.case.rev,
    });
    expect(followUp.body.code, JSON.stringify(followUp.body)).toBe(200);
    expect(followUp.body.data.case.document.state).toMatchObject({ versionType: 'followUp', version: 2 });
  });

  it('a finished report cannot be submitted, changed or deleted (en and zh)', async () => {
    const c = await caseAt(6, 'submissionTransmission', true);
    await refused('submitter', 'POST', `/cases/${c.id}/submit`, resubmit(c), c.id, {
      en: 'The report is marked finished and cannot be submitted',
      zh: '报告已标记完成，不能提交',
    });
    const current = (await entry.call('GET', `/cases/${c.id}`)).body.data;
    await refused('entry', 'PUT', `/cases/${c.id}`, { rev: c.rev, document: current.document }, c.id, {
      en: 'The report is marked finished and cannot be changed',
      zh: '报告已标记完成，不能修改',
    });
    await refused('entry', 'POST', '/cases/delete', { caseIds: [c.id] }, c.id, {
      en: 'The report is marked finished and cannot be deleted',
      zh: '报告已标记完成，不能删除',
    });
  });

  it('a report at regulatory submission cannot be deleted (en and zh)', async () => {
    const c = await caseAt(7, 'createSubmissionPlan');
    await refused('entry', 'POST', '/cases/delete', { caseIds: [c.id] }, c.id, {
      en: 'The report is at regulatory submission and cannot be deleted',
      zh: '报告处于监管递交节点，不能删除',
    });
  });

  it('a locked case cannot be deleted or changed (en and zh): the case flag and a locked project', async () => {
    const c = await filledCase(8);
    const locked = { en: 'The case is locked and cannot be deleted', zh: '病例已锁定，不能删除' };
    const changed = { en: 'The case is locked and cannot be changed', zh: '病例已锁定，不能修改' };
    // No screen sets the case's lock flag yet: the store sets it as a locking module would.
    await system.collection(C.cases).updateOne({ _id: c.id }, { $set: { 'state.isLocked': true } });
    const current = (await entry.call('GET', `/cases/${c.id}`)).body.data;
    await refused('entry', 'POST', '/cases/delete', { caseIds: [c.id] }, c.id, locked);
    await refused(
      'entry',
      'PUT',
      `/cases/${c.id}`,
      { rev: current.rev, document: current.document },
      c.id,
      changed,
    );
    await system.collection(C.cases).updateOne({ _id: c.id }, { $set: { 'state.isLocked': false } });

    await system.collection(C.projects).updateOne({ _id: 'p1' }, { $set: { locked: true } });
    try {
      await refused('entry', 'POST', '/cases/delete', { caseIds: [c.id] }, c.id, locked);
    } finally {
      await system.collection(C.projects).updateOne({ _id: 'p1' }, { $set: { locked: false } });
    }
    expect((await entry.call('POST', '/cases/delete', { caseIds: [c.id] })).body.code).toBe(200);
  });
});

describe('SPEC 4 validity and flags', () => {
  it('valid, marked invalid, deleted and restored to what it was; each refusal in en and zh', async () => {
    const c = await filledCase(9);
    expect((await entry.call('GET', `/cases/${c.id}`)).body.data.document.state).toMatchObject({
      validity: 'valid',
      versionType: 'initial',
      isLocked: false,
    });
    const invalid = await entry.call('POST', `/cases/${c.id}/mark-invalid`, { opinion: '重复报告' });
    expect(invalid.body.data.case.document.state.validity).toBe('invalid');
    const rev = invalid.body.data.case.rev as number;
    await refused(
      'entry',
      'POST',
      `/cases/${c.id}/submit`,
      { rev, toNode: 'dataQc', userId: 'qc', password: PASSWORD },
      c.id,
      {
        en: 'The report is marked invalid',
        zh: '病例已标记为无效，不能操作',
      },
    );
    expect((await entry.call('POST', '/cases/delete', { caseIds: [c.id] })).body.code).toBe(200);
    const deleted = (await entry.call('GET', `/cases/${c.id}`)).body.data;
    await refused('entry', 'PUT', `/cases/${c.id}`, { rev: deleted.rev, document: deleted.document }, c.id, {
      en: 'The report is deleted; restore it first',
      zh: '病例已删除，不能操作',
    });
    expect((await entry.call('POST', '/cases/restore', { caseIds: [c.id] })).body.code).toBe(200);
    expect((await entry.call('GET', `/cases/${c.id}`)).body.data.document.state.validity).toBe('invalid');
  });
});

describe('SPEC 8 case messages in en and zh', () => {
  it('selections: at least one line, nothing to delete, the report to copy, the report to export', async () => {
    await refused('entry', 'POST', '/cases/restore', { caseIds: [] }, undefined, {
      en: 'Please select at least one data line.',
      zh: '请至少选择一条数据。',
    });
    await refused('entry', 'POST', '/cases/delete', { caseIds: [] }, undefined, {
      en: 'No data selected, fail to delete',
      zh: '未选择数据，删除失败',
    });
    await refused('entry', 'POST', '/cases/copy', {}, undefined, {
      en: 'Please select the report to copy',
      zh: '请选择要复制的报告',
    });
    await refused('entry', 'POST', '/cases/selection', {}, undefined, {
      en: 'The report to be exported has not been selected',
      zh: '未选择要导出的报告',
    });
  });

  it('new report: the research project, the C.1.3 report type and the event country', async () => {
    await refused('entry', 'POST', '/cases', { reportType: '2', happenCountry: 'CN' }, undefined, {
      en: 'Please select a research project',
      zh: '请选择研究项目',
    });
    await refused('entry', 'POST', '/cases', { projectId: 'p1', happenCountry: 'CN' }, undefined, {
      en: 'Select C.1.3 Report Type',
      zh: '请选择C.1.3报告类型',
    });
    await refused('entry', 'POST', '/cases', { projectId: 'p1', reportType: '2' }, undefined, {
      en: 'Please select the country where the event occurred',
      zh: '请选择事件发生国家',
    });
  });

  it('wrong values: "Please check the form data." on save and on submit', async () => {
    const c = await filledCase(10);
    const current = (await entry.call('GET', `/cases/${c.id}`)).body.data;
    const wrong = structuredClone(current.document);
    // D.3 body height is a whole number of centimetres.
    wrong.patient = { ...wrong.patient, height: 170.5 };
    const texts = { en: 'Please check the form data.', zh: '请检查表单数据。' };
    await refused(
      'entry',
      'PUT',
      `/cases/${c.id}`,
      { rev: current.rev, document: wrong, confirmMissing: true },
      c.id,
      texts,
    );
    const incomplete = await filledCase(11, (doc) => {
      (doc.narrative as Record<string, unknown>).caseNarrative = undefined;
    });
    await refused(
      'entry',
      'POST',
      `/cases/${incomplete.id}/submit`,
      { rev: incomplete.rev, toNode: 'dataQc', userId: 'qc', password: PASSWORD },
      incomplete.id,
      texts,
    );
  });

  it('the receiving user, the user, the approval result, the submission information first', async () => {
    const c = await filledCase(12);
    await refused(
      'entry',
      'POST',
      `/cases/${c.id}/submit`,
      { rev: c.rev, toNode: 'dataQc', password: PASSWORD },
      c.id,
      {
        en: 'Please select the user who is about to receive the submission',
        zh: '请选择即将接收的用户',
      },
    );
    await refused(
      'entry',
      'POST',
      `/cases/${c.id}/submit`,
      { rev: c.rev, toNode: 'dataQc', userId: 'ghost', password: PASSWORD },
      c.id,
      { en: 'Please specify user', zh: '请指定用户' },
    );
    const approval = await caseAt(13, 'approveSubmissionPlan');
    await refused(
      'sponsor',
      'POST',
      `/cases/${approval.id}/approve-plan`,
      { rev: approval.rev, userId: 'submitter', password: PASSWORD },
      approval.id,
      { en: 'Please select the approval result', zh: '请选择审批结果' },
    );
    const noPlans = await filledCase(14, (doc) => {
      doc.submissionPlans = [];
    });
    let rev = noPlans.rev;
    for (const node of ['dataEntry', 'dataQc', 'medicalReview', 'sponsorAudit']) {
      const [who, toNode, next] = ROUTE[node]!;
      rev = (
        await rig
          .as(who)
          .call('POST', `/cases/${noPlans.id}/submit`, { rev, toNode, userId: next, password: PASSWORD })
      ).body.data.case.rev;
    }
    await refused(
      'submitter',
      'POST',
      `/cases/${noPlans.id}/create-plan`,
      { rev, userId: 'sponsor' },
      noPlans.id,
      {
        en: 'Please save the supervisory submission information first',
        zh: '请先保存监管递交信息',
      },
    );
  });
});
