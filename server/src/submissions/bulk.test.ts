/**
 * Bulk reporting, late reasons, nullification and amendment (issue 19 items 4, 6, 7): approved
 * plans of one receiver exported in a job (one message per case, files split at the size limit,
 * each file a transmission), sent with the late reason when past due, listed with their state; an
 * acknowledged version goes again only as a nullification or amendment (C.1.11.1 / C.1.11.2); a
 * follow-up waits for its initial.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../cases/testing';
import { positiveAck } from '../exports/testing';
import { JobRunner } from '../jobs';
import { submissionRig } from './testing';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers read loosely

const today = new Date('2026-11-21T08:00:00Z');
const rig = await submissionRig(today);
afterAll(() => rig.close());
const { entry, seeded, receiver, linkReceivers } = rig;
const submitter = rig.as('submitter');

const cde = await receiver('CDE', 'CDE', 'nmpa');
const fda = await receiver('FDA FAERS', 'ZZFDA', 'fda');
await linkReceivers([cde, fda]);
// CDE takes files of about one and a half demo reports: a batch of three splits into one each.
const cdeView = (await entry.call('GET', '/exports/receivers')).body.data.find(
  (r: Row) => r.receiverId === cde,
);
const limited = await entry.call('PUT', `/exports/receivers/${cde}`, {
  name: 'CDE',
  receiverIdentifier: 'CDE',
  senderIdentifier: 'XYPHARMA',
  profile: 'nmpa',
  format: 'r3',
  maxFileMb: 0.04,
  rev: cdeView.rev,
});
expect(limited.body.data.maxFileMb, JSON.stringify(limited.body)).toBe(0.04);
// Fatal SUSAR received 10 days ago (due 2026-11-18: late), two SUSARs within their clocks.
const fatal = await seeded(1, { receivedDaysAgo: 10, reactionIndex: 13, susar: true });
const other = await seeded(2, { receivedDaysAgo: 3, reactionIndex: 5, susar: true });
const third = await seeded(4, { receivedDaysAgo: 2, reactionIndex: 5, susar: true });
const runner = new JobRunner(rig.platform.deps, rig.platform.jobDefinitions, { owner: 'bulk-test' });
const runJobs = async () => {
  await runner.tick();
  await runner.idle();
};

/** Plans the rules propose for the cases, every one to submit, approved by the sponsor reviewer. */
async function approvedPlans(caseIds: string[], receiverIds = [cde, fda]): Promise<Row[]> {
  const proposed = (await entry.call('POST', '/submissions/proposals', { projectId: 'p1', caseIds })).body
    .data.items as Row[];
  const plans = proposed
    .filter((p) => receiverIds.includes(p.receiverId))
    .map((p) => ({ caseId: p.caseId, receiverId: p.receiverId, isSubmit: true }));
  const batch = (await entry.call('POST', '/submissions/batches', { projectId: 'p1', sponsor: 'XY', plans }))
    .body.data;
  return review(batch.batchId);
}

async function review(batchId: string): Promise<Row[]> {
  await entry.call('POST', `/submissions/batches/${batchId}/review-request`, { reviewerId: 'sponsor' });
  const reviewed = await rig
    .as('sponsor')
    .call('POST', `/submissions/batches/${batchId}/review`, { all: 'agree', password: PASSWORD });
  expect(reviewed.body.code, JSON.stringify(reviewed.body)).toBe(200);
  return reviewed.body.data.plans as Row[];
}

const runs = (receiverId: string) => `/submissions/bulk/projects/p1?receiverId=${receiverId}`;
const runOf = async (receiverId: string, runId: string) =>
  ((await submitter.call('GET', runs(receiverId))).body.data.runs as Row[]).find((r) => r.runId === runId)!;
const start = (body: Row, lang: 'en' | 'cn' = 'en') =>
  submitter.call('POST', '/submissions/bulk/projects/p1/runs', body, lang);
const listed = async () =>
  (await entry.call('GET', '/submissions/expedited?size=50')).body.data.items as Row[];

let plans: Row[];
let cdeRun: Row;
const planOf = (caseId: string, receiverId: string) =>
  plans.find((p) => p.caseId === caseId && p.receiverId === receiverId)!;

