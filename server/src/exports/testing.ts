/** Test helpers of the export tests: demo cases, the FDA receiver, exports and the FDA ACK samples. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { demoCaseContent } from '../cases';
import { demoProject } from '../cases/testing';
import type { RigAnswer } from '../cases/testing';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelope data read loosely

/** A demo case saved by `who`, dated relative to `today` (the rig clock's, `rig.clock.now()`). */
export async function demoCaseBy(
  who: { call: (method: string, path: string, body?: unknown) => Promise<RigAnswer> },
  n: number,
  today: Date,
): Promise<{ id: string; reportCode: string }> {
  const created = await who.call('POST', '/cases', {
    projectId: 'p1',
    reportType: '2',
    happenCountry: 'CN',
    hospitalId: 'p1-s1',
  });
  const { id, rev, document: current } = created.body.data.case as Data;
  const content = demoCaseContent({ n, project: demoProject('p1'), today });
  const document = { ...content, report: { ...current.report, ...(content.report as object) } };
  const saved = await who.call('PUT', `/cases/${id}`, { rev, document, confirmMissing: true });
  expect(saved.body.code).toBe(200);
  return { id, reportCode: saved.body.data.case.document.report.reportCode };
}

type Caller = {
  call: (method: string, path: string, body?: unknown, lang?: 'en' | 'cn') => Promise<RigAnswer>;
};

const samples = fileURLToPath(new URL('../../../schemas/e2b/samples/', import.meta.url));
export const sample = (name: string) => readFileSync(`${samples}${name}`, 'utf8');

/** The tests' FDA receiver (ZZFDA, R3). */
export async function fdaReceiver(who: Caller): Promise<Data> {
  const created = await who.call('POST', '/exports/receivers', {
    name: 'FDA FAERS',
    receiverIdentifier: 'ZZFDA',
    senderIdentifier: 'XYPHARMA',
    profile: 'fda',
    format: 'r3',
  });
  return created.body.data as Data;
}

/** Exports the cases as one batch to the receiver; answers the new export's id. */
export async function exportSelection(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  userId: string,
  receiverId: string,
  caseIds: string[],
): Promise<string> {
  const res = await app.request('/api/exports/selection', {
    method: 'POST',
    headers: { authorization: `Bearer t1:${userId}`, 'content-type': 'application/json' },
    body: JSON.stringify({ caseIds, receiverId }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('x-export-id')!;
}

/** FDA's positive ACK sample answering `batchId`, accepting the report `reportCode` (CA). */
export const positiveAck = (batchId: string, reportCode: string) =>
  sample('fda-faers_R3ack-positive.ack.xml')
    .replace('FAERS2022Scenario1-4069-a2dd-08002b30309d', batchId)
    .replace('21ec1492-3aea-4069-a2ab-08002b30309d US-APHARMA-8744554B', reportCode);

/** FDA's negative ACK for the batch: CR for `rejected`, CA for `accepted` (a partial answer). */
export function negativeAck(batchId: string, rejected: string, accepted?: string): string {
  let xml = sample('fda-faers_R3ack-negative.ack.xml')
    .replace('FAERS2022Scenario2-4069-a2dd-08002b30309d', batchId)
    .replace('US-APHARMA-7644554', rejected);
  if (accepted) {
    const block = /<MCCI_IN000002UV01>[\s\S]*?<\/MCCI_IN000002UV01>/.exec(xml)![0];
    const ok = block
      .replace('typeCode="CR"', 'typeCode="CA"')
      .replace(rejected, accepted)
      .replace(/<acknowledgementDetail>[\s\S]*?<\/acknowledgementDetail>/, '');
    xml = xml.replace(block, `${ok}\n${block}`);
  }
  return xml;
}

/** Attaches an ACK file to a transmission. */
export const attachAck = (who: Caller, exportId: string, xml: string, lang: 'en' | 'cn' = 'en') =>
  who.call(
    'POST',
    `/exports/transmissions/${exportId}/ack`,
    { fileName: 'ack.xml', content: Buffer.from(xml, 'utf8').toString('base64') },
    lang,
  );
