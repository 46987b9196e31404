/**
 * What the unblinding does to a case (issue 18 item 3), as schemas/rules/unblinding-outcome.json
 * declares it per kind of treatment group: the blinded drug takes the identity the blinding list
 * gives (active product, comparator or placebo; isBlind false) and the case is re-assessed - the
 * SUSAR flag, and each authority's expedited clock recomputed from it, with the declared reason.
 *
 * The unblinded case is not written into the case data every project member reads (the treatment
 * assignment must not reach them through the case, its versions, its audit trail or a search by
 * the product's name): it is the case with these values applied, computed from the application's
 * assignment for those who may see it. The application keeps what changed (before and after).
 */
import { caseFacts, mergePatch, proposePlan, reportingRules } from '@pv/engine';
import type { Authority, Bilingual } from '@pv/engine';
import declared from '../../../schemas/rules/unblinding-outcome.json';
import type { Assignment } from './blinding-list';
import type { GroupKind } from './workbook';

type Doc = Record<string, unknown>;
type AssignmentValue = 'productName' | 'treatmentGroup' | 'productNumber' | 'kitBatch' | 'route';

export interface GroupOutcome {
  /** Drug field -> a literal, or the first non-empty of the named assignment values. */
  set: Record<string, AssignmentValue[] | string | boolean | number>;
  susar: 'assess' | 'no' | 'keep';
  reason: Bilingual;
}

export interface OutcomeDeclaration {
  blindedDrug: string[];
  relatedCausality: string[];
  groups: Record<GroupKind, GroupOutcome>;
}

export const OUTCOME_DECLARATION = declared as unknown as OutcomeDeclaration;

/** The project's declaration: the platform's with the project's merge patch, if it has one. */
export function outcomeDeclarationOf(project: unknown): OutcomeDeclaration {
  const patch = (project as { unblindingOutcomeOverride?: unknown } | null)?.unblindingOutcomeOverride;
  return patch ? (mergePatch(OUTCOME_DECLARATION, patch) as OutcomeDeclaration) : OUTCOME_DECLARATION;
}

export interface DrugChange {
  /** Index of the drug in the case (G.k). */
  drug: number;
  field: string;
  before: unknown;
  after: unknown;
}

export interface ExpeditedClock {
  authority: Authority;
  isSubmit: boolean;
  days: number | null;
  dueDate: string | null;
  /** The rule that decided, or why nothing is submitted. */
  label: Bilingual | null;
}

/** The re-assessment kept with the application and shown to those who may see the assignment. */
export interface UnblindingOutcome {
  groupKind: GroupKind | null;
  reason: Bilingual | null;
  changes: DrugChange[];
  isSusarBefore: boolean;
  isSusarAfter: boolean;
  clocks: ExpeditedClock[];
}

const obj = (v: unknown): Doc => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});
const list = (v: unknown): Doc[] => (Array.isArray(v) ? (v as Doc[]) : []);

function valueOf(spec: GroupOutcome['set'][string], assignment: Assignment): unknown {
  if (!Array.isArray(spec)) return spec;
  for (const name of spec) {
    const value = assignment[name];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

/** Indexes of the case's blinded drugs: those of the first declared field that marks any. */
export function blindedDrugs(doc: Doc, declaration: OutcomeDeclaration): number[] {
  const drugs = list(doc.drugs);
  for (const field of declaration.blindedDrug) {
    const marked = drugs.flatMap((drug, i) => (drug[field] === true ? [i] : []));
    if (marked.length) return marked;
  }
  return [];
}

/**
 * SUSAR on re-assessment: serious, and an unexpected reaction to the drug that is related or not
 * assessed; the flag as it was when the case states no expectedness for the drug.
 */
function assessSusar(doc: Doc, drugs: number[], declaration: OutcomeDeclaration, before: boolean): boolean {
  const all = list(doc.drugs);
  const assessments = drugs.flatMap((i) => list(all[i]?.reactionAssessments));
  if (!assessments.some((a) => a.isUnintended === '1' || a.isUnintended === '0')) return before;
  const serious =
    caseFacts({ ...doc, state: { ...obj(doc.state), isSusar: false } }).isSerious.value === true;
  if (!serious) return false;
  return drugs.some((i) =>
    list(all[i]?.reactionAssessments).some((assessment) => {
      if (assessment.isUnintended !== '1') return false;
      const results = list(assessment.assessments)
        .map((a) => a.cnAssessmentResult)
        .filter((r): r is string => typeof r === 'string' && r !== '');
      return results.length === 0 || results.some((r) => declaration.relatedCausality.includes(r));
    }),
  );
}

/** Each authority's expedited clock for the case as it stands. */
export function expeditedClocks(doc: Doc): ExpeditedClock[] {
  return (Object.keys(reportingRules) as Authority[]).map((authority) => {
    const plan = proposePlan(reportingRules[authority], doc, { authority });
    return {
      authority,
      isSubmit: plan.isSubmit,
      days: plan.days,
      dueDate: plan.dueDate,
      label: plan.isSubmit ? plan.explanation.label : (plan.noneSubmitWhy ?? plan.explanation.label),
    };
  });
}

/** The case unblinded: the declared values applied to its blinded drugs, and the re-assessment. */
export function unblindDocument<T extends Doc>(
  doc: T,
  assignment: Assignment,
  declaration: OutcomeDeclaration,
): { document: T; outcome: UnblindingOutcome } {
  const document = structuredClone(doc);
  const group = assignment.groupKind ? declaration.groups[assignment.groupKind] : undefined;
  const isSusarBefore = obj(doc.state).isSusar === true;
  const changes: DrugChange[] = [];
  const drugs = blindedDrugs(document, declaration);
  if (group) {
    const all = list(document.drugs);
    for (const i of drugs)
      for (const [field, spec] of Object.entries(group.set)) {
        const after = valueOf(spec, assignment);
        if (after === undefined) continue;
        const drug = all[i]!;
        if (drug[field] !== after) changes.push({ drug: i, field, before: drug[field] ?? null, after });
        drug[field] = after;
      }
  }
  let isSusarAfter = isSusarBefore;
  if (group?.susar === 'no') isSusarAfter = false;
  else if (group?.susar === 'assess') isSusarAfter = assessSusar(document, drugs, declaration, isSusarBefore);
  (document as Doc).state = { ...obj(document.state), isSusar: isSusarAfter };
  return {
    document,
    outcome: {
      groupKind: assignment.groupKind,
      reason: group?.reason ?? null,
      changes,
      isSusarBefore,
      isSusarAfter,
      clocks: expeditedClocks(document),
    },
  };
}
