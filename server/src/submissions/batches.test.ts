/**
 * Batch submission plans and the expedited-report list (issue 19 items 2 and 3): the rules
 * propose a plan per case and project receiver, the user edits and saves them as one batch, sends
 * it to a reviewer, who approves plan by plan or all with the e-signature; the expedited list
 * shows each planned report with its receiver, rule, clock, due date, days left and state.
 */
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { recordCaseTransmissions } from '../cases';
import { PASSWORD } from '../cases/testing';
import { submissionRig } from './testing';

const today = new Date('2026-11-21T08:00:00Z');
const rig = await submissionRig(today);
afterAll(() => rig.close());
const { entry, seeded, receiver, linkReceivers } = rig;

const cde = await receiver('CDE', 'CDE', 'nmpa');
const fda = await receiver('FDA FAERS', 'ZZFDA', 'fda');
await linkReceivers([cde, fda]);
// 13 cardiac arrest (fatal), 5 febrile neutropenia (hospitalisation), 0 rash (non-serious).
const fatal = await seeded(1, { receivedDaysAgo: 10, reactionIndex: 13, susar: true });
const other = await seeded(2, { receivedDaysAgo: 3, reactionIndex: 5, susar: true });
const mild = await seeded(3, { receivedDaysAgo: 1, reactionIndex: 0, susar: false });
const caseIds = [fatal.id, other.id, mild.id];

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers read loosely
let batch: Row;

