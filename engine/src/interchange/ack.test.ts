import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readAcknowledgement, writeR2Acknowledgement, writeR3Acknowledgement } from './ack';
import type { AckOptions } from './ack';
import { parseXml } from './xml/parse';

const samples = fileURLToPath(new URL('../../../schemas/e2b/samples/', import.meta.url));
const read = (file: string) => readAcknowledgement(parseXml(readFileSync(`${samples}${file}`, 'utf8')));

describe('acknowledgements', () => {
  for (const file of readdirSync(samples).filter((f) => /ack/.test(f))) {
    it(`parses ${file} with its batch and report codes`, () => {
      const ack = read(file);
      expect(['AA', 'AE', 'AR']).toContain(ack.code);
      expect(ack.reports.length).toBeGreaterThan(0);
      for (const report of ack.reports) expect(['CA', 'CR']).toContain(report.code);
      expect(ack.icsrBatchId).toBeTruthy();
    });
  }

  it("marks FDA's negative acknowledgement failed, with its error text", () => {
    const ack = read('fda-faers_R3ack-negative.ack.xml');
    expect(ack).toMatchObject({
      format: 'r3',
      code: 'AE',
      status: 'failed',
      icsrBatchId: 'FAERS2022Scenario2-4069-a2dd-08002b30309d',
      ackSenderId: 'ZZFDA',
    });
    expect(ack.reports).toHaveLength(1);
    expect(ack.reports[0]).toMatchObject({
      code: 'CR',
      messageId: 'US-APHARMA-7644554',
      localReportNumber: '19426650',
    });
    expect(ack.reports[0]?.text).toContain('FDA.C.1.7.1 is Mandatory');
  });

  it("marks FDA's positive acknowledgement acknowledged", () => {
    const ack = read('fda-faers_R3ack-positive.ack.xml');
    expect(ack).toMatchObject({ code: 'AA', status: 'acknowledged' });
    expect(ack.reports.every((r) => r.code === 'CA')).toBe(true);
  });

  it('reads R2 codes into the R3 scale and keeps the raw ones', () => {
    expect(read('ich-bfc-draft_ack2-01.xml')).toMatchObject({
      format: 'r2',
      code: 'AA',
      rawCode: '01',
      status: 'acknowledged',
    });
    const rejected = read('ich-bfc-draft_ack2-03.xml');
    expect(rejected).toMatchObject({
      code: 'AR',
      rawCode: '03',
      status: 'failed',
      text: 'parsing error message',
    });
    expect(rejected.reports[1]).toMatchObject({
      code: 'CR',
      rawCode: '02',
      safetyReportId: 'report id #2',
      text: 'error message #2',
    });
  });

  const options: AckOptions = {
    ackBatchId: 'ACK-1',
    senderId: 'OURS',
    receiverId: 'THEIRS',
    date: '20260101120000+0000',
    icsrBatchId: 'B-1',
    icsrBatchDate: '20251231235959+0000',
    reports: [
      { messageId: 'M-1', code: 'CA' },
      { messageId: 'M-2', code: 'CR', text: 'C.1.1 missing', messageDate: '20251231' },
    ],
  };

  it('writes R3 and R2 acknowledgements that read back the same', () => {
    for (const xml of [writeR3Acknowledgement(options), writeR2Acknowledgement(options)]) {
      const ack = readAcknowledgement(parseXml(xml));
      expect(ack).toMatchObject({ code: 'AE', icsrBatchId: 'B-1', ackBatchId: 'ACK-1', status: 'partial' });
      expect(ack.reports.map((r) => [r.messageId, r.code, r.text])).toEqual([
        ['M-1', 'CA', undefined],
        ['M-2', 'CR', 'C.1.1 missing'],
      ]);
    }
  });
});
