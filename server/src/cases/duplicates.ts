/**
 * Duplicate check when a case is created or imported: other cases of the tenant that share the
 * patient (initials, sex, age), reaction terms, suspect drugs or onset dates, scored so the most
 * likely duplicates come first. Reads summaries only.
 */
import type { Filter, Handle } from '../store';
import { C } from './collections';
import type { CaseSummary, DuplicateKeys } from './summary';
import { duplicateKeys } from './summary';

export interface DuplicateCandidate {
  caseId: string;
  reportCode: string | null;
  patientsName: string | null;
  workflowNode: string;
  validity: string;
  score: number;
  /** Which criteria matched: initials, sex, age, reactions, suspectDrugs, onsets. */
  matched: string[];
}

/** Weights: a shared reaction, suspect drug or onset date counts most; sex alone never makes a candidate. */
const WEIGHTS = { initials: 3, sex: 1, age: 1, reactions: 3, suspectDrugs: 3, onsets: 2 } as const;
/** Smallest score shown: e.g. same initials and a shared reaction, or a shared drug and onset date. */
export const DUPLICATE_THRESHOLD = 5;
const LIMIT = 20;

function score(keys: DuplicateKeys, other: DuplicateKeys): { score: number; matched: string[] } {
  const matched: string[] = [];
  const overlap = (a: string[], b: string[]) => a.some((x) => b.includes(x));
  if (keys.initials && keys.initials === other.initials) matched.push('initials');
  if (keys.sex && keys.sex === other.sex) matched.push('sex');
  if (keys.ageYears !== null && other.ageYears !== null && Math.abs(keys.ageYears - other.ageYears) <= 1)
    matched.push('age');
  if (overlap(keys.reactions, other.reactions)) matched.push('reactions');
  if (overlap(keys.suspectDrugs, other.suspectDrugs)) matched.push('suspectDrugs');
  if (overlap(keys.onsets, other.onsets)) matched.push('onsets');
  return { score: matched.reduce((sum, key) => sum + WEIGHTS[key as keyof typeof WEIGHTS], 0), matched };
}

/** Candidates for a case document (draft or stored), excluding the case itself. */
export async function findDuplicates(
  handle: Handle,
  doc: Record<string, unknown>,
  excludeCaseId?: string,
): Promise<DuplicateCandidate[]> {
  const keys = duplicateKeys(doc);
  const any: Filter[] = [];
  if (keys.initials) any.push({ 'dup.initials': keys.initials });
  if (keys.reactions.length) any.push({ 'dup.reactions': { $in: keys.reactions } });
  if (keys.suspectDrugs.length) any.push({ 'dup.suspectDrugs': { $in: keys.suspectDrugs } });
  if (keys.onsets.length) any.push({ 'dup.onsets': { $in: keys.onsets } });
  if (any.length === 0) return [];
  const filter: Filter = { 'state.validity': { $ne: 'deleted' }, $or: any };
  if (excludeCaseId) filter._id = { $ne: excludeCaseId };
  const summaries = await handle
    .collection<Omit<CaseSummary, '_id'>>(C.summaries)
    .find(filter, { projection: { dup: 1, state: 1, v: 1 }, limit: 2000 });
  return summaries
    .map((summary) => {
      const result = score(keys, summary.dup);
      return {
        caseId: summary._id,
        reportCode: (summary.v?.report_reportCode as string | null) ?? null,
        patientsName: (summary.v?.patient_patientsName as string | null) ?? null,
        workflowNode: summary.state.workflowNode,
        validity: summary.state.validity,
        ...result,
      };
    })
    .filter((candidate) => candidate.score >= DUPLICATE_THRESHOLD)
    .sort((a, b) => b.score - a.score || a.caseId.localeCompare(b.caseId))
    .slice(0, LIMIT);
}
