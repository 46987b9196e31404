import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { caseToRecord, recordToCase } from './case-binding';
import { missingLeaves } from './leaves';
import type { E2bRecord } from './record';
import { exportR2, importR2 } from './r2/index';
import { exportR3, importR3 } from './r3/index';
import { parseXml } from './xml/parse';

const samples = fileURLToPath(new URL('../../../schemas/e2b/samples/', import.meta.url));
const r2Files = ['01', '02', '03', '04'].map((n) => `ich-bfc-draft_utr2-${n}.xml`);

/** Every R3-mapped value of a record as `group[i]/id=value` (R2-only fields and headers aside). */
const mappedValues = (r: E2bRecord, prefix = ''): string[] => [
  ...Object.entries(r.values)
    .filter(([k]) => !k.startsWith('R2:') && !k.startsWith('N.') && !k.includes('#'))
    .map(([k, v]) => `${prefix}${k}=${JSON.stringify(v)}`),
  ...Object.entries(r.groups).flatMap(([g, list]) =>
    g.startsWith('R2:') ? [] : list.flatMap((x, i) => mappedValues(x, `${prefix}${g}[${i}]/`)),
  ),
];

describe('E2B(R2) samples', () => {
  for (const file of r2Files) {
    it(`${file}: imports to case documents and exports as R2 with no leaf lost`, () => {
      const xml = readFileSync(`${samples}${file}`, 'utf8');
      const imported = importR2(xml);
      expect(imported.unmapped).toEqual([]);
      const cases = imported.batch.reports.map((r) => JSON.stringify(recordToCase(r).case));
      const out = exportR2({
        ...imported.batch,
        reports: cases.map((c) => caseToRecord(JSON.parse(c) as Record<string, unknown>)),
      });
      expect(out).toContain('<!DOCTYPE ichicsr SYSTEM "ich-icsr-v2-1.dtd">');
      expect(missingLeaves(parseXml(xml), parseXml(out))).toEqual([]);
    });

    it(`${file}: R2 -> R3 -> R2 keeps every mapped element`, () => {
      const imported = importR2(readFileSync(`${samples}${file}`, 'utf8'));
      const viaR3 = importR3(
        exportR3(imported.batch, { profile: 'ich', senderId: 'SENDER', receiverId: 'RECEIVER' }),
      );
      const again = importR2(exportR2(viaR3.batch));
      const before = imported.batch.reports.flatMap((r) => mappedValues(r));
      expect(before.length).toBeGreaterThan(5);
      expect(again.batch.reports.flatMap((r) => mappedValues(r)).sort()).toEqual(
        expect.arrayContaining(before.sort()),
      );
    });
  }

  it('translates R2 codes and dates into R3 values and back', () => {
    const { batch } = importR2(readFileSync(`${samples}ich-bfc-draft_utr2-02.xml`, 'utf8'));
    const reaction = batch.reports[0]?.groups['E.i']?.[0];
    expect(reaction?.values['E.i.6b']).toBe('min');
    expect(batch.reports[0]?.values['C.1.6.1']).toMatch(/^(true|false)$/);
    const r2 = exportR2({
      ...batch,
      reports: [
        {
          ...(batch.reports[0] as E2bRecord),
          values: { ...batch.reports[0]?.values, 'C.1.4': '20110102101010+0100' },
        },
      ],
    });
    expect(r2).toContain('<receivedateformat>204</receivedateformat>');
    expect(r2).toContain('<receivedate>20110102101010</receivedate>');
  });
});
