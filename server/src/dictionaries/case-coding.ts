/**
 * What coding across cases (the bulk recode, the medical review tasks, the MedDRA coding findings
 * of every case check) needs of case management, handed over by the cases module when it loads
 * (registerCaseCoding). Dictionaries sit below cases and import none of it, so cases can seed
 * its demo with the demo releases without a module cycle. The recode saves each case through
 * this save, which is the case service's own (revision, rules, audit, summary hold).
 */
import type { Finding } from '@pv/engine';
import type { Caller } from '../http';
import type { TenantHandle } from '../store';

/** A case save as the recode asks it: the revision read, the whole document, the reason. */
export interface CodingSave {
  rev: number;
  document: Record<string, unknown>;
  confirmMissing: boolean;
  reason: string;
}

/** Findings a module adds to every case check (save, check, submit). */
export type CaseFindingsSource = (
  handle: TenantHandle,
  doc: unknown,
  projectId: string | null,
) => Promise<Finding[]>;

export interface CaseCoding {
  /** The collections of the cases and of their list summaries. */
  collections: { cases: string; summaries: string };
  /** Saves a case as the caller (the case service's save: access, revision, rules, audit). */
  save(caller: Caller, caseId: string, input: CodingSave): Promise<unknown>;
  /** Adds (or replaces, by module name) a source of findings to every case check. */
  provideCheckFindings(module: string, source: CaseFindingsSource): void;
}

let registered: CaseCoding | null = null;

/** The cases module hands its save and collections over (again: replaces, a module loaded twice in tests). */
export function registerCaseCoding(given: CaseCoding): void {
  registered = given;
}

/** Case management's side; null on a platform without it (there are no cases to code then). */
export function caseCoding(): CaseCoding | null {
  return registered;
}

/** As caseCoding, for work that cannot be done without cases (a recode, the review tasks). */
export function requireCaseCoding(): CaseCoding {
  if (!registered)
    throw new Error('case management is not loaded: it registers its cases with the dictionaries');
  return registered;
}
