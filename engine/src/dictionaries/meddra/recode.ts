/**
 * Bulk recoding of coded MedDRA terms to another release, as a pure function over term lists: the
 * case module hands in the coded fields of its cases (in the case schema's field names) and
 * applies the returned values. The report says, per term, what changed: only the fields the term's
 * item stores count, so an item keeping the LLT alone (indications, tests) shows no PT or SOC change
 * that would never be saved.
 */
import { meddraLocationOfRef, storedMeddraFields } from '../coding/case-terms';
import type { MeddraDictionary } from './dictionary';

/** A coded MedDRA value as the case stores it (reactions E.i.2.1, medical history D.7.1.r.1, ...). */
export interface CodedMeddraTerm {
  /**
   * The caller's locator of the value. A case term ref (`/drugs/0/indications/0#indication`, see
   * meddraTermsOf) limits the recode to the fields that item stores; any other ref (e.g.
   * `<caseId>/reactions/0`) is taken to store every field.
   */
  ref: string;
  meddraVersion?: string;
  /** LLT code (E2B's MedDRA code). */
  meddraCode?: string;
  meddraLltName?: string;
  meddraPtCode?: string;
  meddraPtName?: string;
  meddraSocCode?: string;
  meddraSocName?: string;
}

export type RecodeStatus =
  /** Same codes and names in the target release; only the version moves. */
  | 'unchanged'
  /** The LLT exists; a name, its PT or its SOC differs in the target release. */
  | 'updated'
  /** The LLT exists but is non-current in the target release: recoded, flagged for review. */
  | 'nonCurrent'
  /** The LLT code is not in the target release: left as it was, for a coder to recode by hand. */
  | 'notFound'
  /** No LLT code: nothing to recode. */
  | 'uncoded';

export interface RecodeChange {
  field: keyof CodedMeddraTerm;
  before: string | undefined;
  after: string | undefined;
}

export interface RecodedTerm {
  ref: string;
  status: RecodeStatus;
  before: CodedMeddraTerm;
  /** The value to store; equal to `before` for notFound and uncoded. */
  after: CodedMeddraTerm;
  changes: RecodeChange[];
}

export interface RecodeReport {
  targetVersion: string;
  terms: RecodedTerm[];
  summary: Record<RecodeStatus, number>;
}

/** A coded field of a term (its ref aside). */
export type CodedMeddraField = Exclude<keyof CodedMeddraTerm, 'ref'>;

const FIELDS: CodedMeddraField[] = [
  'meddraVersion',
  'meddraCode',
  'meddraLltName',
  'meddraPtCode',
  'meddraPtName',
  'meddraSocCode',
  'meddraSocName',
];

/** The fields a term's item stores: those of its case location, else all of them. */
function storedFieldsOf(term: CodedMeddraTerm): CodedMeddraField[] {
  const found = meddraLocationOfRef(term.ref);
  if (!found) return FIELDS;
  const stored = new Set(storedMeddraFields(found.location, term.meddraLltName).map(([field]) => field));
  return FIELDS.filter((field) => stored.has(field));
}

/**
 * Recodes `terms` to `target`; the SOC a coder chose is kept when it is still on one of the PT's
 * paths. `after` and `changes` hold only the fields the term's item stores (storedFieldsOf).
 */
export function recodeMeddraTerms(terms: readonly CodedMeddraTerm[], target: MeddraDictionary): RecodeReport {
  const summary: Record<RecodeStatus, number> = {
    unchanged: 0,
    updated: 0,
    nonCurrent: 0,
    notFound: 0,
    uncoded: 0,
  };
  const out = terms.map((before): RecodedTerm => {
    const code = before.meddraCode?.trim();
    let status: RecodeStatus;
    let after: CodedMeddraTerm = { ...before };
    const stored = storedFieldsOf(before);
    if (!code) status = 'uncoded';
    else {
      const coding = target.codingOf(code, before.meddraSocCode);
      if (!coding) status = 'notFound';
      else {
        const recoded: Omit<CodedMeddraTerm, 'ref'> = {
          meddraVersion: target.version,
          meddraCode: coding.llt.code,
          meddraLltName: coding.llt.name,
          meddraPtCode: coding.pt.code,
          meddraPtName: coding.pt.name,
          meddraSocCode: coding.soc.code,
          meddraSocName: coding.soc.name,
        };
        after = { ...before };
        for (const field of stored) after[field] = recoded[field];
        const moved = stored.some(
          (f) => f !== 'meddraVersion' && before[f] !== undefined && before[f] !== after[f],
        );
        status = !coding.llt.current ? 'nonCurrent' : moved ? 'updated' : 'unchanged';
      }
    }
    summary[status] += 1;
    const changes = stored
      .filter((f) => before[f] !== after[f])
      .map((field) => ({
        field,
        before: before[field],
        after: after[field],
      }));
    return { ref: before.ref, status, before, after, changes };
  });
  return { targetVersion: target.version, terms: out, summary };
}

export interface CodingVersionIssue {
  ref: string;
  messageKey: 'meddraVersionMismatch' | 'lltNotInVersion';
  params: Record<string, string>;
}

/**
 * SPEC 5: the MedDRA version of a group's coded LLTs must be the configured one, and each LLT must
 * exist in it. Returns one issue per offending term.
 */
export function checkCodingVersions(
  terms: readonly CodedMeddraTerm[],
  configured: MeddraDictionary,
): CodingVersionIssue[] {
  const issues: CodingVersionIssue[] = [];
  for (const term of terms) {
    const code = term.meddraCode?.trim();
    if (!code) continue;
    if (term.meddraVersion !== undefined && term.meddraVersion !== configured.version) {
      issues.push({
        ref: term.ref,
        messageKey: 'meddraVersionMismatch',
        params: { code, version: term.meddraVersion, configured: configured.version },
      });
    } else if (!configured.llt(code)) {
      issues.push({
        ref: term.ref,
        messageKey: 'lltNotInVersion',
        params: { code, version: configured.version },
      });
    }
  }
  return issues;
}
