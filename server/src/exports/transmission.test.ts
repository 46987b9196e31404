import { afterAll, describe, expect, it } from 'vitest';
import { validateR3Xml } from '../interchange/index';
import { TENANT_PERMISSIONS, caseRig } from '../cases/testing';
import { createCasesModule, workbenchModule } from '../cases/index';
import { workflowModule } from '../workflow';
import { reportCodesModule } from '../report-codes';
import { exportsModule } from './index';
import { attachAck, demoCaseBy, exportSelection, fdaReceiver, negativeAck } from './testing';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely in assertions

const rig = await caseRig({
  files: true,
  modules: [createCasesModule(), workbenchModule, workflowModule, reportCodesModule, exportsModule],
  users: [
    { id: 'submitter', name: '递交专员周' },
    // Sees the transmissions and downloads the file, but may neither send, resubmit nor read ACKs.
    {
      id: 'watcher',
      name: '只看传输',
      deny: [
        'submittransfer:E2Btransmission:send',
        'submittransfer:E2Btransmission:resubmit',
        'submittransfer:E2Btransmission:handleFailure',
        'submittransfer:E2Btransmission:downloadAck',
      ],
    },
    { id: 'outsider', name: '其他项目用户' },
    { id: 'nobody', name: '无权限', deny: TENANT_PERMISSIONS },
  ],
});
afterAll(() => rig.close());
const tenant = rig.store.tenant('t1', { userId: 'system:test' });
// The outsider works in project p2 only.
await tenant.collection('projectMembers').updateOne({ userId: 'outsider' }, { $set: { projectId: 'p2' } });

const submitter = rig.as('submitter');

const newCase = (n = 1) => demoCaseBy(submitter, n, rig.clock.now());

const receiver = await fdaReceiver(submitter);
const first = await newCase(1);
const second = await newCase(2);

async function exportCases(caseIds: string[]): Promise<Data> {
  const exportId = await exportSelection(rig.platform.app, 'submitter', receiver.receiverId, caseIds);
  return (await submitter.call('GET', `/exports/transmissions/${exportId}`)).body.data as Data;
}

const attach = attachAck;

const download = (path: string, userId: string) =>
  rig.platform.app.request(`/api/exports/transmissions${path}`, {
    headers: { authorization: `Bearer t1:${userId}` },
  });

