import { afterAll, describe, expect, it } from 'vitest';
import { caseRig } from '../cases/testing';
import { createCasesModule, workbenchModule } from '../cases/index';
import { workflowModule } from '../workflow';
import { reportCodesModule } from '../report-codes';
import { exportsModule } from './index';
import { attachAck, demoCaseBy, exportSelection, fdaReceiver, negativeAck, positiveAck } from './testing';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely in assertions

const rig = await caseRig({
  files: true,
  modules: [createCasesModule(), workbenchModule, workflowModule, reportCodesModule, exportsModule],
  users: [{ id: 'submitter', name: '递交专员周' }],
});
afterAll(() => rig.close());
const tenant = rig.store.tenant('t1', { userId: 'system:test' });
const submitter = rig.as('submitter');

const receiver = await fdaReceiver(submitter);

/**
 * A case that went through the workflow to the submission transmission node with a plan to submit
 * to ZZFDA. The walk through the nodes (signatures, plans) is the case module's journey test; here
 * the case is placed there directly, and optionally frozen, as the arrangement of these tests.
 */
async function caseAtTransmission(n: number, frozen = false): Promise<{ id: string; reportCode: string }> {
  const made = await demoCaseBy(submitter, n, rig.clock.now());
  const state = {
    'state.workflowNode': 'submissionTransmission',
    ...(frozen ? { 'state.isFrozen': true } : {}),
  };
  await tenant.collection('cases').updateOne(
    { _id: made.id },
    {
      $set: {
        ...state,
        submissionPlans: [
          {
            id: `plan-${n}`,
            receiverId: 'ZZFDA',
            isSubmit: true,
            submitTimeLimitType: '15',
            transmissionMode: '1',
          },
        ],
      },
    },
  );
  await tenant.collection('caseSummaries').updateOne({ _id: made.id }, { $set: state });
  return made;
}

async function exportAndSend(caseIds: string[]): Promise<Data> {
  const exportId = await exportSelection(rig.platform.app, 'submitter', receiver.receiverId, caseIds);
  const record = (await submitter.call('GET', `/exports/transmissions/${exportId}`)).body.data as Data;
  const sent = await submitter.call('POST', `/exports/transmissions/${exportId}/send`, { rev: record.rev });
  expect(sent.body.code).toBe(200);
  return sent.body.data as Data;
}

const attach = (exportId: string, xml: string) => attachAck(submitter, exportId, xml);

const historyOf = async (caseId: string) =>
  ((await submitter.call('GET', `/cases/${caseId}/workflow-history`)).body.data as Data).items.filter(
    (line: Data) => line.action === 'transmission',
  ) as Data[];

const caseOf = async (caseId: string) => (await submitter.call('GET', `/cases/${caseId}`)).body.data as Data;

const listRow = async (reportCode: string) => {
  const list = (await submitter.call('POST', '/cases/search', { filters: { reportCode }, page: 1, size: 20 }))
    .body.data as Data;
  return list.items.find((row: Data) => row.values.report_reportCode === reportCode) as Data;
};

