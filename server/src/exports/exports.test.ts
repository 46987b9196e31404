import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { validateR3Xml } from '../interchange/index';
import { caseRig } from '../cases/testing';
import { createCasesModule, workbenchModule } from '../cases/index';
import { workflowModule } from '../workflow';
import { reportCodesModule } from '../report-codes';
import { exportsModule } from './index';
import { demoCaseBy } from './testing';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely in assertions

const rig = await caseRig({
  files: true,
  modules: [createCasesModule(), workbenchModule, workflowModule, reportCodesModule, exportsModule],
});
afterAll(() => rig.close());
const entry = rig.as('entry');
const samples = fileURLToPath(new URL('../../../schemas/e2b/samples/', import.meta.url));
const sample = (name: string) => readFileSync(`${samples}${name}`, 'utf8');

/** A raw request (downloads are not envelopes). */
async function raw(path: string, body: unknown, userId = 'entry') {
  return rig.platform.app.request(`/api${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer t1:${userId}`, 'content-type': 'application/json', 'lang-type': 'en' },
    body: JSON.stringify(body),
  });
}

const newCase = (n = 1) => demoCaseBy(entry, n, rig.clock.now());

async function addReceiver(body: Data): Promise<Data> {
  const res = await entry.call('POST', '/exports/receivers', {
    senderIdentifier: 'XYPHARMA',
    format: 'r3',
    ...body,
  });
  expect(res.body.msg).toBe('Success');
  return res.body.data as Data;
}

const history = async (query = '') => (await entry.call('GET', `/exports/records${query}`)).body.data as Data;

const nmpa = await addReceiver({ name: 'CDE', receiverIdentifier: 'CDE', profile: 'nmpa' });
const fda = await addReceiver({ name: 'FDA FAERS', receiverIdentifier: 'ZZFDA', profile: 'fda' });
const first = await newCase(1);
const second = await newCase(2);

describe('receivers (SPEC 3, /authoritymanagement/receiverSetting)', () => {
  it('names the authority whose reporting rules apply; without one, the profile', async () => {
    expect(fda.authority).toBe('fda');
    const ich = await addReceiver({
      name: 'EU partner',
      receiverIdentifier: 'EUPARTNER',
      profile: 'ich',
      authority: 'ema',
    });
    expect(ich).toMatchObject({ profile: 'ich', authority: 'ema' });
    expect((await entry.call('DELETE', `/exports/receivers/${String(ich.receiverId)}`)).body.code).toBe(200);
    const bad = await entry.call('POST', '/exports/receivers', {
      name: 'PMDA',
      receiverIdentifier: 'PMDA',
      profile: 'ich',
      format: 'r3',
      senderIdentifier: 'XYPHARMA',
      authority: 'pmda',
    });
    expect(bad.status).toBe(400);
  });

  it('refuses empty identifiers, identifiers the profile does not accept and duplicate names, in zh and en', async () => {
    const base = { name: 'EMA', profile: 'ema', format: 'r3', senderIdentifier: 'XYPHARMA' };
    const cases: [Data, string, string][] = [
      [{ ...base, receiverIdentifier: '' }, 'Receiver identifier cannot be empty', '接收方标识不能为空'],
      [
        { ...base, receiverIdentifier: 'EVHUMAN', senderIdentifier: '' },
        'The sender identifier cannot be empty',
        '发送方标识不能为空',
      ],
      [
        { ...base, receiverIdentifier: 'ZZFDA' },
        'Receiver identifier ZZFDA is not one the EMA (EudraVigilance) profile accepts (EVHUMAN, EVTEST)',
        '接收方标识 ZZFDA 不被 EMA (EudraVigilance) 规范接受（可选：EVHUMAN, EVTEST）',
      ],
      [
        { ...base, name: 'CDE', profile: 'nmpa', receiverIdentifier: 'CDE' },
        'A receiver named CDE already exists',
        '名为 CDE 的接收方已存在',
      ],
    ];
    for (const [body, en, zh] of cases) {
      expect((await entry.call('POST', '/exports/receivers', body)).body).toMatchObject({
        code: 400,
        msg: en,
      });
      expect((await entry.call('POST', '/exports/receivers', body, 'cn')).body.msg).toBe(zh);
    }
    const spaced = await entry.call('POST', '/exports/receivers', {
      ...base,
      receiverIdentifier: 'EV HUMAN',
    });
    expect(spaced.body.code).toBe(400);
    const list = (await entry.call('GET', '/exports/receivers')).body.data as Data[];
    expect(list.map((r) => r.name)).toEqual(['CDE', 'FDA FAERS']);
  });

  it('edits with the revision read, lists only active ones for the export dialog, deletes', async () => {
    const created = await addReceiver({ name: 'EMA', receiverIdentifier: 'EVTEST', profile: 'ema' });
    const body: Data = { ...created, active: false };
    delete body.receiverId;
    delete body.updatedAt;
    const edited = await entry.call('PUT', `/exports/receivers/${created.receiverId}`, body);
    expect(edited.body.data).toMatchObject({ active: false, rev: 2 });
    const stale = await entry.call('PUT', `/exports/receivers/${created.receiverId}`, body);
    expect(stale.body.code).toBe(409);
    const active = (await entry.call('GET', '/exports/receivers/active')).body.data as Data[];
    expect(active.map((r) => r.name)).toEqual(['CDE', 'FDA FAERS']);
    const refused = await entry.call('POST', `/exports/cases/${first.id}`, {
      receiverId: created.receiverId,
    });
    expect(refused.body.msg).toBe('Receiver EMA is disabled; choose an active receiver');
    expect((await entry.call('DELETE', `/exports/receivers/${created.receiverId}`)).body.code).toBe(200);
    expect((await entry.call('GET', '/exports/receivers')).body.data).toHaveLength(2);
  });

  it('needs the receiver permissions', async () => {
    const viewer = rig.as('viewer');
    expect((await viewer.call('GET', '/exports/receivers')).body.code).toBe(403);
    expect(
      (await viewer.call('POST', `/exports/cases/${first.id}`, { receiverId: nmpa.receiverId })).body.code,
    ).toBe(403);
  });
});

