/**
 * The coding review's logic, apart from React: the rows of a case's MedDRA terms with their
 * status and suggestions, and the case-store writes that accept a suggestion or a recoded value.
 */
import { codedTermFromCoding, containsHan, meddraLocationOfRef, meddraWrites, queryScript } from '@pv/engine';
import type { CaseMeddraTerm, CodedMeddraTerm, MeddraCoding, TermLanguage } from '@pv/engine';

export interface Suggestion {
  match: 'exact' | 'normalised';
  coding: MeddraCoding;
}

export interface CodingIssue {
  ref: string;
  messageKey: string;
  message: string;
}

export type RowStatus = 'coded' | 'uncoded' | 'issue';

export interface ReviewRow {
  term: CaseMeddraTerm;
  status: RowStatus;
  issue: CodingIssue | null;
  suggestions: Suggestion[];
}

/** Rows in the case's order; suggestions for the uncoded and the flagged, none for the sound. */
export function reviewRows(
  terms: readonly CaseMeddraTerm[],
  issues: readonly CodingIssue[],
  suggestions: ReadonlyMap<string, Suggestion[]>,
): ReviewRow[] {
  const issueOf = new Map(issues.map((issue) => [issue.ref, issue]));
  return terms.map((term) => {
    const issue = issueOf.get(term.ref) ?? null;
    const status: RowStatus = !term.meddraCode ? 'uncoded' : issue ? 'issue' : 'coded';
    const offered =
      status === 'coded'
        ? []
        : term.verbatims
            .flatMap((v) => suggestions.get(v) ?? [])
            .filter((s, i, all) => all.findIndex((o) => o.coding.llt.code === s.coding.llt.code) === i);
    return { term, status, issue, suggestions: offered };
  });
}

/** Verbatim texts to look up, by the language they are written in (a release per language). */
export function verbatimsByLanguage(terms: readonly CaseMeddraTerm[]): Map<TermLanguage, string[]> {
  const out = new Map<TermLanguage, string[]>();
  for (const term of terms) {
    for (const verbatim of term.verbatims) {
      const script = queryScript(verbatim);
      const language: TermLanguage = script === 'zh' || containsHan(verbatim) ? 'zh' : 'en';
      const list = out.get(language) ?? [];
      if (!list.includes(verbatim)) list.push(verbatim);
      out.set(language, list);
    }
  }
  return out;
}

/** The language a coded term's names are in (its LLT name's script; the display language otherwise). */
export function termLanguage(term: CodedMeddraTerm, fallback: TermLanguage): TermLanguage {
  const name = term.meddraLltName ?? '';
  return containsHan(name) ? 'zh' : name ? 'en' : fallback;
}

/** Case-store writes `[pointer, value]` that store a coded value at a term's item. */
export function writesFor(
  ref: string,
  value: Omit<CodedMeddraTerm, 'ref'>,
  read: (pointer: string) => unknown,
): [pointer: string, value: string | undefined][] {
  const found = meddraLocationOfRef(ref);
  if (!found) return [];
  const { itemPointer, location } = found;
  const current = location.name ? { [location.name]: read(`${itemPointer}/${location.name}`) } : {};
  return meddraWrites(location, value, current).map(([property, next]) => [
    `${itemPointer}/${property}`,
    next,
  ]);
}

/** Writes that accept a suggestion (LLT with its primary path up to SOC). */
export function acceptWrites(ref: string, coding: MeddraCoding, read: (pointer: string) => unknown) {
  return writesFor(ref, codedTermFromCoding(coding), read);
}

/**
 * The case property a coded field is stored in at a term's item (`meddraPtCode` -> the item's PT
 * code property), or null where the item does not keep it (an indication keeps no PT or SOC).
 */
export function storedProperty(ref: string, field: keyof CodedMeddraTerm): string | null {
  const found = meddraLocationOfRef(ref);
  if (!found) return null;
  const { location } = found;
  const byField: Partial<Record<keyof CodedMeddraTerm, string | undefined>> = {
    meddraVersion: location.version,
    meddraCode: location.code,
    meddraLltName: location.name && !location.verbatim.includes(location.name) ? location.name : undefined,
    meddraPtCode: location.pt?.code,
    meddraPtName: location.pt?.name,
    meddraSocCode: location.soc?.code,
    meddraSocName: location.soc?.name,
  };
  const property = byField[field];
  return property ? `${location.item}/${property}` : null;
}

/** A drug of the case as the coding review lists it (G.k.2.2 with its WHODrug coding). */
export interface DrugRow {
  pointer: string;
  drugName: string;
  genericName: string;
  whodrugCode: string;
  whodrugName: string;
  atcCode: string;
}

/** Every drug with a name or a WHODrug code (a blank drug row is not a term). */
export function drugRows(doc: unknown): DrugRow[] {
  const drugs = (doc as { drugs?: unknown }).drugs;
  if (!Array.isArray(drugs)) return [];
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return drugs.flatMap((drug: unknown, i) => {
    const d = (drug ?? {}) as Record<string, unknown>;
    const row = {
      pointer: `/drugs/${i}`,
      drugName: text(d.drugName),
      genericName: text(d.genericName),
      whodrugCode: text(d.whodrugCode),
      whodrugName: text(d.whodrugName),
      atcCode: text(d.atcCode),
    };
    return row.drugName || row.whodrugCode ? [row] : [];
  });
}
