/**
 * Realistic case content for the demo seed and the tests: a clinical-trial case of one project,
 * complete enough to pass every rule profile, varied by a case number.
 */
import { SERIOUSNESS_CRITERIA } from '@pv/engine';
import type { Project } from '../projects';
import type { DemoMeddraTerm } from '../../dictionaries';
import { DEMO_MEDDRA_VERSION, demoMeddraTerms, demoWhodrugGeneric } from '../../dictionaries';

type Doc = Record<string, unknown>;

/** Seriousness of the reaction terms by place (the tests and benchmarks pick terms by index). */
const SERIOUS_AT: (string | undefined)[] = [
  undefined,
  undefined,
  undefined,
  undefined,
  undefined,
  'isCauseInHospital',
  'isCauseInHospital',
  'isThreadToLife',
  'isOtherMedicalEvents',
  'isThreadToLife',
  'isCauseInHospital',
  undefined,
  'isCauseInHospital',
  'isResultInDeath',
];

/**
 * Reaction terms: PT-level LLTs of the demo's synthetic MedDRA release (./dictionaries), index 0
 * non-serious ... 13 fatal. No licensed MedDRA content: codes and names are made up.
 */
export const REACTION_TERMS: (DemoMeddraTerm & { serious?: string })[] = demoMeddraTerms(SERIOUS_AT.length, {
  ptLevel: true,
}).map((term, i) => (SERIOUS_AT[i] ? { ...term, serious: SERIOUS_AT[i] } : term));

/** The study indication, the lab test, and the medical histories (each also its medicine's indication). */
const [STUDY_INDICATION, TEST, ...HISTORIES] = demoMeddraTerms(6, { ptLevel: false }) as [
  DemoMeddraTerm,
  DemoMeddraTerm,
  ...DemoMeddraTerm[],
];

