import { afterAll, describe, expect, it } from 'vitest';
import { caseRig, PASSWORD } from './testing';
import { demoCaseContent } from './demo/factory';
import { demoProject } from './testing';

const rig = await caseRig();
afterAll(() => rig.close());
const entry = rig.as('entry');
type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely in assertions

async function newCase(): Promise<Data> {
  const res = await entry.call('POST', '/cases', {
    projectId: 'p1',
    reportType: '2',
    happenCountry: 'CN',
    hospitalId: 'p1-s1',
  });
  expect(res.body.code).toBe(200);
  return res.body.data as Data;
}

async function fill(caseId: string, rev: number, n = 1): Promise<Data> {
  const content = demoCaseContent({ n, project: demoProject('p1'), today: rig.clock.now() });
  const current = (await entry.call('GET', `/cases/${caseId}`)).body.data as Data;
  const document = { ...content, report: { ...current.document.report, ...(content.report as object) } };
  const res = await entry.call('PUT', `/cases/${caseId}`, { rev, document });
  expect(res.body.msg).toBe('Success');
  return res.body.data as Data;
}

describe('creating a case (SPEC 5 required selections, SPEC 8 messages)', () => {
  it('asks for the project, the report type and the event country, in zh and en', async () => {
    const missing = [
      [{ reportType: '2', happenCountry: 'CN' }, 'Please select a research project', '请选择研究项目'],
      [{ projectId: 'p1', happenCountry: 'CN' }, 'Select C.1.3 Report Type', '请选择C.1.3报告类型'],
      [
        { projectId: 'p1', reportType: '2' },
        'Please select the country where the event occurred',
        '请选择事件发生国家',
      ],
    ] as const;
    for (const [body, en, zh] of missing) {
      expect((await entry.call('POST', '/cases', body)).body).toMatchObject({ code: 400, msg: en });
      expect((await entry.call('POST', '/cases', body, 'cn')).body.msg).toBe(zh);
    }
    const search = await entry.call('POST', '/cases/search', { tab: 'all' });
    expect(search.body.data.total).toBe(0);
  });

  it('refuses an unknown project, a site of another project and a locked project', async () => {
    expect(
      (await entry.call('POST', '/cases', { projectId: 'nope', reportType: '2', happenCountry: 'CN' })).body
        .code,
    ).toBe(400);
    expect(
      (
        await entry.call('POST', '/cases', {
          projectId: 'p1',
          reportType: '2',
          happenCountry: 'CN',
          hospitalId: 'x',
        })
      ).body.msg,
    ).toMatch(/research centre/);
  });

  it('creates at data entry with the next report code of the generator', async () => {
    const created = await newCase();
    const doc = created.case.document;
    expect(doc.report.reportCode).toMatch(/^CN-XYPHARMA-\d{4}\d{6}$/);
    expect(doc.report.reportAllCode).toBe(doc.report.reportCode);
    expect(doc.state).toMatchObject({
      workflowNode: 'dataEntry',
      handlerId: 'entry',
      version: 1,
      versionType: 'initial',
      validity: 'valid',
    });
    expect(doc.study).toMatchObject({ sponsorStudyNumber: 'XY-101-301-p1', discoveredEventType: '1' });
    expect(created.case.rev).toBe(1);
  });
});

describe('save and check', () => {
  it('asks to confirm missing mandatory fields, refuses wrong values, and keeps the server state', async () => {
    const { case: created } = await newCase();
    const draft = { ...created.document, patient: { patientsName: 'AB' } };
    const unconfirmed = await entry.call('PUT', `/cases/${created.id}`, { rev: 1, document: draft });
    expect(unconfirmed.body.code, JSON.stringify(unconfirmed.body.data)).toBe(500010);
    expect(unconfirmed.body.data.needsConfirmation).toBe(true);
    expect((await entry.call('GET', `/cases/${created.id}`)).body.data.rev).toBe(1);

    const wrong = await entry.call('PUT', `/cases/${created.id}`, {
      rev: 1,
      document: { ...draft, patient: { patientsName: 'AB', height: 170.5 } },
      confirmMissing: true,
    });
    expect(wrong.body).toMatchObject({ code: 400, msg: 'Please check the form data.' });
    const heights = wrong.body.data.groups
      .flatMap((g: Data) => g.findings)
      .filter((f: Data) => f.path === '/patient/height');
    expect(heights.length).toBeGreaterThan(0);

    const forged = {
      ...draft,
      state: {
        ...created.document.state,
        workflowNode: 'submissionTransmission',
        isCompleted: true,
        isSae: true,
      },
    };
    const saved = await entry.call('PUT', `/cases/${created.id}`, {
      rev: 1,
      document: forged,
      confirmMissing: true,
    });
    expect(saved.body.code).toBe(200);
    expect(saved.body.data.case.document.state).toMatchObject({
      workflowNode: 'dataEntry',
      isCompleted: false,
      isSae: true,
    });
    expect(saved.body.data.check.missingCount).toBeGreaterThan(0);
  });

  it('checks the full case grouped by tab', async () => {
    const { case: created } = await newCase();
    const empty = await entry.call('POST', `/cases/${created.id}/check`, {});
    expect(empty.body.data.errorCount).toBeGreaterThan(0);
    const tabs = empty.body.data.groups.map((g: Data) => g.tab);
    expect(tabs).toContain('patient');
    await fill(created.id, 1);
    const full = await entry.call('POST', `/cases/${created.id}/check`, {});
    expect(full.body.data.groups).toEqual([]);
    expect(full.body.data.errorCount).toBe(0);
  });
});