describe('bulk reporting', () => {
  it('offers the approved plans of the chosen receiver not yet exported', async () => {
    plans = await approvedPlans([fatal.id, other.id, third.id]);
    const page = (await submitter.call('GET', runs(cde))).body.data;
    expect(page.receivers.map((r: Row) => r.name)).toEqual(['CDE', 'FDA FAERS']);
    expect(page.candidates.map((c: Row) => [c.reportCode, c.dueDate, c.late])).toEqual([
      [fatal.reportCode, '2026-11-18', true],
      [other.reportCode, '2026-12-03', false],
      [third.reportCode, '2026-12-04', false],
    ]);
    expect((await rig.as('viewer').call('GET', runs(cde))).status).toBe(403);
  });

  it('refuses a late send without its reason, a plan of another receiver, nothing selected', async () => {
    const cdePlans = [fatal, other, third].map((c) => planOf(c.id, cde).planId);
    const noReason = await start({ receiverId: cde, planIds: cdePlans, send: true }, 'cn');
    expect(noReason.body.msg).toBe(`已超过截止日期，请填写超期递交原因（${fatal.reportCode}）`);
    const wrong = await start({ receiverId: cde, planIds: [planOf(fatal.id, fda).planId] });
    expect(wrong.body.msg).toBe(`The plan of ${fatal.reportCode} is for FDA FAERS, not CDE`);
    expect((await start({ receiverId: cde, planIds: [] })).body.msg).toBe(
      'Select at least one approved plan',
    );
    expect((await submitter.call('GET', runs(cde))).body.data.runs).toEqual([]);
  });

  it('exports and sends in a job: one file per report at this size limit, the late reason kept', async () => {
    const cdePlans = [fatal, other, third].map((c) => planOf(c.id, cde).planId);
    const started = await start({
      receiverId: cde,
      planIds: cdePlans,
      send: true,
      lateReason: 'gateway outage',
    });
    expect(started.body.data).toMatchObject({ state: 'queued', total: 3, done: 0 });
    expect((await start({ receiverId: cde, planIds: cdePlans.slice(0, 1) })).body.msg).toBe(
      `The report ${fatal.reportCode} for CDE was already exported or is being exported`,
    );
    await runJobs();
    cdeRun = await runOf(cde, started.body.data.runId);
    const run = cdeRun;
    expect(run).toMatchObject({ state: 'done', done: 3, total: 3, error: null });
    expect(run.exports).toHaveLength(3);
    expect(run.exports.map((e: Row) => [e.reports, e.status])).toEqual([
      [1, 'sent'],
      [1, 'sent'],
      [1, 'sent'],
    ]);
    const transmissions = (await submitter.call('GET', `/exports/transmissions?receiverId=${cde}`)).body.data;
    expect(transmissions.total).toBe(3);
    const rows = (await listed()).filter((r) => r.receiverId === cde);
    expect(rows.map((r) => [r.reportCode, r.state, r.sentAt, r.late, r.lateReason])).toEqual([
      [fatal.reportCode, 'sent', '2026-11-21', true, 'gateway outage'],
      [other.reportCode, 'sent', '2026-11-21', false, null],
      [third.reportCode, 'sent', '2026-11-21', false, null],
    ]);
    const summary = (await entry.call('GET', '/submissions/expedited/compliance')).body.data as Row[];
    expect(summary.find((g) => g.receiverId === cde && g.month === '2026-11')).toMatchObject({
      late: 1,
      lateReasons: ['gateway outage'],
    });
    expect((await submitter.call('GET', runs(cde))).body.data.candidates).toEqual([]);
  });

  it('exports without sending when not asked; the list says exported', async () => {
    const started = await start({ receiverId: fda, planIds: [planOf(other.id, fda).planId] });
    await runJobs();
    const run = await runOf(fda, started.body.data.runId);
    expect(run).toMatchObject({ state: 'done', done: 1 });
    expect(run.exports[0].status).toBe('exported');
    const row = (await listed()).find((r) => r.caseId === other.id && r.receiverId === fda)!;
    expect(row).toMatchObject({ state: 'exported', sentAt: null, exportId: run.exports[0].exportId });
  });

  it('follows the ACK; an acknowledged version is not planned out again except as a correction', async () => {
    const record = (await submitter.call('GET', `/exports/transmissions/${cdeRun.exports[0].exportId}`)).body
      .data as Row;
    const reportCode = record.cases[0].reportCode as string;
    const acked = await submitter.call('POST', `/exports/transmissions/${record.exportId}/ack`, {
      fileName: 'ack.xml',
      content: Buffer.from(positiveAck(record.batchId, reportCode)).toString('base64'),
    });
    expect(acked.body.data.status, JSON.stringify(acked.body)).toBe('acknowledged');
    const row = (await listed()).find((r) => r.reportCode === reportCode && r.receiverId === cde)!;
    expect(row.state).toBe('acknowledged');

    const again = await approvedPlans([record.cases[0].caseId], [cde]);
    const refused = await start({ receiverId: cde, planIds: [again[0]!.planId] }, 'cn');
    expect(refused.body.msg).toBe(
      `${reportCode} 第 1 版已被 CDE 确认接收，只能以随访、修正或作废报告再次递交`,
    );
  });
});