/** The stored coding of an item that keeps LLT, PT and SOC (names in the case's language, zh). */
const fullCoding = (term: DemoMeddraTerm) => ({
  meddraVersion: DEMO_MEDDRA_VERSION,
  meddraCode: term.code,
  meddraLltName: term.zh,
  meddraPtCode: term.pt.code,
  meddraPtName: term.pt.zh,
  meddraSocCode: term.soc.code,
  meddraSocName: term.soc.zh,
});
/** The stored coding of an item that keeps the LLT only (indications, tests). */
const lltCoding = (term: DemoMeddraTerm) => ({
  meddraVersion: DEMO_MEDDRA_VERSION,
  meddraCode: term.code,
  meddraLltName: term.zh,
});

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴', '徐', '孙', '马', '朱', '胡'];
const GIVEN = ['伟', '芳', '娜', '敏', '静', '丽', '强', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛'];
const INITIALS = ['WW', 'LF', 'ZN', 'LM', 'CJ', 'YL', 'ZQ', 'HL', 'ZJ', 'WY', 'XY', 'SY', 'MJ', 'ZJ', 'HT'];

/** A day `offset` days before `base` as E2B `CCYYMMDD`. */
export function e2bDaysBefore(base: Date, offset: number): string {
  const day = new Date(base.getTime() - offset * 86_400_000);
  return day.toISOString().slice(0, 10).replace(/-/g, '');
}

export interface FactoryOptions {
  /** Case number: varies patient, reaction and dates deterministically. */
  n: number;
  project: Project & { _id: string };
  /** Reference day for the dates (the seed's "today"). */
  today: Date;
  /** Days between first receipt (C.1.4) and today. */
  receivedDaysAgo?: number;
  reactionIndex?: number;
  susar?: boolean;
}

/** The sections of a complete clinical-trial case (state and report code are the server's). */
export function demoCaseContent(options: FactoryOptions): Doc {
  const { n, project, today } = options;
  const term = REACTION_TERMS[options.reactionIndex ?? n % REACTION_TERMS.length]!;
  const site = project.sites[n % project.sites.length]!;
  const suspect = project.drugs.find((drug) => drug.isClinicalDrug) ?? project.drugs[0]!;
  const concomitant = project.drugs.find((drug) => !drug.isClinicalDrug);
  const received = options.receivedDaysAgo ?? 3 + (n % 20);
  const onset = e2bDaysBefore(today, received + 4);
  const seriousness = Object.fromEntries(SERIOUSNESS_CRITERIA.map((key) => [key, key === term.serious]));
  const serious = term.serious !== undefined;
  const reactionId = `00000000-0000-4000-8000-${String(n + 1).padStart(12, '0')}`;
  const female = n % 2 === 1;
  const history = HISTORIES[n % HISTORIES.length]!;
  const drugs: Doc[] = [
    {
      isClinicalDrug: true,
      drugCharacterisation: '1',
      drugName: suspect.drugName,
      genericName: suspect.genericName ?? suspect.drugName,
      isBlind: false,
      approvalNumber: suspect.approvalNumber ?? '',
      cnIsSelf: true,
      substances: suspect.substanceName
        ? [{ substanceName: suspect.substanceName, strength: 100, strengthUnit: 'mg' }]
        : [],
      dosages: [
        {
          dose: 100,
          doseUnit: 'mg',
          intervalCount: 1,
          intervalUnit: 'd',
          startDate: e2bDaysBefore(today, received + 30),
          endDate: e2bDaysBefore(today, received + 3),
          batchNumber: `B${2400 + (n % 7)}`,
          routeTermIdVersion: '2.2',
          routeTermId: '048',
        },
      ],
      indications: [{ indicationText: STUDY_INDICATION.zh, ...lltCoding(STUDY_INDICATION) }],
      measure: '1',
      reactionAssessments: [
        {
          reactionId,
          assessments: [
            {
              assessmentSource: 'Sponsor',
              assessmentMethod: 'Global introspection',
              assessmentResult: 'Related',
              cnAssessmentSource: '2',
              cnAssessmentResult: '1',
            },
          ],
          intervalFromStart: 26,
          intervalFromStartUnit: 'd',
          rechallenge: '4',
          isAmeliorate: '1',
        },
      ],
    },
  ];
  if (concomitant) {
    // The concomitant medicine as reported, coded with the demo's (synthetic) WHODrug release.
    const coded = demoWhodrugGeneric(n);
    drugs.push({
      isClinicalDrug: false,
      drugCharacterisation: '2',
      drugName: concomitant.drugName,
      genericName: concomitant.genericName ?? concomitant.drugName,
      isBlind: false,
      approvalNumber: concomitant.approvalNumber ?? '',
      cnIsSelf: false,
      whodrugCode: coded.drugCode,
      whodrugName: coded.name,
      atcCode: coded.atcCodes[0],
      indications: [{ indicationText: history.zh, ...lltCoding(history) }],
    });
  }
  return {
    state: { isSae: serious, isSar: serious, isSusar: options.susar ?? (serious && n % 3 === 0) },
    report: {
      reportType: '2',
      reportDateFirst: e2bDaysBefore(today, received),
      reportDateLast: e2bDaysBefore(today, received),
      additionalDocumentsAvailable: false,
      isLocalSubmit: serious,
      firstSenderType: '2',
      hasOtherCaseIdentifiers: { nullFlavor: 'NI' },
      cnReportSource: '6',
      cnReportClassify: '11',
      happenCountry: site.country,
      hospitalId: site.id,
    },
    reporters: [
      {
        reporterGivenName: GIVEN[(n + 3) % GIVEN.length],
        reporterFamilyName: SURNAMES[(n + 5) % SURNAMES.length],
        reporterOrganisation: site.name,
        reporterPostcode: '100730',
        reporterTelephone: '010-69156114',
        cnReporterMail: `investigator${(n % 9) + 1}@example.cn`,
        reporterCountry: site.country,
        qualification: '1',
        isPrimarySource: '1',
      },
    ],
    sender: { senderType: '1', senderOrganisation: project.sponsor ?? project.name },
    study: {
      studyNameO: project.name,
      sponsorStudyNumber: project.sponsorStudyNumber ?? project.code,
      discoveredEventType: project.studyType ?? '1',
    },
    patient: {
      patientsName: INITIALS[n % INITIALS.length],
      subjectNumber: `${site.code}-${String(100 + n).padStart(4, '0')}`,
      birthday: `19${50 + (n % 40)}0${(n % 9) + 1}15`,
      age: 2026 - (1950 + (n % 40)) - 1,
      ageUnit: 'a',
      weight: 50 + (n % 35),
      height: female ? 158 + (n % 10) : 168 + (n % 12),
      gender: female ? '2' : '1',
      institution: site.name,
      medicalHistory: [
        {
          historyName: history.zh,
          ...fullCoding(history),
          startDate: '2015',
          continuing: true,
        },
      ],
    },
    reactions: [
      {
        id: reactionId,
        reactionNative: term.zh,
        reactionNativeLanguage: 'chi',
        reactionTranslation: term.en,
        ...fullCoding(term),
        isSeverity: serious ? '3' : '2',
        ...seriousness,
        startDate: onset,
        ...(term.serious === 'isResultInDeath'
          ? {}
          : { endDate: e2bDaysBefore(today, received - 1 > 0 ? received - 1 : 0) }),
        reactionResult: term.serious === 'isResultInDeath' ? '5' : '1',
        reactionCountry: site.country,
      },
    ],
    tests: [
      {
        testDate: onset,
        testName: TEST.zh,
        ...lltCoding(TEST),
        testResultValue: 5.5,
        testResultUnit: 'g',
      },
    ],
    drugs,
    narrative: {
      caseNarrative: `受试者（${INITIALS[n % INITIALS.length]}）于使用${suspect.drugName}后出现${term.zh}，研究者判断与研究药物相关。`,
    },
    submissionPlans: [
      serious
        ? {
            id: `plan-${n}`,
            receiverId: 'NMPA',
            isSubmit: true,
            submitTimeLimitType:
              term.serious === 'isResultInDeath' || term.serious === 'isThreadToLife' ? '7' : '15',
            transmissionMode: '1',
          }
        : {
            id: `plan-${n}`,
            receiverId: 'NMPA',
            isSubmit: false,
            noneSubmitWhy: '非严重不良事件，纳入定期报告',
            submitTimeLimitType: 'none',
            transmissionMode: '1',
          },
    ],
  };
}