describe('batch submission plans', () => {
  it('proposes a plan for every case and project receiver, with due date and explanation', async () => {
    const answer = await entry.call('POST', '/submissions/proposals', { projectId: 'p1', caseIds });
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(200);
    const rows: Row[] = answer.body.data.items;
    expect(rows).toHaveLength(6);
    const of = (caseId: string, receiverId: string) =>
      rows.find((r) => r.caseId === caseId && r.receiverId === receiverId)!;
    expect(of(fatal.id, cde)).toMatchObject({
      isSubmit: true,
      authority: 'nmpa',
      ruleId: 'nmpa.study.susarFatalOrLifeThreatening',
      days: 7,
      dueDate: '2026-11-18',
      clockStart: { e2b: 'C.1.4' },
    });
    const facts = of(fatal.id, cde).explanation.facts as Row[];
    expect(facts.find((f) => f.fact === 'fatalOrLifeThreatening')).toMatchObject({ value: true });
    expect(facts.find((f) => f.fact === 'fatalOrLifeThreatening')!.from).toContain('E.i.3.2a');
    expect(of(fatal.id, fda)).toMatchObject({ isSubmit: true, authority: 'fda', days: 7 });
    expect(of(other.id, cde)).toMatchObject({ isSubmit: true, days: 15, dueDate: '2026-12-03' });
    expect(of(mild.id, cde)).toMatchObject({ isSubmit: false, dueDate: null });
    expect(of(mild.id, cde).noneSubmitWhy).toBeTruthy();
  });

  it('refuses a case of another project, a caller without the right, and a decline without reason', async () => {
    const outside = await entry.call('POST', '/submissions/proposals', {
      projectId: 'p1',
      caseIds: ['nope'],
    });
    expect(outside.body.msg).toBe('Case nope is not a case of the selected project');
    expect(
      (await rig.as('viewer').call('POST', '/submissions/proposals', { projectId: 'p1', caseIds })).status,
    ).toBe(403);
    const noReason = await entry.call(
      'POST',
      '/submissions/batches',
      { projectId: 'p1', sponsor: 'XY', plans: [{ caseId: mild.id, receiverId: cde, isSubmit: false }] },
      'cn',
    );
    expect(noReason.body.msg).toBe(`请填写不递交原因（${mild.reportCode}，CDE）`);
    // The project has no sponsor (the form cleared it) and the batch names none.
    const noSponsor = await entry.call('POST', '/submissions/batches', {
      projectId: 'p1',
      plans: [{ caseId: fatal.id, receiverId: cde, isSubmit: true }],
    });
    expect(noSponsor.body.msg).toBe('No available sponsor, please check the data.');
    expect((await entry.call('GET', '/submissions/expedited')).body.data.total).toBe(0);
  });

  it('saves the edited plans as one batch and sends it to the reviewer', async () => {
    const saved = await entry.call('POST', '/submissions/batches', {
      projectId: 'p1',
      sponsor: '某制药有限公司',
      plans: [
        { caseId: fatal.id, receiverId: cde, isSubmit: true, transmissionMode: '1', remark: 'urgent' },
        { caseId: fatal.id, receiverId: fda, isSubmit: true, clinicIsSusar: true, clinicIsBlinding: false },
        { caseId: other.id, receiverId: cde, isSubmit: true, medicalEvaluationResult: 'related' },
        { caseId: other.id, receiverId: fda, isSubmit: false, noneSubmitWhy: 'not an IND product in the US' },
        { caseId: mild.id, receiverId: cde, isSubmit: false, noneSubmitWhy: 'non-serious' },
      ],
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
    batch = saved.body.data;
    expect(batch).toMatchObject({ state: 'draft', planCount: 5, sponsor: '某制药有限公司' });
    const fdaDeclined = batch.plans.find((p: Row) => p.caseId === other.id && p.receiverId === fda);
    expect(fdaDeclined).toMatchObject({
      isSubmit: false,
      proposedSubmit: true,
      dueDate: null,
      state: 'planned',
    });
    expect(batch.plans.find((p: Row) => p.remark === 'urgent')).toMatchObject({
      ruleId: 'nmpa.study.susarFatalOrLifeThreatening',
      dueDate: '2026-11-18',
    });

    const path = `/submissions/batches/${batch.batchId}/review-request`;
    expect((await entry.call('POST', path, {})).body.msg).toBe(
      'Please select the user who is about to receive the submission',
    );
    expect((await entry.call('POST', path, { reviewerId: 'ghost' })).body.code).toBe(400);
    const sent = await entry.call('POST', path, { reviewerId: 'sponsor' });
    expect(sent.body.data).toMatchObject({ state: 'inReview', reviewerId: 'sponsor' });
    expect((await entry.call('POST', path, { reviewerId: 'sponsor' })).body.msg).toBe(
      'The batch was already sent for review',
    );
  });

  it('is reviewed by the chosen reviewer only, every plan decided, with the signature', async () => {
    const path = `/submissions/batches/${batch.batchId}/review`;
    const byOther = await rig.as('qc').call('POST', path, { all: 'agree', password: PASSWORD });
    expect(byOther.status).toBe(403);
    const reviewer = rig.as('sponsor');
    expect((await reviewer.call('POST', path, { password: PASSWORD })).body.msg).toBe(
      'Please select the approval result',
    );
    const first = batch.plans[0].planId as string;
    expect(
      (
        await reviewer.call('POST', path, {
          decisions: [{ planId: first, result: 'agree' }],
          password: PASSWORD,
        })
      ).body.msg,
    ).toBe('Decide every plan of the batch (4 left)');
    expect((await reviewer.call('POST', path, { all: 'agree', password: 'wrong' })).body.code).toBe(400);
    const decisions = batch.plans.map((p: Row) => ({
      planId: p.planId,
      result: p.caseId === other.id && p.receiverId === cde ? 'disagree' : 'agree',
    }));
    const reviewed = await reviewer.call('POST', path, { decisions, opinion: 'ok', password: PASSWORD });
    expect(reviewed.body.code, JSON.stringify(reviewed.body)).toBe(200);
    expect(reviewed.body.data.state).toBe('reviewed');
    const states = reviewed.body.data.plans.map((p: Row) => p.state).sort();
    expect(states).toEqual(['approved', 'approved', 'approved', 'approved', 'rejected']);
    expect(rig.signer.signed).toContainEqual({
      userId: 'sponsor',
      meaning: 'submissions:reviewPlans',
      subjectId: batch.batchId,
    });
  });
});

describe('expedited reports', () => {
  it('lists each plan to submit with receiver, rule, clock, due date, days left and state', async () => {
    const list = (await entry.call('GET', '/submissions/expedited')).body.data;
    expect(list.total).toBe(3);
    expect(
      list.items.map((r: Row) => [r.reportCode, r.receiverName, r.state, r.dueDate, r.daysLeft, r.late]),
    ).toEqual([
      [fatal.reportCode, 'CDE', 'approved', '2026-11-18', -3, true],
      [fatal.reportCode, 'FDA FAERS', 'approved', '2026-11-18', -3, true],
      [other.reportCode, 'CDE', 'rejected', '2026-12-03', 12, false],
    ]);
    expect(list.items[0]).toMatchObject({
      authority: 'nmpa',
      clockStart: '20261111',
      clockStartElement: 'C.1.4',
    });
    const onlyFda = (await entry.call('GET', `/submissions/expedited?receiverId=${fda}`)).body.data;
    expect(onlyFda.total).toBe(1);
    expect((await entry.call('GET', '/submissions/expedited?reviewState=rejected')).body.data.total).toBe(1);
    expect((await entry.call('GET', '/submissions/expedited?dueFrom=2026-11-19')).body.data.total).toBe(1);
    expect((await rig.as('viewer').call('GET', '/submissions/expedited')).status).toBe(403);
  });

  it('follows the transmissions: sent, acknowledged; the compliance summary counts late and on time', async () => {
    const handle = rig.store.tenant('t1', { userId: 'submitter' });
    const move = (receiverId: string, receiverName: string, status: 'sent' | 'acknowledged') => ({
      caseId: fatal.id,
      status,
      receiverId,
      receiverName,
      receiverIdentifier: receiverName,
      batchId: `b-${receiverId}`,
      exportId: `e-${receiverId}`,
      fileName: 'f.xml',
      version: 1,
    });
    await recordCaseTransmissions(
      handle,
      { userId: 'submitter', name: null },
      [move(cde, 'CDE', 'acknowledged')],
      today,
    );
    await recordCaseTransmissions(
      handle,
      { userId: 'submitter', name: null },
      [move(fda, 'FDA FAERS', 'sent')],
      today,
    );
    const items = (await entry.call('GET', '/submissions/expedited')).body.data.items as Row[];
    expect(items.slice(0, 2).map((r) => [r.receiverName, r.state, r.sentAt, r.daysLeft, r.late])).toEqual([
      ['CDE', 'acknowledged', '2026-11-21', null, true],
      ['FDA FAERS', 'sent', '2026-11-21', null, true],
    ]);
    // No double sending: CDE acknowledged this version; exporting it to CDE again is refused.
    const again = await entry.call('POST', `/exports/cases/${fatal.id}`, { receiverId: cde }, 'cn');
    expect(again.body.msg).toBe(
      `${fatal.reportCode} 第 1 版已被 CDE 确认接收，只能以随访、修正或作废报告再次递交`,
    );
    const summary = (await entry.call('GET', '/submissions/expedited/compliance')).body.data;
    expect(summary).toEqual([
      {
        key: `${cde}/2026-11`,
        receiverId: cde,
        receiverName: 'CDE',
        month: '2026-11',
        onTime: 0,
        late: 1,
        open: 0,
        lateReasons: [],
      },
      {
        key: `${fda}/2026-11`,
        receiverId: fda,
        receiverName: 'FDA FAERS',
        month: '2026-11',
        onTime: 0,
        late: 1,
        open: 0,
        lateReasons: [],
      },
    ]);
  });

  it('exports the list as XLSX in the caller’s language', async () => {
    const res = await rig.platform.app.request('/api/submissions/expedited/export', {
      headers: { authorization: 'Bearer t1:entry', 'lang-type': 'cn' },
    });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('快速报告');
    expect(sheet.getRow(1).values).toContain('截止日期');
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(2).values).toContain('已确认接收');
  });
});
