import { describe, expect, it } from 'vitest';
import type { FieldChoice } from './collections';
import { compareRows, leaves, resolveDocument } from './compare';
import { demoMeddraTerms } from '../dictionaries';

const R1 = '11111111-1111-4111-8111-111111111111';
const R2 = '22222222-2222-4222-8222-222222222222';
const R3 = '33333333-3333-4333-8333-333333333333';

/** LLTs of the demo's synthetic MedDRA release (MedDRA is licensed), named in Chinese. */
const [A, B, C] = demoMeddraTerms(3, { ptLevel: true }).map((term) => ({ code: term.code, name: term.zh }));

const imported = {
  report: { reportCode: 'US-1' },
  reactions: [
    { id: R1, reactionNative: A.name, meddraCode: A.code },
    { id: R2, reactionNative: B.name, meddraCode: B.code },
  ],
  drugs: [
    {
      drugName: 'XY-101',
      reactionAssessments: [
        { reactionId: R1, assessments: [{ result: 'related' }] },
        { reactionId: R2, assessments: [{ result: 'unrelated' }] },
      ],
    },
    { drugName: '氨氯地平片' },
  ],
  reporters: [{ givenName: '王' }],
};

/** The choices that remove an item: every leaf under it edited to no value. */
const removing = (prefix: string): Record<string, FieldChoice> =>
  Object.fromEntries(
    [...leaves(imported).keys()]
      .filter((path) => path.startsWith(`${prefix}/`))
      .map((path) => [path, { source: 'edited' } satisfies FieldChoice]),
  );

describe('pre-processing of repeated items (reactions, drugs, reporters)', () => {
  it('removes a reaction with the drug assessments that named it', () => {
    const doc = resolveDocument(imported, null, removing('/reactions/1'));
    expect(doc.reactions).toEqual([imported.reactions[0]]);
    expect(doc.drugs).toEqual([
      { drugName: 'XY-101', reactionAssessments: [{ reactionId: R1, assessments: [{ result: 'related' }] }] },
      { drugName: '氨氯地平片' },
    ]);
  });

  it('removes a drug and a reporter; the others keep their order', () => {
    const doc = resolveDocument(imported, null, { ...removing('/drugs/0'), ...removing('/reporters/0') });
    expect(doc.drugs).toEqual([{ drugName: '氨氯地平片' }]);
    expect(doc.reporters).toBeUndefined();
    expect(doc.reactions).toEqual(imported.reactions);
  });

  it('adds a reaction from edited values at a new position, listed as rows of its own', () => {
    const choices: Record<string, FieldChoice> = {
      '/reactions/2/id': { source: 'edited', value: R3 },
      '/reactions/2/reactionNative': { source: 'edited', value: C.name },
      '/reactions/2/meddraCode': { source: 'edited', value: C.code },
    };
    const rows = compareRows(imported, null, choices).filter((row) => row.path.startsWith('/reactions/2/'));
    expect(rows.map((row) => [row.path, row.chosen, row.imported])).toEqual([
      ['/reactions/2/id', R3, undefined],
      ['/reactions/2/reactionNative', C.name, undefined],
      ['/reactions/2/meddraCode', C.code, undefined],
    ]);
    expect(rows[1]!.e2b).toBe('E.i.1.1a');
    const doc = resolveDocument(imported, null, { ...choices, ...removing('/reactions/0') });
    expect(doc.reactions).toEqual([
      imported.reactions[1],
      { id: R3, reactionNative: C.name, meddraCode: C.code },
    ]);
    expect((doc.drugs as { reactionAssessments?: unknown[] }[])[0]!.reactionAssessments).toHaveLength(1);
  });
});
