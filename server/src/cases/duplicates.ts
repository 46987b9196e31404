/**
 * Duplicate check when a case is created or imported: the tenant's cases that may report the same
 * case, scored by the engine's probabilistic matcher (engine/src/duplicates/match.ts, vigiMatch's
 * hit-miss model) with the fields that agree or differ. Candidates are found by blocking on indexed
 * summary keys (sender identifiers, name key, initials, reactions, suspect drugs, onset dates), so the
 * tenant is never scanned; a shared sender identifier always ranks first. Reads summaries only.
 */
import { DUPLICATE_SCORE_THRESHOLD, matchCases } from '@pv/engine';
import type { FieldComparison, MatchField, MatchRecord } from '@pv/engine';
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
  /** Sum of the fields' log-likelihood-ratio weights (higher: more likely the same case). */
  score: number;
  /** A sender identifier (C.1.1, C.1.8.1, C.1.9.1.r) is shared: ranked first whatever the score. */
  identifierMatch: boolean;
  /** Fields that agree or partly agree: senderIds, initials, sex, age, reactions, suspectDrugs, onsets, country, reporter. */
  matched: MatchField[];
  /** Fields present on both sides that disagree. */
  differ: MatchField[];
  /** Every compared field with its outcome (agree, partial, differ, missing) and weight. */
  fields: FieldComparison[];
}

export const DUPLICATE_THRESHOLD = DUPLICATE_SCORE_THRESHOLD;
const LIMIT = 20;
/** Summaries read per blocking query at most. */
const BLOCK_LIMIT = 2000;
/** Candidates whose keys are read per query. */
const READ_CHUNK = 1000;

/** The matcher's view of a summary's keys; summaries written before the new keys fall back to the old ones. */
export function matchRecordOf(keys: DuplicateKeys): MatchRecord {
  return {
    senderIds: keys.senderIds ?? [],
    name: keys.initials,
    sex: keys.sex,
    ageYears: keys.ageYears,
    birthDate: keys.birthDate ?? null,
    reactions: (keys.reactionTerms ?? keys.reactions).map((term) => ({ term })),
    suspectDrugs: keys.suspectDrugs,
    onsets: keys.onsets,
    country: keys.country ?? null,
    reporter: keys.reporter ?? null,
  };
}

/** Candidates for a case document (draft or stored), excluding the case itself. */
export async function findDuplicates(
  handle: Handle,
  doc: Record<string, unknown>,
  excludeCaseId?: string,
): Promise<DuplicateCandidate[]> {
  const keys = duplicateKeys(doc);
  const blocks: Filter[] = [];
  if (keys.senderIds?.length) blocks.push({ 'dup.senderIds': { $in: keys.senderIds } });
  if (keys.nameKey) blocks.push({ 'dup.nameKey': keys.nameKey });
  if (keys.initials) blocks.push({ 'dup.initials': keys.initials });
  if (keys.reactions.length) blocks.push({ 'dup.reactions': { $in: keys.reactions } });
  if (keys.suspectDrugs.length) blocks.push({ 'dup.suspectDrugs': { $in: keys.suspectDrugs } });
  if (keys.onsets.length) blocks.push({ 'dup.onsets': { $in: keys.onsets } });
  const summaries = handle.collection<Omit<CaseSummary, '_id'>>(C.summaries);
  // Three passes, each reading no more than it needs: the ids of each block (index entries only),
  // the duplicate keys of each distinct candidate once, then the list fields of the few reported.
  const ids = new Set<string>();
  // One query per block, so a crowded block (every case of a product shares its drug) cannot crowd out an identifier match.
  for (const block of blocks) {
    const filter: Filter = { 'state.validity': { $ne: 'deleted' }, ...block };
    if (excludeCaseId) filter._id = { $ne: excludeCaseId };
    for (const { _id } of await summaries.find(filter, { projection: { _id: 1 }, limit: BLOCK_LIMIT }))
      ids.add(_id);
  }
  const incoming = matchRecordOf(keys);
  const scored: { caseId: string; result: ReturnType<typeof matchCases> }[] = [];
  const all = [...ids];
  for (let first = 0; first < all.length; first += READ_CHUNK)
    for (const summary of await summaries.find(
      { _id: { $in: all.slice(first, first + READ_CHUNK) } },
      { projection: { dup: 1 } },
    )) {
      const result = matchCases(incoming, matchRecordOf(summary.dup));
      if (result.identifierMatch || result.score >= DUPLICATE_THRESHOLD)
        scored.push({ caseId: summary._id, result });
    }
  const best = scored
    .sort(
      (a, b) =>
        Number(b.result.identifierMatch) - Number(a.result.identifierMatch) ||
        b.result.score - a.result.score ||
        a.caseId.localeCompare(b.caseId),
    )
    .slice(0, LIMIT);
  if (best.length === 0) return [];
  const listed = new Map(
    (
      await summaries.find(
        { _id: { $in: best.map((b) => b.caseId) }, 'state.validity': { $ne: 'deleted' } },
        { projection: { state: 1, v: 1 } },
      )
    ).map((summary) => [summary._id, summary]),
  );
  return best.flatMap(({ caseId, result }) => {
    const summary = listed.get(caseId);
    if (!summary) return [];
    return [
      {
        caseId,
        reportCode: (summary.v?.report_reportCode as string | null) ?? null,
        patientsName: (summary.v?.patient_patientsName as string | null) ?? null,
        workflowNode: summary.state.workflowNode,
        validity: summary.state.validity,
        score: result.score,
        identifierMatch: result.identifierMatch,
        matched: result.fields
          .filter((f) => f.outcome === 'agree' || f.outcome === 'partial')
          .map((f) => f.field),
        differ: result.fields.filter((f) => f.outcome === 'differ').map((f) => f.field),
        fields: result.fields,
      },
    ];
  });
}