describe('E2B transmission (SPEC 4 transmission states)', () => {
  it('lists an export as ready to send; send records it, once, and the receiver outbox holds the file', async () => {
    const record = await exportCases([first.id]);
    expect(record).toMatchObject({ status: 'exported', sentAt: null, actions: ['send', 'ack'] });
    const listed = (await submitter.call('GET', `/exports/transmissions?reportCode=${first.reportCode}`)).body
      .data as Data;
    expect(listed.items.map((t: Data) => t.exportId)).toContain(record.exportId);

    const refused = await submitter.call('POST', `/exports/transmissions/${record.exportId}/handle-failure`, {
      opinion: 'x',
      rev: record.rev,
    });
    expect(refused.body).toMatchObject({
      code: 400,
      msg: `Cannot handle the failure: transmission ${record.batchId} is ready to send`,
    });

    const sent = await submitter.call('POST', `/exports/transmissions/${record.exportId}/send`, {
      rev: record.rev,
    });
    expect(sent.body.data).toMatchObject({
      status: 'sent',
      sentBy: 'submitter',
      sentByName: '递交专员周',
      actions: ['ack'],
    });
    expect(sent.body.data.events.map((e: Data) => e.action)).toEqual(['export', 'send']);
    const again = await submitter.call(
      'POST',
      `/exports/transmissions/${record.exportId}/send`,
      { rev: sent.body.data.rev },
      'cn',
    );
    expect(again.body.msg).toBe(`无法发送：传输 ${record.batchId} 当前为已发送、待回执`);

    const outbox = (
      await submitter.call('GET', `/exports/transmissions?status=sent&receiverId=${receiver.receiverId}`)
    ).body.data as Data;
    expect(outbox.items.map((t: Data) => t.exportId)).toEqual([record.exportId]);
    const file = await download(`/${record.exportId}/file`, 'watcher');
    expect(file.status).toBe(200);
    expect(await validateR3Xml(await file.text())).toMatchObject({ valid: true });
  });

  it('a stale revision is refused and changes nothing', async () => {
    const record = await exportCases([second.id]);
    const stale = await submitter.call('POST', `/exports/transmissions/${record.exportId}/send`, {
      rev: record.rev + 5,
    });
    expect(stale.status).toBe(409);
    expect((await submitter.call('GET', `/exports/transmissions/${record.exportId}`)).body.data.status).toBe(
      'exported',
    );
  });

  it('a negative ACK fails it; the failure is handled with an opinion, then resubmitted as a linked new export', async () => {
    const record = await exportCases([first.id]);
    const sent = (
      await submitter.call('POST', `/exports/transmissions/${record.exportId}/send`, { rev: record.rev })
    ).body.data as Data;
    const failed = (await attach(submitter, record.exportId, negativeAck(record.batchId, first.reportCode)))
      .body.data as Data;
    expect(failed).toMatchObject({
      status: 'failed',
      ack: { code: 'AE' },
      cases: [{ caseId: first.id, ackCode: 'CR' }],
      actions: ['ack', 'handleFailure', 'resubmit'],
    });
    expect(failed.failureText).toContain('FDA.C.1.7.1');
    expect(failed.rev).toBeGreaterThan(sent.rev);

    const blank = await submitter.call(
      'POST',
      `/exports/transmissions/${record.exportId}/handle-failure`,
      { opinion: '  ', rev: failed.rev },
      'cn',
    );
    expect(blank.body.msg).toBe('请填写处理意见');
    const handled = (
      await submitter.call('POST', `/exports/transmissions/${record.exportId}/handle-failure`, {
        opinion: '补充 FDA.C.1.7.1 后重新递交',
        rev: failed.rev,
      })
    ).body.data as Data;
    expect(handled).toMatchObject({
      status: 'handled',
      handling: { opinion: '补充 FDA.C.1.7.1 后重新递交', by: 'submitter' },
      actions: ['resubmit'],
    });
    // Once handled, the ACK of the failed file cannot be replaced.
    const late = await attach(submitter, record.exportId, negativeAck(record.batchId, first.reportCode));
    expect(late.body.msg).toBe(
      `Cannot attach an acknowledgement: transmission ${record.batchId} is failure handled`,
    );

    const resubmit = await submitter.call('POST', `/exports/transmissions/${record.exportId}/resubmit`, {
      rev: handled.rev,
    });
    expect(resubmit.body.code).toBe(200);
    const { failed: old, resubmitted } = resubmit.body.data as Data;
    expect(resubmitted).toMatchObject({
      status: 'sent',
      resubmitOf: record.exportId,
      caseIds: [first.id],
      receiverId: receiver.receiverId,
      format: 'r3',
      sentBy: 'submitter',
    });
    expect(resubmitted.batchId).not.toBe(record.batchId);
    expect(old).toMatchObject({ status: 'resubmitted', resubmittedAs: resubmitted.exportId, actions: [] });
    expect(old.events.map((e: Data) => e.action)).toEqual([
      'export',
      'send',
      'ack',
      'handleFailure',
      'resubmit',
    ]);
    const twice = await submitter.call('POST', `/exports/transmissions/${record.exportId}/resubmit`, {
      rev: old.rev,
    });
    expect(twice.body.msg).toBe(`Cannot resubmit: transmission ${record.batchId} is resubmitted`);
    // The ACK is downloadable with its permission only.
    expect((await download(`/${record.exportId}/ack-file`, 'submitter')).status).toBe(200);
    expect((await download(`/${record.exportId}/ack-file`, 'watcher')).status).toBe(403);
  });

  it('a partly rejected batch resubmits only the rejected report', async () => {
    const record = await exportCases([first.id, second.id]);
    const partial = (
      await attach(
        submitter,
        record.exportId,
        negativeAck(record.batchId, second.reportCode, first.reportCode),
      )
    ).body.data as Data;
    expect(partial.status).toBe('partial');
    expect(partial.cases.map((c: Data) => c.ackCode)).toEqual(['CA', 'CR']);
    const { resubmitted } = (
      await submitter.call('POST', `/exports/transmissions/${record.exportId}/resubmit`, { rev: partial.rev })
    ).body.data as Data;
    expect(resubmitted.caseIds).toEqual([second.id]);
  });

  it('a resubmission the XSD refuses keeps nothing and leaves the failed transmission as it was', async () => {
    const broken = await newCase(3);
    const record = await exportCases([broken.id]);
    const failed = (await attach(submitter, record.exportId, negativeAck(record.batchId, broken.reportCode)))
      .body.data as Data;
    await tenant
      .collection('cases')
      .updateOne({ _id: broken.id }, { $set: { 'report.reportDateFirst': '2024-13-45' } });
    const before = (await submitter.call('GET', '/exports/transmissions')).body.data.total;
    const res = await submitter.call('POST', `/exports/transmissions/${record.exportId}/resubmit`, {
      rev: failed.rev,
    });
    expect(res.status).toBe(400);
    expect(res.body.data.xsdErrors.length).toBeGreaterThan(0);
    expect((await submitter.call('GET', '/exports/transmissions')).body.data.total).toBe(before);
    const after = (await submitter.call('GET', `/exports/transmissions/${record.exportId}`)).body.data;
    expect(after).toMatchObject({ status: 'failed', resubmittedAs: null });
  });

  it('refuses to send a file older than the case version, or of a deleted case', async () => {
    const record = await exportCases([second.id]);
    await tenant.collection('cases').updateOne({ _id: second.id }, { $set: { 'state.version': 2 } });
    const newer = await submitter.call('POST', `/exports/transmissions/${record.exportId}/send`, {
      rev: record.rev,
    });
    expect(newer.body.msg).toBe(
      `Report ${second.reportCode} has version 2 since this file was written (version 1); export it again`,
    );
    await tenant
      .collection('cases')
      .updateOne({ _id: second.id }, { $set: { 'state.version': 1, 'state.validity': 'deleted' } });
    const deleted = await submitter.call('POST', `/exports/transmissions/${record.exportId}/send`, {
      rev: record.rev,
    });
    expect(deleted.body.msg).toBe(`Report ${second.reportCode} is deleted and cannot be exported`);
    await tenant.collection('cases').updateOne({ _id: second.id }, { $set: { 'state.validity': 'valid' } });
    expect((await submitter.call('GET', `/exports/transmissions/${record.exportId}`)).body.data.status).toBe(
      'exported',
    );
  });

  it('needs the menu permissions, and shows only transmissions of the caller’s projects', async () => {
    // A case FDA has not acknowledged yet (the first one's version was: it does not go again).
    const record = await exportCases([(await newCase(5)).id]);
    const watcher = rig.as('watcher');
    expect((await watcher.call('GET', '/exports/transmissions')).body.data.total).toBeGreaterThan(0);
    for (const action of ['send', 'resubmit', 'handle-failure'])
      expect(
        (
          await watcher.call('POST', `/exports/transmissions/${record.exportId}/${action}`, {
            rev: record.rev,
            opinion: 'x',
          })
        ).status,
      ).toBe(403);
    expect((await rig.as('nobody').call('GET', '/exports/transmissions')).status).toBe(403);

    const outsider = rig.as('outsider');
    expect((await outsider.call('GET', '/exports/transmissions')).body.data).toMatchObject({
      total: 0,
      items: [],
    });
    expect((await outsider.call('GET', '/exports/records')).body.data.total).toBe(0);
    expect((await outsider.call('GET', `/exports/transmissions/${record.exportId}`)).status).toBe(403);
    expect(
      (await outsider.call('POST', `/exports/transmissions/${record.exportId}/send`, { rev: record.rev }))
        .status,
    ).toBe(403);
    expect((await download(`/${record.exportId}/file`, 'outsider')).status).toBe(403);
    expect((await rig.as('submitter', 't2').call('GET', '/exports/transmissions')).body.data.total).toBe(0);
  });
});