describe('E2B export of one case', () => {
  it('answers an XSD-valid R3 file as an attachment and keeps the record and the file', async () => {
    const res = await raw(`/exports/cases/${first.id}`, { receiverId: nmpa.receiverId });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml');
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment; filename="E2B_R3_XYPHARMA-\d{14}-[0-9A-F]{6}\.xml"/);
    const xml = await res.text();
    expect(await validateR3Xml(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain(`extension="${first.reportCode}"`);
    expect(xml).toContain('extension="CDE"');
    // Causality (G.k.9.i) names each drug by the UUID the drug's substanceAdministration carries.
    const drugIds = [...xml.matchAll(/<substanceAdministration [^>]*>\s*<id root="([^"]+)"/g)].map(
      (m) => m[1],
    );
    const referenced = [...xml.matchAll(/<productUseReference [^>]*>\s*<id root="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(referenced.length).toBeGreaterThan(0);
    for (const id of referenced) expect(drugIds).toContain(id);

    const exportId = res.headers.get('x-export-id');
    const record = (await entry.call('GET', `/exports/records/${exportId}`)).body.data as Data;
    expect(record).toMatchObject({
      exportId,
      format: 'r3',
      profile: 'nmpa',
      receiverName: 'CDE',
      receiverIdentifier: 'CDE',
      senderIdentifier: 'XYPHARMA',
      caseIds: [first.id],
      cases: [
        {
          caseId: first.id,
          reportCode: first.reportCode,
          messageId: first.reportCode,
          caseRev: 2,
          version: 1,
        },
      ],
      exportedBy: 'entry',
      exportedByName: '录入员小王',
      status: 'exported',
      ack: null,
    });
    expect(xml).toContain(`extension="${record.batchId}"`);
    expect(record.fileId).toMatch(/^[0-9a-f]{64}$/);
    const again = await rig.platform.app.request(`/api/exports/records/${exportId}/file`, {
      headers: { authorization: 'Bearer t1:entry' },
    });
    expect(await again.text()).toBe(xml);
    expect((await history(`?caseId=${first.id}`)).items.map((r: Data) => r.exportId)).toEqual([exportId]);
    // Another tenant neither sees the record nor reaches the file.
    const other = rig.as('entry', 't2');
    expect((await other.call('GET', `/exports/records/${exportId}`)).status).toBe(404);
    expect((await other.call('GET', '/exports/records')).body.data.total).toBe(0);
  });

  it('does not export a case outside the projects the request names', async () => {
    const inProjects = (ids: string) =>
      rig.platform.app.request(`/api/exports/cases/${first.id}`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer t1:entry',
          'content-type': 'application/json',
          'lang-type': 'en',
          studyProjectIds: ids,
        },
        body: JSON.stringify({ receiverId: nmpa.receiverId }),
      });
    expect((await inProjects('p2')).status).toBe(404);
    expect((await inProjects('p2,p1')).status).toBe(200);
  });

  it('writes R2 (ichicsr) when asked, for the FDA receiver', async () => {
    const res = await raw(`/exports/cases/${first.id}`, { receiverId: fda.receiverId, format: 'r2' });
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain('<ichicsr');
    expect(xml).toContain('<messagereceiveridentifier>ZZFDA</messagereceiveridentifier>');
    expect(xml).toContain(`<safetyreportid>${first.reportCode}</safetyreportid>`);
    const record = (await entry.call('GET', `/exports/records/${res.headers.get('x-export-id')}`)).body.data;
    expect(record).toMatchObject({ format: 'r2', profile: 'fda' });
  });

  it('refuses a case that makes an XSD-invalid file, lists the errors and keeps nothing', async () => {
    const broken = await newCase(3);
    // C.1.4 as free text: the case form would refuse it, an old or imported document may still hold it.
    await rig.store
      .tenant('t1', { userId: 'system:test' })
      .collection('cases')
      .updateOne({ _id: broken.id }, { $set: { 'report.reportDateFirst': '2024-13-45' } });
    const before = (await history()).total;
    for (const lang of ['en', 'cn'] as const) {
      const res = await entry.call(
        'POST',
        `/exports/cases/${broken.id}`,
        { receiverId: nmpa.receiverId },
        lang,
      );
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(
        lang === 'en'
          ? /^The E2B\(R3\) file failed XSD validation \(\d+ errors\); the export was blocked$/
          : /^E2B\(R3\) 文件未通过 XSD 校验（\d+ 个错误），已阻止导出$/,
      );
      expect(res.body.data.xsdErrors.length).toBeGreaterThan(0);
      expect(res.body.data.xsdErrors.map((e: Data) => e.message).join('\n')).toContain('2024-13-45');
    }
    expect((await history()).total).toBe(before);
    expect((await history(`?caseId=${broken.id}`)).total).toBe(0);
    const stored = await rig.store.tenant('t1', { userId: 'system:test' }).collection('files').count({});
    const exportsKept = (await history()).items.length;
    expect(stored).toBe(exportsKept);
  });
});

