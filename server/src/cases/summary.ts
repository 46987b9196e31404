/**
 * The case summary: the values the case list shows and filters on (schemas/ui/case-list.json), the
 * workflow state, the reporting deadline and the duplicate-check keys, kept in `caseSummaries` so
 * lists never read whole case documents.
 */
import { caseListDefinition, isBlindedDrug, nameBlockKey } from '@pv/engine';
import type { CaseDeadline, CaseListFilter } from '@pv/engine';
import type { CaseDocument, CaseState } from './document';
import type { SubmittedFacts } from './submitted';

type Doc = Record<string, unknown>;

/** `/drugs/*\/genericName` -> `drugs_genericName`: the summary key of a document pointer. */
export function pointerKey(pointer: string): string {
  return pointer
    .slice(1)
    .split('/')
    .filter((token) => token !== '*')
    .join('_');
}

/** Every value a pointer (with `*` for any array item) reaches in a document. */
export function valuesAt(doc: unknown, pointer: string): unknown[] {
  let current: unknown[] = [doc];
  for (const token of pointer.slice(1).split('/')) {
    const next: unknown[] = [];
    for (const value of current) {
      if (token === '*') {
        if (Array.isArray(value)) next.push(...value);
      } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const child = (value as Doc)[token];
        if (child !== undefined && child !== null) next.push(child);
      }
    }
    current = next;
  }
  return current;
}

/** Scalar form of a value for lists: null flavors as their code in brackets. */
function scalar(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'object' && 'nullFlavor' in (value as Doc))
    return `[${String((value as Doc).nullFlavor)}]`;
  return null;
}

/**
 * The summary key of a filter's field: the pointer's, or the filter's own when it keeps only some
 * items of the array (`items`: suspect drugs, drugs the blinding does not hide).
 */
export function summaryKey(filter: Pick<CaseListFilter, 'id' | 'items'>, field: string): string {
  return filter.items ? `${pointerKey(field)}__${filter.id}` : pointerKey(field);
}

/** Filters whose values come from some items of an array only (kept under their own key). */
export const ITEM_FILTERS = caseListDefinition.filters.filter((filter) => filter.items);

const isDerived = (filter: CaseListFilter): boolean => Boolean(filter.classes || filter.years);
/** Filters whose value the summary derives from the document (classes met, an age in years), kept under the filter's id. */
export const DERIVED_FILTERS = caseListDefinition.filters.filter(isDerived);

/**
 * The summary paths a list filter reads: the summary's own value (`source: summary`), a derived
 * value under the filter's id, else the kept values of each field.
 */
