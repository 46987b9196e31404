/**
 * The benchmark's large case: 50 drugs with 3 dosages each, 50 reactions assessed against every
 * drug (a 50 × 50 G.k.9.i matrix), 30 tests and 20 medical-history rows. Deterministic.
 */
export interface BigCaseSize {
  drugs: number;
  dosagesPerDrug: number;
  reactions: number;
  tests: number;
  history: number;
}

export const BENCH_SIZE: BigCaseSize = {
  drugs: 50,
  dosagesPerDrug: 3,
  reactions: 50,
  tests: 30,
  history: 20,
};

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function bigCase(size: BigCaseSize = BENCH_SIZE): Record<string, unknown> {
  const reactions = Array.from({ length: size.reactions }, (_, i) => ({
    id: uuid(i + 1),
    reactionNative: `反应 ${i + 1}`,
    reactionNativeLanguage: 'chi',
    reactionTranslation: `Reaction ${i + 1}`,
    meddraCode: String(10000000 + i),
    startDate: `202601${String((i % 28) + 1).padStart(2, '0')}`,
    isResultInDeath: i % 17 === 0,
    reactionResult: '1',
  }));
  const drugs = Array.from({ length: size.drugs }, (_, d) => ({
    drugCharacterisation: d === 0 ? '1' : '2',
    drugName: `Drug ${d + 1}`,
    genericName: `generic ${d + 1}`,
    dosages: Array.from({ length: size.dosagesPerDrug }, (_, k) => ({
      dose: 10 * (k + 1),
      doseUnit: 'mg',
      intervalCount: 1,
      intervalUnit: 'd',
      startDate: `2025120${k + 1}`,
      route: '048',
    })),
    indications: [{ indicationText: `indication ${d + 1}` }],
    reactionAssessments: reactions.map((reaction, r) => ({
      reactionId: reaction.id,
      intervalFromStart: r + 1,
      intervalFromStartUnit: 'd',
      assessments: [
        {
          assessmentSource: 'Investigator',
          assessmentMethod: 'Global introspection',
          assessmentResult: 'Possible',
        },
      ],
    })),
  }));
  return {
    report: {
      reportCode: 'CN-BENCH-0001',
      reportType: '2',
      reportDateFirst: '20260101',
      reportDateLast: '20260102',
    },
    reporters: [
      { reporterGivenName: 'Bench', reporterCountry: 'CN', qualification: '1', isPrimarySource: '1' },
    ],
    sender: { senderType: '1', senderOrganisation: 'Bench' },
    patient: {
      patientsName: 'BN',
      gender: '1',
      medicalHistory: Array.from({ length: size.history }, (_, i) => ({
        historyName: `history ${i + 1}`,
        continuing: i % 2 === 0,
      })),
    },
    reactions,
    drugs,
    tests: Array.from({ length: size.tests }, (_, i) => ({
      testName: `test ${i + 1}`,
      testDate: '20260105',
      testResultValue: i,
    })),
    narrative: { caseNarrative: 'Bench case.' },
  };
}
