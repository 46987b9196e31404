/**
 * The facts reporting rules read, computed from a case document, each with the E2B elements it
 * came from so a plan can say why it was proposed.
 */
import type { FactValue } from '../workflow/conditions';

type Doc = Record<string, unknown>;

const obj = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});
const list = (v: unknown): Doc[] => (Array.isArray(v) ? (v as unknown[]).map(obj) : []);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** What a receiver's authority contributes to the facts: its countries. */
export interface FactContext {
  countries: readonly string[];
  /** The case was already submitted to this receiver (from the receiver's plan history). */
  reportedBefore?: boolean;
}

export interface ComputedFact {
  value: FactValue;
  from: string[];
}

/** Fact names the rule files may read; a rule file naming another fails its test. */
export const REPORTING_FACTS = [
  'isStudy',
  'isSerious',
  'isFatal',
  'isLifeThreatening',
  'fatalOrLifeThreatening',
  'isUnexpected',
  'isSusar',
  'occurrenceCountry',
  'isLocal',
  'isApprovedHere',
  'isFollowUp',
  'reportedBefore',
] as const;
export type ReportingFact = (typeof REPORTING_FACTS)[number];

const SERIOUSNESS: [string, string][] = [
  ['isResultInDeath', 'E.i.3.2a'],
  ['isThreadToLife', 'E.i.3.2b'],
  ['isCauseInHospital', 'E.i.3.2c'],
  ['isDisability', 'E.i.3.2d'],
  ['isBirthDefect', 'E.i.3.2e'],
  ['isOtherMedicalEvents', 'E.i.3.2f'],
];

/** The authority-independent part, computed once per case and shared by its receivers. */
export interface CaseFacts {
  isStudy: ComputedFact;
  isSerious: ComputedFact;
  isFatal: ComputedFact;
  isLifeThreatening: ComputedFact;
  fatalOrLifeThreatening: ComputedFact;
  isUnexpected: ComputedFact;
  isSusar: ComputedFact;
  occurrenceCountry: ComputedFact;
  isFollowUp: ComputedFact;
  /** Suspect or interacting drugs' G.k.3.2 countries of authorisation. */
  authorisationCountries: string[];
  reportDateFirst: string | null;
  reportDateLast: string | null;
}

export function caseFacts(caseDoc: unknown): CaseFacts {
  const doc = obj(caseDoc);
  const report = obj(doc.report);
  const state = obj(doc.state);
  const reactions = list(doc.reactions);
  const drugs = list(doc.drugs);

  const reportType = text(report.reportType);
  const category = text(report.cnReportClassify);
  // C.1.3 = 2 is "report from study"; the NMPA category (C.1.CN.2) 11/21 is pre-marketing.
  const isStudy = reportType === '2' || category === '11' || category === '21';

  // The seriousness criteria any reaction meets, in E.i.3.2a-f order (one pass per criterion).
  const criteria: string[] = [];
  for (const [key, e2b] of SERIOUSNESS) {
    for (const reaction of reactions)
      if (reaction[key] === true) {
        criteria.push(e2b);
        break;
      }
  }
  const isSerious = criteria.length > 0 || state.isSae === true || state.isSusar === true;
  const isFatal = criteria.includes('E.i.3.2a');
  const isLifeThreatening = criteria.includes('E.i.3.2b');

  const unexpected = drugs.some((d) => list(d.reactionAssessments).some((a) => text(a.isUnintended) === '1'));
  const isSusar = state.isSusar === true;

  // Country of occurrence: the reaction's E.i.9, else the case's event country, else the
  // primary source's country (ICH E2B(R3) C.2.r.3 is the occurrence country when E.i.9 is absent).
  let occurrence: ComputedFact = { value: null, from: ['E.i.9', 'C.2.r.3'] };
  const reactionCountry = reactions.map((r) => text(r.reactionCountry)).find((c) => c !== null);
  const primary = list(doc.reporters).find((r) => text(r.isPrimarySource) === '1') ?? list(doc.reporters)[0];
  if (reactionCountry) occurrence = { value: reactionCountry, from: ['E.i.9'] };
  else if (text(report.happenCountry))
    occurrence = { value: text(report.happenCountry), from: ['report.happenCountry'] };
  else if (primary && text(primary.reporterCountry))
    occurrence = { value: text(primary.reporterCountry), from: ['C.2.r.3'] };

  const authorisationCountries = drugs
    .filter((d) => ['1', '3'].includes(text(d.drugCharacterisation) ?? ''))
    .map((d) => text(d.authorisationCountry))
    .filter((c): c is string => c !== null);

  return {
    isStudy: { value: isStudy, from: ['C.1.3', 'C.1.CN.2'] },
    isSerious: {
      value: isSerious,
      from: criteria.length ? criteria : ['E.i.3.2a-f', 'state.isSae', 'state.isSusar'],
    },
    isFatal: { value: isFatal, from: ['E.i.3.2a'] },
    isLifeThreatening: { value: isLifeThreatening, from: ['E.i.3.2b'] },
    fatalOrLifeThreatening: { value: isFatal || isLifeThreatening, from: ['E.i.3.2a', 'E.i.3.2b'] },
    isUnexpected: { value: unexpected, from: ['G.k.9.i.CN.1'] },
    isSusar: { value: isSusar, from: ['state.isSusar'] },
    occurrenceCountry: occurrence,
    isFollowUp: { value: state.versionType === 'followUp', from: ['state.versionType'] },
    authorisationCountries,
    reportDateFirst: text(report.reportDateFirst),
    reportDateLast: text(report.reportDateLast),
  };
}

/** Every fact for one authority: the case's facts plus where it stands with that authority. */
export function factsFor(facts: CaseFacts, context: FactContext): Record<ReportingFact, ComputedFact> {
  const country = facts.occurrenceCountry.value;
  return {
    isStudy: facts.isStudy,
    isSerious: facts.isSerious,
    isFatal: facts.isFatal,
    isLifeThreatening: facts.isLifeThreatening,
    fatalOrLifeThreatening: facts.fatalOrLifeThreatening,
    isUnexpected: facts.isUnexpected,
    isSusar: facts.isSusar,
    occurrenceCountry: facts.occurrenceCountry,
    isLocal: {
      value: typeof country === 'string' && context.countries.includes(country),
      from: facts.occurrenceCountry.from,
    },
    isApprovedHere: {
      value: facts.authorisationCountries.some((c) => context.countries.includes(c)),
      from: ['G.k.1', 'G.k.3.2'],
    },
    isFollowUp: facts.isFollowUp,
    reportedBefore: { value: context.reportedBefore === true, from: ['submissionPlans'] },
  };
}
