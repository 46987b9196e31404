import { describe, expect, it } from 'vitest';
import type { E2bBatch, E2bRecord } from '../record';
import { exportR3, importR3 } from './index';

/** The transmission time of the batches written here (they carry none of their own). */
const NOW = new Date('2026-11-21T08:00:00Z');

const record = (values: E2bRecord['values'], groups: E2bRecord['groups'] = {}): E2bRecord => ({
  values,
  groups,
});
const mpid = (p: string) => ({ [`${p}a`]: '201411011202', [`${p}b`]: '59762-2858' });
const phpid = (p: string) => ({ [`${p}a`]: '2024-01', [`${p}b`]: 'PHPID-0001-ABC' });
const ids = ['G.k.2.1.1', 'G.k.2.1.2', 'D.8.r.2', 'D.8.r.3', 'D.10.8.r.2', 'D.10.8.r.3'].flatMap((p) => [
  `${p}a`,
  `${p}b`,
]);
/** Only the MPID/PhPID values of a record (the rest of the case is not what this test is about). */
const codes = (r: E2bRecord | undefined) =>
  Object.fromEntries(Object.entries(r?.values ?? {}).filter(([k]) => ids.includes(k)));

// MPID and PhPID share the product's one kindOfProduct/code: the code system tells which it is.
const batch: E2bBatch = {
  format: 'r3',
  header: record({}),
  reports: [
    record(
      { 'C.1.1': 'US-TEST-1', 'C.1.3': '1' },
      {
        'G.k': [
          record({ 'G.k.1': '1', 'G.k.2.2': 'CureAll', ...mpid('G.k.2.1.1') }),
          record({ 'G.k.1': '2', 'G.k.2.2': 'Drug B', ...phpid('G.k.2.1.2') }),
        ],
        'D.8.r': [
          record({ 'D.8.r.1': 'Past A', ...mpid('D.8.r.2') }),
          record({ 'D.8.r.1': 'Past B', ...phpid('D.8.r.3') }),
        ],
        'D.10.8.r': [
          record({ 'D.10.8.r.1': 'Parent A', ...mpid('D.10.8.r.2') }),
          record({ 'D.10.8.r.1': 'Parent B', ...phpid('D.10.8.r.3') }),
        ],
      },
    ),
  ],
};

/** The product code elements of a message, attributes sorted (their order is not data), sorted. */
const productCodes = (xml: string): string[] =>
  [...xml.matchAll(/<kindOfProduct [^>]*>\s*<code ([^>]*?)\/>/g)]
    .map((m) =>
      (m[1] as string)
        .split(/\s+(?=\w+=)/)
        .sort()
        .join(' '),
    )
    .sort();

describe('MPID and PhPID (G.k.2.1, D.8.r.2/3, D.10.8.r.2/3)', () => {
  const xml = exportR3(structuredClone(batch), { senderId: 'S', receiverId: 'R', now: NOW });
  const read = importR3(xml);
  const report = read.batch.reports[0];

  it('writes an MPID with its code system and a PhPID with TBD-PhPID, one code each', () => {
    expect(productCodes(xml)).toEqual([
      ...Array(3).fill(
        'code="59762-2858" codeSystem="2.16.840.1.113883.6.69" codeSystemVersion="201411011202"',
      ),
      ...Array(3).fill('code="PHPID-0001-ABC" codeSystem="TBD-PhPID" codeSystemVersion="2024-01"'),
    ]);
  });

  it('reads each back into its own fields only, and writes it again as it came', () => {
    expect(read.unmapped).toEqual([]);
    for (const group of ['G.k', 'D.8.r', 'D.10.8.r'])
      expect(report?.groups[group]?.map(codes), group).toEqual(batch.reports[0]?.groups[group]?.map(codes));
    expect(productCodes(exportR3(read.batch, { senderId: 'S', receiverId: 'R', now: NOW }))).toEqual(
      productCodes(xml),
    );
  });

  it("reads FDA's NDC codes as MPIDs, not PhPIDs", () => {
    const faers = importR3(xml.replaceAll('TBD-PhPID', '2.16.840.1.113883.6.69')).batch.reports[0];
    expect(faers?.groups['G.k']?.map(codes)).toEqual([
      mpid('G.k.2.1.1'),
      { 'G.k.2.1.1a': '2024-01', 'G.k.2.1.1b': 'PHPID-0001-ABC' },
    ]);
  });
});
