/**
 * What the unblinding does to a case (issue 18 item 3, schemas/rules/unblinding-outcome.json): the
 * blinded drug takes the identity the list gives and the case is re-assessed - SUSAR and each
 * authority's expedited clock - per kind of group; the case given is never changed.
 */
import { describe, expect, it } from 'vitest';
import type { Assignment } from './blinding-list';
import { OUTCOME_DECLARATION, outcomeDeclarationOf, unblindDocument } from './outcome';

const assignment = (groupKind: Assignment['groupKind'], productName: string | null): Assignment => ({
  listVersion: 1,
  randomisationNumber: 'R1',
  subjectNumber: 'S1',
  treatmentGroup: 'GROUP-A',
  groupKind,
  productName,
  productNumber: 'PN-1',
  kitBatch: 'KIT-1',
  route: null,
});

/** A fatal, unexpected, related reaction to a blinded study drug, in a study reported on 2026-03-02. */
const blindedSusar = (unexpected: string | undefined = '1') => ({
  report: { reportType: '2', reportDateFirst: '20260302', happenCountry: 'CN' },
  state: { isSae: true, isSusar: true, version: 1 },
  reactions: [{ id: 'r1', isResultInDeath: true, reactionCountry: 'CN' }],
  drugs: [
    {
      isClinicalDrug: true,
      isBlind: true,
      drugCharacterisation: '1',
      drugName: 'Study drug XY or placebo',
      reactionAssessments: [
        {
          reactionId: 'r1',
          ...(unexpected ? { isUnintended: unexpected } : {}),
          assessments: [{ cnAssessmentResult: '2' }],
        },
      ],
    },
    { isClinicalDrug: false, drugCharacterisation: '2', drugName: 'Paracetamol' },
  ],
});

describe('the unblinding outcome', () => {
  it('gives the blinded drug the active product and keeps a related, unexpected, fatal case a 7-day SUSAR', () => {
    const before = blindedSusar();
    const { document, outcome } = unblindDocument(
      before,
      assignment('active', 'XY-101'),
      OUTCOME_DECLARATION,
    );
    expect(document.drugs[0]).toMatchObject({ drugName: 'XY-101', genericName: 'XY-101', isBlind: false });
    expect(document.drugs[1]).toEqual(before.drugs[1]);
    expect(before.drugs[0]!.drugName).toBe('Study drug XY or placebo');
    expect(outcome).toMatchObject({
      groupKind: 'active',
      isSusarBefore: true,
      isSusarAfter: true,
      reason: { en: expect.stringContaining('investigational product') },
    });
    expect(outcome.changes).toEqual(
      expect.arrayContaining([
        { drug: 0, field: 'drugName', before: 'Study drug XY or placebo', after: 'XY-101' },
        { drug: 0, field: 'isBlind', before: true, after: false },
      ]),
    );
    const nmpa = outcome.clocks.find((c) => c.authority === 'nmpa')!;
    expect(nmpa).toMatchObject({ isSubmit: true, days: 7, dueDate: '2026-03-09' });
  });

  it('takes a placebo case out of SUSAR expedited reporting, with the reason', () => {
    const { document, outcome } = unblindDocument(
      blindedSusar(),
      assignment('placebo', null),
      OUTCOME_DECLARATION,
    );
    expect(document.drugs[0]).toMatchObject({ drugName: 'GROUP-A', isBlind: false });
    expect(document.state.isSusar).toBe(false);
    expect(outcome).toMatchObject({ isSusarBefore: true, isSusarAfter: false });
    expect(outcome.reason?.en).toMatch(/placebo/);
    expect(outcome.reason?.zh).toMatch(/安慰剂/);
    const before = unblindDocument(blindedSusar(), assignment('active', 'XY-101'), OUTCOME_DECLARATION);
    const days = (o: typeof outcome) => o.clocks.find((c) => c.authority === 'nmpa')!.days;
    expect(days(outcome)).not.toBe(days(before.outcome));
  });

  it('re-assesses a comparator on expectedness: expected is no SUSAR; no stated expectedness keeps the flag', () => {
    const expected = unblindDocument(
      blindedSusar('0'),
      assignment('comparator', 'CMP-5'),
      OUTCOME_DECLARATION,
    );
    expect(expected.document.drugs[0]!.drugName).toBe('CMP-5');
    expect(expected.outcome).toMatchObject({ isSusarBefore: true, isSusarAfter: false });
    const unstated = unblindDocument(
      blindedSusar(''),
      assignment('comparator', 'CMP-5'),
      OUTCOME_DECLARATION,
    );
    expect(unstated.outcome.isSusarAfter).toBe(true);
  });

  it('follows the project override (a merge patch over the declaration)', () => {
    const declaration = outcomeDeclarationOf({
      unblindingOutcomeOverride: { groups: { placebo: { susar: 'keep', set: { drugName: 'Placebo' } } } },
    });
    const { document, outcome } = unblindDocument(blindedSusar(), assignment('placebo', null), declaration);
    expect(document.drugs[0]!.drugName).toBe('Placebo');
    expect(outcome.isSusarAfter).toBe(true);
  });
});