describe('E2B transmission on the case (workflow history, transmission status)', () => {
  it('send records a history line (receiver, batch, file, who, when); a positive ACK records the acknowledgement', async () => {
    const one = await caseAtTransmission(1);
    const before = await caseOf(one.id);
    const sent = await exportAndSend([one.id]);

    const [line] = await historyOf(one.id);
    expect(line).toMatchObject({
      result: 'transmissionSent',
      node: 'submissionTransmission',
      nextNode: 'submissionTransmission',
      processerName: '递交专员周',
      at: sent.sentAt,
      details: {
        receiverName: 'FDA FAERS',
        receiverIdentifier: 'ZZFDA',
        batchId: sent.batchId,
        fileName: sent.fileName,
        exportId: sent.exportId,
        frozen: false,
      },
    });
    const afterSend = await caseOf(one.id);
    // The case document is not written: whoever edits it meanwhile is not refused.
    expect(afterSend.rev).toBe(before.rev);
    expect(afterSend.document.state.workflowNode).toBe('submissionTransmission');
    expect(afterSend.transmission).toMatchObject({
      status: 'sent',
      receivers: [{ receiverIdentifier: 'ZZFDA', status: 'sent', batchId: sent.batchId }],
      planned: ['ZZFDA'],
      plannedAcknowledged: false,
    });
    expect((await listRow(one.reportCode)).values.transmission_status).toBe('sent');

    const acked = await attach(sent.exportId, positiveAck(sent.batchId, one.reportCode));
    expect(acked.body.data.status).toBe('acknowledged');
    const lines = await historyOf(one.id);
    expect(lines.map((l) => l.result)).toEqual(['transmissionSent', 'transmissionAcknowledged']);
    expect(lines[1]).toMatchObject({
      opinion: null,
      details: { ackCode: 'AA', reportAckCode: 'CA', batchId: sent.batchId },
    });
    const afterAck = await caseOf(one.id);
    expect(afterAck.transmission).toMatchObject({ status: 'acknowledged', plannedAcknowledged: true });
    expect((await listRow(one.reportCode)).values.transmission_status).toBe('acknowledged');
    // Acknowledged by every planned receiver: the case may be marked completed at the node.
    expect(afterAck.actions.find((a: Data) => a.action === 'markCompleted')).toMatchObject({ allowed: true });

    // A follow-up version is not submitted by its predecessor's acknowledgement.
    const completed = await submitter.call('POST', `/cases/${one.id}/mark-completed`, { rev: afterAck.rev });
    expect(completed.body.code, JSON.stringify(completed.body)).toBe(200);
    const followUp = await submitter.call('POST', `/cases/${one.id}/follow-up`, {
      rev: completed.body.data.case.rev,
      reason: '随访到新的化验结果',
      latestInformationDate: rig.clock.now().toISOString().slice(0, 10).replace(/-/g, ''),
    });
    expect(followUp.body.code, JSON.stringify(followUp.body)).toBe(200);
    const version2 = await caseOf(one.id);
    expect(version2.transmission).toMatchObject({
      status: null,
      plannedAcknowledged: false,
      receivers: [{ status: 'acknowledged', version: 1 }],
    });
    expect((await listRow(one.reportCode)).values.transmission_status).toBeNull();
  });

  it('a negative ACK records the rejection with its error text and the case stays at the node; handling and resubmission are lines too', async () => {
    const two = await caseAtTransmission(2);
    const sent = await exportAndSend([two.id]);
    const failed = (await attach(sent.exportId, negativeAck(sent.batchId, two.reportCode))).body.data as Data;
    expect(failed.status).toBe('failed');

    let lines = await historyOf(two.id);
    expect(lines.map((l) => l.result)).toEqual(['transmissionSent', 'transmissionRejected']);
    expect(lines[1]!.opinion).toContain('FDA.C.1.7.1');
    expect(lines[1]!.details).toMatchObject({ reportAckCode: 'CR', batchId: sent.batchId });
    const rejected = await caseOf(two.id);
    expect(rejected.document.state.workflowNode).toBe('submissionTransmission');
    expect(rejected.transmission).toMatchObject({ status: 'rejected', plannedAcknowledged: false });
    expect(rejected.transmission.receivers[0].text).toContain('FDA.C.1.7.1');
    expect((await listRow(two.reportCode)).values.transmission_status).toBe('rejected');

    const handled = (
      await submitter.call('POST', `/exports/transmissions/${sent.exportId}/handle-failure`, {
        opinion: '补充 FDA.C.1.7.1 后重新递交',
        rev: failed.rev,
      })
    ).body.data as Data;
    const resubmit = await submitter.call('POST', `/exports/transmissions/${sent.exportId}/resubmit`, {
      rev: handled.rev,
    });
    expect(resubmit.body.code).toBe(200);
    const replacement = resubmit.body.data.resubmitted as Data;

    lines = await historyOf(two.id);
    expect(lines.map((l) => l.result)).toEqual([
      'transmissionSent',
      'transmissionRejected',
      'transmissionHandled',
      'transmissionResubmitted',
    ]);
    expect(lines[2]!.opinion).toBe('补充 FDA.C.1.7.1 后重新递交');
    expect(lines[3]!.details).toMatchObject({
      batchId: replacement.batchId,
      replacesBatchId: sent.batchId,
      exportId: replacement.exportId,
    });
    expect((await caseOf(two.id)).transmission).toMatchObject({
      status: 'resubmitted',
      receivers: [{ status: 'resubmitted', batchId: replacement.batchId }],
    });

    await attach(replacement.exportId, positiveAck(replacement.batchId, two.reportCode));
    expect((await caseOf(two.id)).transmission).toMatchObject({
      status: 'acknowledged',
      plannedAcknowledged: true,
    });
  });

  it('a frozen case may be transmitted (its data are final); the line records that it was frozen', async () => {
    const three = await caseAtTransmission(3, true);
    const sent = await exportAndSend([three.id]);
    expect(sent.status).toBe('sent');
    const [line] = await historyOf(three.id);
    expect(line).toMatchObject({ result: 'transmissionSent', details: { frozen: true } });
  });

  it('a refused send writes no history line', async () => {
    const four = await caseAtTransmission(4);
    const exportId = await exportSelection(rig.platform.app, 'submitter', receiver.receiverId, [four.id]);
    const stale = await submitter.call('POST', `/exports/transmissions/${exportId}/send`, { rev: 999 });
    expect(stale.status).toBe(409);
    expect(await historyOf(four.id)).toEqual([]);
    expect((await caseOf(four.id)).transmission).toBeNull();
  });
});