describe('nullification and amendment', () => {
  it('needs a reason and a receiver that had the case', async () => {
    const path = `/submissions/cases/${fatal.id}/corrections`;
    expect((await entry.call('POST', path, { kind: 'nullification', reason: ' ' }, 'cn')).body.msg).toBe(
      '请填写作废原因（C.1.11.2）',
    );
    const never = await seeded(5, { receivedDaysAgo: 1, reactionIndex: 5, susar: true });
    const refused = await entry.call('POST', `/submissions/cases/${never.id}/corrections`, {
      kind: 'amendment',
      reason: 'wrong dose',
    });
    expect(refused.body.msg).toBe(
      `${never.reportCode} was not sent to any receiver of its project; there is nothing to nullify or amend`,
    );
    expect((await rig.as('viewer').call('POST', path, { kind: 'amendment', reason: 'x' })).status).toBe(403);
  });

  it('plans a nullification to every receiver that had the case and writes C.1.11.1 = 1 with the reason', async () => {
    const created = await entry.call('POST', `/submissions/cases/${fatal.id}/corrections`, {
      kind: 'nullification',
      reason: 'duplicate of another report',
      sponsor: 'XY',
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(200);
    // Only CDE had it: the FDA plan of this case was never exported.
    expect(created.body.data.plans).toMatchObject([
      {
        receiverName: 'CDE',
        ruleId: 'correction.nullification',
        dueDate: null,
        correction: { code: '1', reason: 'duplicate of another report' },
      },
    ]);
    const reviewed = await review(created.body.data.batchId);
    const started = await start({ receiverId: cde, planIds: [reviewed[0]!.planId], send: true });
    expect(started.body.code, JSON.stringify(started.body)).toBe(200);
    await runJobs();
    const run = await runOf(cde, started.body.data.runId);
    expect(run).toMatchObject({ state: 'done', done: 1 });
    const record = (await submitter.call('GET', `/exports/transmissions/${run.exports[0].exportId}`)).body
      .data as Row;
    expect(record.cases[0]).toMatchObject({ caseId: fatal.id, correction: '1' });
    const file = await rig.platform.app.request(`/api/exports/transmissions/${record.exportId}/file`, {
      headers: { authorization: 'Bearer t1:submitter' },
    });
    const xml = await file.text();
    // C.1.11.1 (code system 2.16.840.1.113883.3.989.2.1.1.5) = 1, C.1.11.2 the reason.
    expect(xml).toMatch(
      /<value(?=[^>]*codeSystem="2\.16\.840\.1\.113883\.3\.989\.2\.1\.1\.5")(?=[^>]*code="1")/,
    );
    expect(xml).toContain('duplicate of another report');
    const row = (await listed()).find((r) => r.planId === reviewed[0]!.planId)!;
    expect(row).toMatchObject({ correction: '1', state: 'sent', dueDate: null, late: false });
  });

  it('refuses a follow-up to a receiver whose initial report was not sent', async () => {
    // The third case's FDA plan (version 1) is approved but was never exported. The walk through
    // the workflow nodes is the case module's journey test: the case is placed at transmission here.
    const tenant = rig.store.tenant('t1', { userId: 'system:test' });
    const atNode = { 'state.workflowNode': 'submissionTransmission' };
    await tenant.collection('cases').updateOne({ _id: third.id }, { $set: atNode });
    await tenant.collection('caseSummaries').updateOne({ _id: third.id }, { $set: atNode });
    let rev = (await entry.call('GET', `/cases/${third.id}`)).body.data.rev as number;
    const completed = await submitter.call('POST', `/cases/${third.id}/mark-completed`, { rev });
    expect(completed.body.code, JSON.stringify(completed.body)).toBe(200);
    rev = completed.body.data.case.rev;
    const followUp = await submitter.call('POST', `/cases/${third.id}/follow-up`, {
      rev,
      reason: 'new information',
      latestInformationDate: '20261120',
    });
    expect(followUp.body.code, JSON.stringify(followUp.body)).toBe(200);
    const second = await approvedPlans([third.id], [fda]);
    expect(second[0]).toMatchObject({ caseVersion: 2 });
    const refused = await start({ receiverId: fda, planIds: [second[0]!.planId] });
    expect(refused.body.msg).toBe(
      `The follow-up of ${third.reportCode} cannot go to FDA FAERS before its initial report was sent`,
    );
    // The version 1 plan is stale now: refused by name too.
    const stale = await start({ receiverId: fda, planIds: [planOf(third.id, fda).planId] });
    expect(stale.body.msg).toBe(
      `${third.reportCode} has version 2 since its plan for FDA FAERS was approved (version 1); plan it again`,
    );
  });
});

describe('late reason on the transmission page', () => {
  it('a file carrying a report past its due date is sent only with the reason, kept on the plan', async () => {
    const plan = planOf(fatal.id, fda);
    const started = await start({ receiverId: fda, planIds: [plan.planId] });
    await runJobs();
    const file = (await runOf(fda, started.body.data.runId)).exports[0] as Row;
    expect(file.status).toBe('exported');
    const path = `/exports/transmissions/${file.exportId}/send`;
    const rev = (await submitter.call('GET', `/exports/transmissions/${file.exportId}`)).body.data.rev;
    const refused = await submitter.call('POST', path, { rev }, 'cn');
    expect(refused.body).toMatchObject({
      code: 400,
      msg: `已超过截止日期，请填写超期递交原因（${fatal.reportCode}）`,
      data: { lateReasonRequired: true, codes: [fatal.reportCode] },
    });
    const sent = await submitter.call('POST', path, { rev, lateReason: 'waited for the IND number' });
    expect(sent.body.data.status, JSON.stringify(sent.body)).toBe('sent');
    const row = (await listed()).find((r) => r.planId === plan.planId)!;
    expect(row).toMatchObject({ state: 'sent', late: true, lateReason: 'waited for the IND number' });
  });
});