describe('E2B export of a selection', () => {
  it('writes the selected cases as one batch, by ids or by the list query', async () => {
    const byIds = await raw('/exports/selection', {
      caseIds: [first.id, second.id],
      receiverId: nmpa.receiverId,
    });
    expect(byIds.status).toBe(200);
    const xml = await byIds.text();
    expect(xml.match(/<PORR_IN049016UV/g)).toHaveLength(2);
    expect(await validateR3Xml(xml)).toMatchObject({ valid: true });
    const record = (await entry.call('GET', `/exports/records/${byIds.headers.get('x-export-id')}`)).body
      .data;
    expect(record.caseIds).toEqual([first.id, second.id]);

    const byQuery = await raw('/exports/selection', {
      query: { tab: 'all', filters: { reportCode: second.reportCode } },
      receiverId: nmpa.receiverId,
    });
    expect(byQuery.status).toBe(200);
    const queried = (await entry.call('GET', `/exports/records/${byQuery.headers.get('x-export-id')}`)).body
      .data;
    expect(queried.caseIds).toEqual([second.id]);
  });

  it('refuses an empty selection with the case list message', async () => {
    const res = await entry.call('POST', '/exports/selection', { caseIds: [], receiverId: nmpa.receiverId });
    expect(res.body).toMatchObject({ code: 400, msg: 'The report to be exported has not been selected' });
  });
});