describe('two users save from the same revision', () => {
  it('lets exactly one win; the other gets 409 with the winner\u2019s changes and loses nothing stored', async () => {
    const { case: created } = await newCase();
    const filled = await fill(created.id, 1, 2);
    const base = filled.case;
    const alice = { ...base.document, patient: { ...base.document.patient, weight: 61 } };
    const bob = { ...base.document, narrative: { caseNarrative: '鲍勃的叙述' } };
    const [a, b] = await Promise.all([
      rig.as('entry').call('PUT', `/cases/${created.id}`, { rev: base.rev, document: alice }),
      rig.as('qc').call('PUT', `/cases/${created.id}`, { rev: base.rev, document: bob }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const lost = a.status === 409 ? a : b;
    const winner = a.status === 409 ? 'qc' : 'entry';
    expect(lost.body.code).toBe(409);
    const data = lost.body.data as Data;
    expect(data.baseRev).toBe(base.rev);
    expect(data.currentRev).toBe(base.rev + 1);
    expect(data.complete).toBe(true);
    const changedPaths = data.changes.map((c: Data) => c.path);
    if (winner === 'entry') {
      expect(data.changes).toContainEqual(
        expect.objectContaining({ path: '/patient/weight', after: 61, e2b: 'D.3', by: 'entry' }),
      );
    } else {
      expect(changedPaths).toContain('/narrative/caseNarrative');
    }
    const stored = (await entry.call('GET', `/cases/${created.id}`)).body.data as Data;
    expect(stored.rev).toBe(base.rev + 1);
    expect(data.current).toEqual(stored.document);
  });
});

describe('the journey through the workflow', () => {
  it('create, check, submit through every node with e-signature, complete, follow up, compare', async () => {
    const { case: created } = await newCase();
    const id = created.id as string;
    let rev = (await fill(id, 1, 5)).case.rev as number;

    const noPassword = await entry.call('POST', `/cases/${id}/submit`, {
      rev,
      toNode: 'dataQc',
      userId: 'qc',
    });
    expect(noPassword.body.msg).toBe('Enter your password to sign');
    const noUser = await entry.call('POST', `/cases/${id}/submit`, {
      rev,
      toNode: 'dataQc',
      password: PASSWORD,
    });
    expect(noUser.body.msg).toBe('Please select the user who is about to receive the submission');
    const ghost = await entry.call('POST', `/cases/${id}/submit`, {
      rev,
      toNode: 'dataQc',
      userId: 'ghost',
      password: PASSWORD,
    });
    expect(ghost.body.msg).toBe('Please specify user');
    const wrongNode = await entry.call('POST', `/cases/${id}/submit`, {
      rev,
      toNode: 'sponsorAudit',
      userId: 'qc',
      password: PASSWORD,
    });
    expect(wrongNode.body.code).toBe(400);

    const steps: [string, string, string][] = [
      ['entry', 'dataQc', 'qc'],
      ['qc', 'medicalReview', 'medical'],
      ['medical', 'sponsorAudit', 'sponsor'],
      ['sponsor', 'createSubmissionPlan', 'submitter'],
    ];
    for (const [who, toNode, next] of steps) {
      const res = await rig.as(who).call('POST', `/cases/${id}/submit`, {
        rev,
        toNode,
        userId: next,
        opinion: `ok ${toNode}`,
        password: PASSWORD,
      });
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.case.document.state).toMatchObject({ workflowNode: toNode, handlerId: next });
      expect(res.body.data.snapshotId).toBeTruthy();
      rev = res.body.data.case.rev;
    }
    expect(rig.signer.signed.filter((s) => s.subjectId === id).map((s) => s.userId)).toEqual([
      'entry',
      'qc',
      'medical',
      'sponsor',
    ]);

    const again = await rig
      .as('submitter')
      .call('POST', `/cases/${id}/submit`, { rev, userId: 'qc', password: PASSWORD }, 'cn');
    expect(again.body.msg).toBe('报告已处于监管递交节点，不能再次提交');
    const del = await entry.call('POST', '/cases/delete', { caseIds: [id] });
    expect(del.body.msg).toBe('The report is at regulatory submission and cannot be deleted');
    const early = await entry.call('POST', `/cases/${id}/follow-up`, {
      reason: 'x',
      latestInformationDate: '20260101',
    });
    expect(early.body.msg).toBe('Only report marked as finished can be used to create a follow-up report.');

    const plan = await rig
      .as('submitter')
      .call('POST', `/cases/${id}/create-plan`, { rev, userId: 'sponsor' });
    expect(plan.body.data.case.document.state.workflowNode).toBe('approveSubmissionPlan');
    rev = plan.body.data.case.rev;
    const noResult = await rig
      .as('sponsor')
      .call('POST', `/cases/${id}/approve-plan`, { rev, userId: 'submitter', password: PASSWORD });
    expect(noResult.body.msg).toBe('Please select the approval result');
    const approved = await rig.as('sponsor').call('POST', `/cases/${id}/approve-plan`, {
      rev,
      result: 'agree',
      userId: 'submitter',
      password: PASSWORD,
    });
    expect(approved.body.data.case.document.state.workflowNode).toBe('submissionTransmission');
    rev = approved.body.data.case.rev;
    const inTransmission = await rig
      .as('submitter')
      .call('POST', `/cases/${id}/submit`, { rev, userId: 'qc', password: PASSWORD });
    expect(inTransmission.body.msg).toBe(
      'The report is already in submission transmission and cannot be submitted again',
    );

    const completed = await rig.as('submitter').call('POST', `/cases/${id}/mark-completed`, { rev });
    expect(completed.body.code).toBe(200);
    expect(completed.body.data.case.document.state.isCompleted).toBe(true);
    rev = completed.body.data.case.rev;
    const completedSnapshot = completed.body.data.snapshotId as string;
    expect((await entry.call('POST', '/cases/delete', { caseIds: [id] })).body.msg).toBe(
      'The report is marked finished and cannot be deleted',
    );
    expect(
      (await entry.call('PUT', `/cases/${id}`, { rev, document: completed.body.data.case.document })).body
        .msg,
    ).toBe('The report is marked finished and cannot be changed');

    expect(
      (await entry.call('POST', `/cases/${id}/follow-up`, { latestInformationDate: '20261101' })).body.msg,
    ).toBe('Please enter the follow-up reason');
    expect(
      (await entry.call('POST', `/cases/${id}/follow-up`, { reason: '随访到新的化验结果' })).body.msg,
    ).toBe('Please enter the informed dates (YYYYMMDD)');
    const today = rig.clock.now().toISOString().slice(0, 10).replace(/-/g, '');
    const followUp = await entry.call('POST', `/cases/${id}/follow-up`, {
      rev,
      reason: '随访到新的化验结果',
      latestInformationDate: today,
    });
    expect(followUp.body.code, JSON.stringify(followUp.body)).toBe(200);
    expect(followUp.body.data.case.document.state).toMatchObject({
      version: 2,
      versionType: 'followUp',
      followUpNumber: 1,
      isCompleted: false,
      workflowNode: 'dataEntry',
      handlerId: 'entry',
    });
    expect(followUp.body.data.case.document.report.reportDateLast).toBe(today);

    const versions = (await entry.call('GET', `/cases/${id}/versions`)).body.data.items as Data[];
    expect(versions.map((v) => `${v.kind}@${v.node}`)).toEqual([
      'submitted@dataEntry',
      'submitted@dataQc',
      'submitted@medicalReview',
      'submitted@sponsorAudit',
      'submitted@approveSubmissionPlan',
      'completed@submissionTransmission',
    ]);
    const preview = await entry.call('GET', `/cases/${id}/versions/${completedSnapshot}`);
    expect(preview.body.data.document.state.isCompleted).toBe(true);
    const compare = await entry.call('GET', `/cases/${id}/compare?from=${completedSnapshot}&to=current`);
    const changes = compare.body.data.changes as Data[];
    expect(changes).toContainEqual(
      expect.objectContaining({ path: '/report/reportDateLast', e2b: 'C.1.5', after: today }),
    );
    expect(changes).toContainEqual(expect.objectContaining({ path: '/state/version', before: 1, after: 2 }));
    expect(compare.body.data.from).toMatchObject({ version: 1, kind: 'completed' });

    const history = (await entry.call('GET', `/cases/${id}/workflow-history`)).body.data.items as Data[];
    expect(history.map((h) => h.action)).toEqual([
      'submit',
      'submit',
      'submit',
      'submit',
      'createPlan',
      'approvePlan',
      'markCompleted',
      'followUp',
    ]);
    expect(history[1]).toMatchObject({
      node: 'dataQc',
      result: 'submitted',
      opinion: 'ok medicalReview',
      processerId: 'qc',
      processerName: '质控员小李',
      nextNode: 'medicalReview',
      nextProcesserId: 'medical',
      nextProcesserName: '医学审评张医生',
    });
    expect(history[1].dataVersion.version).toBe(1);
    expect(history[1].signatureId).toBeTruthy();
    expect(history[7].details).toMatchObject({ reason: '随访到新的化验结果', previousVersion: 1 });

    const log = (await entry.call('GET', `/cases/${id}/change-log?size=50`)).body.data.items as Data[];
    expect(log.length).toBeGreaterThan(5);
    expect(log[0].changes).toContainEqual(
      expect.objectContaining({ path: '/state/version', before: 1, after: 2 }),
    );
    expect(log.at(-1)).toMatchObject({ operation: 'insert', userId: 'entry', userName: '录入员小王' });
  });
});