export function filterPaths(filter: CaseListFilter): string[] {
  if (filter.source === 'summary') return filter.fields.map((field) => field.slice(1).replace(/\//g, '.'));
  if (isDerived(filter)) return [`v.${filter.id}`];
  return filter.fields.map((field) => `v.${summaryKey(filter, field)}`);
}

/** The classes some value meets (else `otherwise`), or the number in years (DERIVED_FILTERS). */
function derivedValue(doc: CaseDocument, filter: CaseListFilter): unknown {
  if (filter.classes) {
    const met = filter.classes.of
      .filter((c) => valuesAt(doc, c.field).some((value) => c.in.includes(value as string)))
      .map((c) => c.key);
    return met.length ? met : [filter.classes.otherwise];
  }
  const value = valuesAt(doc, filter.fields[0]!)[0];
  const ratio = filter.years!.ratios[String(valuesAt(doc, filter.years!.unit)[0])];
  // The same arithmetic as the pooled analysis's age strata (x n / d), so band edges agree.
  return typeof value === 'number' && ratio ? (value * ratio[0]) / ratio[1] : null;
}

/** `/drugs/*\/drugName` -> `/drugs/*` and `drugName`: the array items and the field read in each. */
function itemsAndField(pointer: string): [string, string] {
  const star = pointer.lastIndexOf('/*/');
  return [pointer.slice(0, star + 2), pointer.slice(star + 3)];
}

/** The values of a filter's field in the items it keeps (ITEM_FILTERS). */
function itemValues(doc: CaseDocument, filter: CaseListFilter, field: string): unknown[] {
  const [array, inItem] = itemsAndField(field);
  const items = valuesAt(doc, array);
  const out: unknown[] = [];
  items.forEach((item, i) => {
    const kept = (filter.items?.where ?? []).every((w) =>
      w.in.some((v) => v === valuesAt(item, `/${w.field}`)[0]),
    );
    if (!kept) return;
    if (filter.items?.open && isBlindedDrug(doc, `${array.slice(0, -2)}/${i}`)) return;
    out.push(...valuesAt(item, `/${inItem}`));
  });
  return out;
}

/** Pointers the list reads in the document: every column field (but the summary's own) and every filter field. */
export const LIST_POINTERS = [
  ...new Set([
    ...caseListDefinition.columns
      .filter((column) => column.source !== 'summary')
      .map((column) => column.field),
    ...caseListDefinition.filters
      .filter((filter) => !filter.source && !isDerived(filter))
      .flatMap((filter) => filter.fields),
  ]),
];

export interface DuplicateKeys {
  /** Upper-case patient initials or name (D.1). */
  initials: string | null;
  sex: string | null;
  /** Age in years at onset (D.2.2a/b), rounded down; null when unknown. */
  ageYears: number | null;
  /** MedDRA codes (E.i.2.1b) and lower-case verbatim terms (E.i.1.1a / E.i.1.2). */
  reactions: string[];
  /** Lower-case names of suspect drugs (G.k.1 = 1): name as reported and generic name. */
  suspectDrugs: string[];
  /** Onset dates (E.i.4) to the day. */
  onsets: string[];
  /** The initials' letters sorted (characters through pinyin): blocks swapped initials and pinyin against characters together. */
  nameKey?: string | null;
  /** Per reaction, the MedDRA PT code (else the LLT code E.i.2.1b, else the lower-case verbatim). */
  reactionTerms?: string[];
  /** D.2.1 date of birth. */
  birthDate?: string | null;
  /** Country of occurrence (report, else E.i.9 of the first reaction). */
  country?: string | null;
  /** First reporter (C.2.r.1.2/1.4 and C.2.r.2.1), as entered. */
  reporter?: string | null;
  /** C.1.1, C.1.8.1 and C.1.9.1.r.2 identifiers. */
  senderIds?: string[];
}

export interface CaseSummary {
  _id: string;
  state: CaseState;
  /** Values per list pointer key (arrays where the pointer crosses an array). */
  v: Record<string, unknown>;
  /** The earliest open due date over the project's receivers (deadline.ts). */
  deadline: CaseDeadline | null;
  dup: DuplicateKeys;
  /** Kept beside the document's values: the case's first delivery and its timeliness (submitted.ts). */
  submitted?: SubmittedFacts | null;
}

const AGE_UNIT_YEARS: Record<string, number> = {
  '{decade}': 10,
  a: 1,
  mo: 1 / 12,
  wk: 1 / 52,
  d: 1 / 365,
  h: 1 / 8760,
  min: 1 / 525600,
};

export function duplicateKeys(doc: Doc): DuplicateKeys {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : '');
  const patient = (doc.patient ?? {}) as Doc;
  const initials =
    typeof patient.patientsName === 'string' ? patient.patientsName.trim().toUpperCase() : null;
  const age = typeof patient.age === 'number' ? patient.age : null;
  const unit = typeof patient.ageUnit === 'string' ? AGE_UNIT_YEARS[patient.ageUnit] : undefined;
  const reactions = new Set<string>();
  const reactionTerms = new Set<string>();
  const onsets = new Set<string>();
  for (const reaction of (Array.isArray(doc.reactions) ? doc.reactions : []) as Doc[]) {
    const term = [reaction?.meddraPtCode, reaction?.meddraCode].find(
      (code): code is string => typeof code === 'string' && code !== '',
    );
    const verbatim = text(reaction?.reactionNative) || text(reaction?.reactionTranslation);
    if (term || verbatim) reactionTerms.add(term ?? verbatim);
    if (typeof reaction?.meddraCode === 'string' && reaction.meddraCode) reactions.add(reaction.meddraCode);
    for (const key of ['reactionNative', 'reactionTranslation'])
      if (text(reaction?.[key])) reactions.add(text(reaction[key]));
    if (typeof reaction?.startDate === 'string' && reaction.startDate.length >= 8)
      onsets.add(reaction.startDate.slice(0, 8));
  }
  const suspectDrugs = new Set<string>();
  for (const drug of (Array.isArray(doc.drugs) ? doc.drugs : []) as Doc[]) {
    if (drug?.drugCharacterisation !== '1') continue;
    for (const key of ['drugName', 'genericName']) if (text(drug[key])) suspectDrugs.add(text(drug[key]));
  }
  const report = (doc.report ?? {}) as Doc;
  const firstReaction = (Array.isArray(doc.reactions) ? doc.reactions[0] : undefined) as Doc | undefined;
  const reporter = (Array.isArray(doc.reporters) ? doc.reporters[0] : undefined) as Doc | undefined;
  const word = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const reporterText = ['reporterFamilyName', 'reporterGivenName', 'reporterOrganisation']
    .map((key) => word(reporter?.[key]))
    .filter(Boolean)
    .join(' ');
  const senderIds = [
    word(report.reportCode),
    word(report.reportAllCode),
    ...((Array.isArray(report.otherCaseIdentifiers) ? report.otherCaseIdentifiers : []) as Doc[]).map(
      (other) => word(other?.identifier),
    ),
  ].filter(Boolean);
  return {
    initials: initials || null,
    nameKey: nameBlockKey(initials),
    sex: typeof patient.gender === 'string' ? patient.gender : null,
    ageYears: age !== null && unit !== undefined ? Math.floor(age * unit) : null,
    reactions: [...reactions],
    suspectDrugs: [...suspectDrugs],
    onsets: [...onsets],
    reactionTerms: [...reactionTerms],
    birthDate: word(patient.birthday).replace(/\D/g, '').slice(0, 8) || null,
    country: word(report.happenCountry) || word(firstReaction?.reactionCountry) || null,
    reporter: reporterText || null,
    senderIds: [...new Set(senderIds)],
  };
}

export function buildSummary(caseId: string, doc: CaseDocument, deadline: CaseDeadline | null): CaseSummary {
  const v: Record<string, unknown> = {};
  for (const pointer of LIST_POINTERS) {
    const values = valuesAt(doc, pointer)
      .map(scalar)
      .filter((value) => value !== null);
    v[pointerKey(pointer)] = pointer.includes('*') ? [...new Set(values)] : (values[0] ?? null);
  }
  for (const filter of ITEM_FILTERS)
    for (const field of filter.fields)
      v[summaryKey(filter, field)] = [
        ...new Set(
          itemValues(doc, filter, field)
            .map(scalar)
            .filter((value) => value !== null),
        ),
      ];
  for (const filter of DERIVED_FILTERS) v[filter.id] = derivedValue(doc, filter);
  // Flags absent from the document are false in the summary, so list filters are plain equalities.
  const state = { ...doc.state };
  for (const flag of ['isTeae', 'isSae', 'isSar', 'isSusar', 'isAesi', 'isCompleted', 'isLocked'] as const) {
    state[flag] = state[flag] === true;
  }
  return {
    _id: caseId,
    state,
    v,
    deadline,
    dup: duplicateKeys(doc),
  };
}
