import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseToRecord, exportR3, importR3, missingLeaves, parseXml, recordToCase } from '@pv/engine';
import { validateR3Batches } from './xsd';
import type { XsdResult } from './xsd';

const samples = fileURLToPath(new URL('../../../schemas/e2b/samples/', import.meta.url));
const icsrFiles = readdirSync(samples).filter((f) =>
  /^(fda-faers_FAERS.*|ich-bfc-draft_utr3-.*)\.xml$/.test(f),
);

// The batch id and the creation times may change on re-export; the schema location is not data.
const mayChange = (leaf: string): boolean =>
  /^\/MCCI_IN200100UV01\/(id\/@(extension|root)|creationTime\/@value|@xsi:schemaLocation)=/.test(leaf);

/**
 * Leaves of each sample that no mapping entry describes (kept verbatim, as fragments hung on their
 * nearest repeating instance, so that nothing is lost, but not editable as case fields). The count
 * may only go down: a mapping regression fails the test. Zero is the goal for every file.
 */
const unmappedBaseline = JSON.parse(
  readFileSync(new URL('./r3-unmapped.json', import.meta.url), 'utf8'),
) as Record<string, number>;

interface RoundTrip {
  xml: string;
  out: string;
  reports: number;
  unmapped: number;
}

/** Import, store as case JSON, read back, export: each sample, before the per-file checks. */
function roundTrip(file: string): RoundTrip {
  const xml = readFileSync(`${samples}${file}`, 'utf8');
  const imported = importR3(xml);
  const cases = imported.batch.reports.map((report) => JSON.stringify(recordToCase(report).case));
  const out = exportR3({
    ...imported.batch,
    reports: cases.map((c) => caseToRecord(JSON.parse(c) as Record<string, unknown>)),
  });
  return { xml, out, reports: imported.batch.reports.length, unmapped: imported.unmapped.length };
}

describe('E2B(R3) samples: import to case documents, re-export, XSD, no leaf lost', () => {
  const trips = new Map<string, RoundTrip>();
  const xsd = new Map<string, XsdResult>();
  beforeAll(async () => {
    for (const file of icsrFiles) trips.set(file, roundTrip(file));
    // One libxml2 run for all exports: the XSD set is compiled once.
    const results = await validateR3Batches(icsrFiles.map((f) => (trips.get(f) as RoundTrip).out));
    icsrFiles.forEach((f, i) => xsd.set(f, results[i] as XsdResult));
  });

  for (const file of icsrFiles) {
    it(file, () => {
      const trip = trips.get(file) as RoundTrip;
      expect(trip.reports).toBeGreaterThan(0);
      expect(xsd.get(file)?.errors).toEqual([]);
      expect(xsd.get(file)?.valid).toBe(true);
      expect(missingLeaves(parseXml(trip.xml), parseXml(trip.out), mayChange)).toEqual([]);
      expect(trip.unmapped).toBeLessThanOrEqual(unmappedBaseline[file] ?? 0);
    });
  }

  it('reports an XSD error against the right document', async () => {
    const valid = (trips.get(icsrFiles[0] as string) as RoundTrip).out;
    const broken = valid.replace(/<processingCode code="P"\/>/, '');
    const [first, second] = await validateR3Batches([valid, broken]);
    expect(first?.valid).toBe(true);
    expect(second?.valid).toBe(false);
    expect(second?.errors[0]?.message).toMatch(/processingModeCode/);
  });
});
