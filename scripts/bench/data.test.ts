import { describe, expect, it } from 'vitest';
import { demoCaseContent } from '../../server/src/cases/demo/factory';
import { buildSummary } from '../../server/src/cases/summary';
import type { CaseDocument } from '../../server/src/cases/document';
import { benchDataKey } from './data';
import type { BenchDataSpec, TenantContext } from './data';

const spec = (
  caseDocuments: BenchDataSpec['caseDocuments'],
  today = new Date('2026-11-21T00:00:00Z'),
): BenchDataSpec => ({
  name: 'test',
  total: 100,
  tenants: ['a', 'b'],
  share: 0.6,
  projectOf: (tenant) => `p-${tenant}`,
  members: ['reader'],
  seed: 7,
  today,
  batch: 10,
  caseDocuments,
  modules: [],
  collections: [],
});

// As the case-list benchmark makes its documents: a demo case's summary.
const summaries =
  (days: number) =>
  ({ tenant, project, today, random, n }: TenantContext & { n: number }) => {
    const doc = demoCaseContent({ n, project, today, receivedDaysAgo: Math.floor(random() * days) });
    return { summaries: [buildSummary(`${tenant}-${n}`, doc as unknown as CaseDocument, null)] };
  };

describe('bench data key', () => {
  it('is the same for the same generator, whatever the day the data is generated on', () => {
    const key = benchDataKey(spec(summaries(700)));
    expect(benchDataKey(spec(summaries(700)))).toBe(key);
    expect(benchDataKey(spec(summaries(700), new Date('2027-03-01T00:00:00Z')))).toBe(key);
  });

  it('changes when the generated documents or the sizes change', () => {
    const key = benchDataKey(spec(summaries(700)));
    expect(benchDataKey(spec(summaries(600)))).not.toBe(key);
    expect(benchDataKey({ ...spec(summaries(700)), total: 200 })).not.toBe(key);
    expect(benchDataKey({ ...spec(summaries(700)), members: ['reader', 'other'] })).not.toBe(key);
  });
});
