/**
 * Pre-send business-rule checks (issue 19 item 5): the export runs the receiver's pack on the very
 * file it would keep; a rejection refuses it (translated 400 naming the rule, XPath and E2B id;
 * nothing kept), and every check lands in the submission-check log (/checklog/submitCheck).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { caseRig } from '../cases/testing';
import { createCasesModule, workbenchModule } from '../cases/index';
import { workflowModule } from '../workflow';
import { reportCodesModule } from '../report-codes';
import { exportsModule } from './index';
import { EXPORTS, exportToReceiver } from './service';
import { demoCaseBy } from './testing';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely

const rig = await caseRig({
  files: true,
  modules: [createCasesModule(), workbenchModule, workflowModule, reportCodesModule, exportsModule],
});
const files = rig.files!;
afterAll(() => rig.close());
const entry = rig.as('entry');
const receiver = async (body: Data): Promise<string> => {
  const res = await entry.call('POST', '/exports/receivers', {
    senderIdentifier: 'XYPHARMA',
    format: 'r3',
    ...body,
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data.receiverId as string;
};
// The postmarket batch receiver with a premarket centre: FDA rejects it (R0005, R0006).
const misrouted = await receiver({
  name: 'FDA misrouted',
  receiverIdentifier: 'ZZFDA',
  messageReceiverIdentifier: 'CDER_IND',
  profile: 'fda',
});
const cde = await receiver({ name: 'CDE', receiverIdentifier: 'CDE', profile: 'nmpa' });
const one = await demoCaseBy(entry, 1, rig.clock.now());

describe('pre-send business-rule checks', () => {
  it('refuses a file the receiver would reject, naming rule, E2B id and XPath, in zh and en; keeps no export', async () => {
    const en = await entry.call('POST', `/exports/cases/${one.id}`, { receiverId: misrouted }, 'en');
    expect(en.status).toBe(400);
    expect(en.body.msg).toMatch(/^FDA misrouted would reject this file: \d+ finding/);
    const findings = en.body.data.findings as Data[];
    const r0006 = findings.find((f) => f.ruleId === 'fda.R0006');
    expect(r0006).toMatchObject({ severity: 'error', e2b: 'N.2.r.3', report: 1, reportCode: one.reportCode });
    expect(r0006?.xpath).toMatch(/^\/MCCI_IN200100UV01\/PORR_IN049016UV\[1\]\//);
    expect(r0006?.message.zh).toBeTruthy();
    expect(findings.map((f) => f.ruleId)).toContain('fda.R0005');
    const zh = await entry.call('POST', `/exports/cases/${one.id}`, { receiverId: misrouted }, 'cn');
    expect(zh.body.msg).toMatch(/^FDA misrouted 的业务规则将拒收此文件/);
    expect((await entry.call('GET', '/exports/records')).body.data.total).toBe(0);
  });

  it('lets a file through that passes, and lists every check with its outcome and findings', async () => {
    const ok = await rig.platform.app.request(`/api/exports/cases/${one.id}`, {
      method: 'POST',
      headers: { authorization: 'Bearer t1:entry', 'content-type': 'application/json' },
      body: JSON.stringify({ receiverId: cde }),
    });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('<MCCI_IN200100UV01');
    const log = (await entry.call('GET', '/exports/checks')).body.data as Data;
    expect(log.total).toBe(3);
    const [latest, ...blocked] = log.items as Data[];
    expect(latest).toMatchObject({ receiverName: 'CDE', pack: 'nmpa', caseIds: [one.id] });
    expect(['passed', 'confirmed']).toContain(latest?.outcome);
    expect(blocked.map((b) => b.outcome)).toEqual(['blocked', 'blocked']);
    expect(blocked[0]?.packLabel).toBe('FDA E2B(R3) business rules');
    expect(blocked[0]?.findingLines.join('\n')).toMatch(/fda\.R0006 \[error\] #1 N\.2\.r\.3/);
    const filtered = await entry.call('GET', `/exports/checks?outcome=blocked&receiverId=${misrouted}`);
    expect(filtered.body.data.total).toBe(2);
  });

  it('checks the kept file once more before it is sent, and logs that check', async () => {
    const [record] = (await entry.call('GET', '/exports/records')).body.data.items as Data[];
    const sent = await entry.call('POST', `/exports/transmissions/${record?.exportId}/send`, {
      rev: record?.rev,
    });
    expect(sent.body.code, JSON.stringify(sent.body)).toBe(200);
    const log = (await entry.call('GET', `/exports/checks?batchId=${record?.batchId}`)).body.data as Data;
    expect(log.items.map((c: Data) => c.stage)).toEqual(['send', 'export']);
    expect(log.items[0]).toMatchObject({ receiverName: 'CDE', caseIds: [one.id] });
    expect(['passed', 'confirmed']).toContain(log.items[0].outcome);
  });

  it('shows the log only to holders of the menu, for their projects; refuses bad filters translated', async () => {
    expect((await rig.as('viewer').call('GET', '/exports/checks')).status).toBe(403);
    const bad = await entry.call('GET', '/exports/checks?outcome=maybe', undefined, 'cn');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it('FDA R0101 reads whether each report is initial to this receiver, from its earlier transmissions of the case', async () => {
    // A nullification (C.1.11.1 = 1) of the case, through the export path the submission plans take.
    const handle = rig.store.tenant('t1', { userId: 'entry' });
    const caller = { userId: 'entry', name: null, t: (key: string) => key, has: () => true };
    const nullificationRules = async () => {
      const refused = await exportToReceiver(
        handle,
        files.forTenant(handle),
        caller,
        {
          caseIds: [one.id],
          projectIds: [],
          receiverId: misrouted,
          corrections: { [one.id]: { code: '1', reason: 'duplicate' } },
        },
        rig.clock.now(),
      ).then(
        () => null,
        (error: { data?: { findings?: Data[] } }) => error.data?.findings ?? [],
      );
      expect(refused, 'the misrouted FDA receiver refuses every file (R0005, R0006)').not.toBeNull();
      return refused!.map((f) => f.ruleId as string);
    };
    // The receiver never had the case: its nullification would be an initial report, which FDA rejects.
    expect(await nullificationRules()).toContain('fda.R0101');
    // A file written but never sent is not a transmission.
    const earlier = { receiverId: misrouted, caseIds: [one.id], batchId: 'EARLIER', status: 'exported' };
    const written = await handle.collection(EXPORTS).insertOne(earlier);
    expect(await nullificationRules()).toContain('fda.R0101');
    // Once the receiver had the case, the same nullification is not an initial report to it.
    await handle.collection(EXPORTS).updateOne({ _id: written._id }, { $set: { status: 'sent' } });
    expect(await nullificationRules()).not.toContain('fda.R0101');
  });
});