describe('acknowledgements (FDA samples)', () => {
  async function exportOne(which: { id: string } = first): Promise<Data> {
    const res = await raw(`/exports/cases/${which.id}`, { receiverId: fda.receiverId });
    expect(res.status).toBe(200);
    return (await entry.call('GET', `/exports/records/${res.headers.get('x-export-id')}`)).body.data as Data;
  }
  const upload = (exportId: string, fileName: string, xml: string, lang: 'en' | 'cn' = 'en') =>
    entry.call(
      'POST',
      `/exports/records/${exportId}/ack`,
      { fileName, content: Buffer.from(xml, 'utf8').toString('base64') },
      lang,
    );

  it('a positive ACK marks the export acknowledged', async () => {
    const record = await exportOne();
    const ack = sample('fda-faers_R3ack-positive.ack.xml')
      .replace('FAERS2022Scenario1-4069-a2dd-08002b30309d', record.batchId)
      .replace('21ec1492-3aea-4069-a2ab-08002b30309d US-APHARMA-8744554B', first.reportCode);
    const res = await upload(record.exportId, 'positive.xml', ack);
    expect(res.body.data).toMatchObject({
      status: 'acknowledged',
      failureText: null,
      ack: { format: 'r3', code: 'AA', text: 'message successfully processed, no further action' },
      cases: [{ caseId: first.id, ackCode: 'CA', ackText: 'Report Loaded Successfully' }],
    });
    const ackFile = await rig.platform.app.request(`/api/exports/records/${record.exportId}/ack-file`, {
      headers: { authorization: 'Bearer t1:entry' },
    });
    expect(await ackFile.text()).toBe(ack);
    // No double sending (issue 19 item 7): the acknowledged version does not go to FDA again.
    const again = await entry.call('POST', `/exports/cases/${first.id}`, { receiverId: fda.receiverId });
    expect(again.body).toMatchObject({
      code: 400,
      msg: `${first.reportCode} version 1 was already acknowledged by FDA FAERS; it is sent again only as a follow-up, an amendment or a nullification`,
    });
  });

  it('a negative ACK marks the export failed with its error text', async () => {
    const fresh = await newCase(4);
    const record = await exportOne(fresh);
    const ack = sample('fda-faers_R3ack-negative.ack.xml')
      .replace('FAERS2022Scenario2-4069-a2dd-08002b30309d', record.batchId)
      .replace('US-APHARMA-7644554', fresh.reportCode);
    const res = await upload(record.exportId, 'negative.xml', ack);
    expect(res.body.data).toMatchObject({ status: 'failed', ack: { code: 'AE' } });
    expect(res.body.data.cases[0].ackCode).toBe('CR');
    expect(res.body.data.failureText).toContain('some ICSR message(s) need further action');
    expect(res.body.data.failureText).toContain(res.body.data.cases[0].ackText);
    expect((await history('?status=failed')).items.map((r: Data) => r.exportId)).toContain(record.exportId);
  });

  it('reads an R2 acknowledgement (ichicsrack) for an R2 export', async () => {
    const res = await raw(`/exports/cases/${first.id}`, { receiverId: nmpa.receiverId, format: 'r2' });
    const record = (await entry.call('GET', `/exports/records/${res.headers.get('x-export-id')}`)).body.data;
    const ack = sample('ich-bfc-draft_ack2-01.xml')
      .replace('icsr number', record.batchId)
      .replace('report id #1', first.reportCode);
    const answer = await upload(record.exportId, 'ack2.xml', ack);
    expect(answer.body.data.ack).toMatchObject({ format: 'r2', code: 'AA' });
    expect(answer.body.data.status).toBe('acknowledged');
    expect(answer.body.data.cases[0].ackCode).toBe('CA');
  });

  it('refuses an ACK of another batch, a case report and hostile XML, changing nothing', async () => {
    const record = await exportOne(second);
    const other = await upload(record.exportId, 'other.xml', sample('fda-faers_R3ack-positive.ack.xml'));
    expect(other.body.msg).toBe(
      `The acknowledgement answers batch FAERS2022Scenario1-4069-a2dd-08002b30309d, not this export's batch ${record.batchId}`,
    );
    const report = await upload(
      record.exportId,
      'report.xml',
      sample('fda-faers_FAERS2022Scenario1.xml'),
      'cn',
    );
    expect(report.body.msg).toMatch(/^该文件不是确认回执（根元素 MCCI_IN200100UV01）/);
    const evil = await upload(
      record.exportId,
      'evil.xml',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>',
    );
    expect(evil.body.code).toBe(400);
    expect(evil.body.msg).toBe(
      'The export was refused: The file declares entities (<!ENTITY>) and was refused for security reasons',
    );
    const notXml = await upload(record.exportId, 'ack.pdf', 'x');
    expect(notXml.body.msg).toBe('ack.pdf is not an XML file; upload the acknowledgement as .xml');
    const after = (await entry.call('GET', `/exports/records/${record.exportId}`)).body.data;
    expect(after).toMatchObject({ status: 'exported', ack: null, rev: record.rev });
  });
});
