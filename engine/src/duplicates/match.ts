/**
 * Probabilistic duplicate matching of two case reports, in the spirit of WHO-UMC's vigiMatch
 * (Norén, Orre, Bate, Edwards 2007, "Duplicate detection in adverse drug reaction surveillance",
 * a hit-miss model): every compared field adds a log-likelihood-ratio weight,
 * log2 P(outcome | duplicate pair) / P(outcome | unrelated pair), for agreement, partial agreement
 * (near values) or disagreement; a field missing on either side adds 0. The score is the sum. A
 * shared sender identifier (C.1.1, C.1.8.1, C.1.9.1.r.2) is no likelihood question: it marks the pair
 * as the same case, ranked before every scored pair.
 *
 * Pure: no I/O. Names are compared by Han characters and by pinyin (pinyin-pro, surname readings).
 */
import { pinyin } from 'pinyin-pro';

/** A reaction as compared: the MedDRA PT code (else LLT code, else the lower-case verbatim) and, when the hierarchy is at hand, its HLT codes. */
export interface MatchReaction {
  term: string;
  hlts?: string[];
}

/** The fields of a case report the matcher compares (E2B ids beside each). */
export interface MatchRecord {
  /** C.1.1, C.1.8.1 and C.1.9.1.r.2 identifiers. */
  senderIds: string[];
  /** D.1 patient name or initials, as entered (characters, pinyin or initials). */
  name: string | null;
  /** D.5 sex code ('1' male, '2' female; anything else counts as missing). */
  sex: string | null;
  /** D.2.2a/b age at onset in whole years. */
  ageYears: number | null;
  /** D.2.1 date of birth, YYYYMMDD (or shorter precision). */
  birthDate: string | null;
  /** E.i.2.1b reactions. */
  reactions: MatchReaction[];
  /** G.k.2.2 names of the suspect drugs (G.k.1 = 1), as entered. */
  suspectDrugs: string[];
  /** E.i.4 onset dates, YYYYMMDD (or shorter precision). */
  onsets: string[];
  /** E.i.9 / the report's country of occurrence. */
  country: string | null;
  /** C.2.r reporter: name and organisation, as entered. */
  reporter: string | null;
}

export type MatchField =
  'senderIds' | 'initials' | 'sex' | 'age' | 'reactions' | 'suspectDrugs' | 'onsets' | 'country' | 'reporter';

export type FieldOutcome = 'agree' | 'partial' | 'differ' | 'missing';

export interface FieldComparison {
  field: MatchField;
  outcome: FieldOutcome;
  /** The log2 likelihood ratio this outcome adds to the score (0 when missing). */
  weight: number;
}

export interface MatchResult {
  score: number;
  /** A sender identifier is shared: the same case, always ranked first. */
  identifierMatch: boolean;
  fields: FieldComparison[];
}

/**
 * P(outcome | duplicate) and P(outcome | unrelated pair) per field: agreement and partial agreement;
 * disagreement is the rest. Estimated for Chinese MAH intake (one or a few products per tenant, so
 * suspect drug and country agree often by chance; onset dates and names rarely do).
 */
const PROBABILITIES: Record<
  Exclude<MatchField, 'senderIds'>,
  { dup: [number, number]; random: [number, number] }
> = {
  initials: { dup: [0.75, 0.15], random: [0.02, 0.005] },
  sex: { dup: [0.97, 0], random: [0.5, 0] },
  age: { dup: [0.7, 0.25], random: [0.03, 0.06] },
  reactions: { dup: [0.8, 0.15], random: [0.1, 0.1] },
  suspectDrugs: { dup: [0.9, 0], random: [0.3, 0] },
  onsets: { dup: [0.6, 0.35], random: [0.005, 0.03] },
  country: { dup: [0.98, 0], random: [0.6, 0] },
  reporter: { dup: [0.6, 0], random: [0.05, 0] },
};

const log2 = (x: number) => Math.log(x) / Math.LN2;

/** The hit-miss weights derived from PROBABILITIES, rounded to 0.01. */
export const MATCH_WEIGHTS = Object.fromEntries(
  Object.entries(PROBABILITIES).map(([field, { dup, random }]) => {
    const round = (x: number) => Math.round(x * 100) / 100;
    return [
      field,
      {
        agree: round(log2(dup[0] / random[0])),
        partial: dup[1] > 0 ? round(log2(dup[1] / random[1])) : 0,
        differ: round(log2((1 - dup[0] - dup[1]) / (1 - random[0] - random[1]))),
      },
    ];
  }),
) as Record<Exclude<MatchField, 'senderIds'>, { agree: number; partial: number; differ: number }>;

/** Score added by a shared sender identifier, so such a pair also passes any threshold. */
const IDENTIFIER_WEIGHT = 100;

/** Smallest score reported as a candidate duplicate (measured on the labelled set of scripts/duplicates). */
export const DUPLICATE_SCORE_THRESHOLD = 10;

const HAN = /\p{Script=Han}/u;

/** The forms a patient name is compared in: its Han characters, its full pinyin and its initials. */
export interface NameForms {
  han: string | null;
  pinyin: string | null;
  initials: string | null;
}

/** 张伟 -> {han: 张伟, pinyin: zhangwei, initials: ZW}; "Zhang Wei" -> {pinyin: zhangwei, initials: ZW}; "Z.W." -> {initials: ZW}. */
export function nameForms(name: string | null | undefined): NameForms {
  const key = name ?? '';
  const known = formsCache.get(key);
  if (known) return known;
  if (formsCache.size >= FORMS_CACHE_SIZE) formsCache.clear();
  const forms = computeNameForms(key);
  formsCache.set(key, forms);
  return forms;
}

/** Pinyin conversion dominates a comparison; a name is compared against many candidates. */
const FORMS_CACHE_SIZE = 10_000;
const formsCache = new Map<string, NameForms>();

function computeNameForms(name: string): NameForms {
  const text = (name ?? '').normalize('NFKC').trim();
  if (!text) return { han: null, pinyin: null, initials: null };
  if (HAN.test(text)) {
    const han = [...text].filter((ch) => HAN.test(ch)).join('');
    const syllables = pinyin(han, { toneType: 'none', type: 'array', surname: 'head', v: true });
    return {
      han,
      pinyin: syllables.join('').toLowerCase(),
      initials: syllables
        .map((s) => s[0] ?? '')
        .join('')
        .toUpperCase(),
    };
  }
  const words = text.split(/[^A-Za-z]+/).filter(Boolean);
  // Initials are written "ZW", "Z.W." or "Z W": one-letter words or one short upper-case word.
  const asInitials =
    words.every((w) => w.length === 1) || (words.length === 1 && /^[A-Z]{1,4}$/.test(words[0]!));
  if (asInitials) return { han: null, pinyin: null, initials: words.join('').toUpperCase() };
  return {
    han: null,
    pinyin: words.join('').toLowerCase(),
    initials: words
      .map((w) => w[0]!)
      .join('')
      .toUpperCase(),
  };
}

/** Key for blocking: the initials' letters in order, so swapped initials share it. */
export function nameBlockKey(name: string | null | undefined): string | null {
  const initials = nameForms(name).initials;
  return initials ? [...initials].sort().join('') : null;
}

export function compareName(a: string | null, b: string | null): FieldOutcome {
  const x = nameForms(a);
  const y = nameForms(b);
  if (!x.initials || !y.initials) return 'missing';
  if (x.han && y.han) return x.han === y.han ? 'agree' : x.pinyin === y.pinyin ? 'partial' : 'differ';
  if (x.pinyin && y.pinyin) return x.pinyin === y.pinyin ? 'agree' : 'differ';
  if (x.initials === y.initials) return 'agree';
  const sorted = (s: string) => [...s].sort().join('');
  return x.initials.length > 1 && sorted(x.initials) === sorted(y.initials) ? 'partial' : 'differ';
}

export function compareSex(a: string | null, b: string | null): FieldOutcome {
  const known = (s: string | null) => s === '1' || s === '2';
  if (!known(a) || !known(b)) return 'missing';
  return a === b ? 'agree' : 'differ';
}

/** Days between two YYYYMMDD dates; null unless both are to the day. */
function daysBetween(a: string, b: string): number | null {
  const day = (s: string) =>
    /^\d{8}/.test(s) ? Date.UTC(+s.slice(0, 4), +s.slice(4, 6) - 1, +s.slice(6, 8)) / 86_400_000 : null;
  const x = day(a);
  const y = day(b);
  return x === null || y === null ? null : Math.abs(x - y);
}

/** Same birth date (or age) agrees; a birth date within a year or an age off by one is partial. */
export function compareAge(
  a: { ageYears: number | null; birthDate: string | null },
  b: { ageYears: number | null; birthDate: string | null },
): FieldOutcome {
  if (a.birthDate && b.birthDate) {
    if (a.birthDate === b.birthDate) return 'agree';
    const days = daysBetween(a.birthDate, b.birthDate);
    if (days !== null) return days <= 366 ? 'partial' : 'differ';
  }
  if (a.ageYears === null || b.ageYears === null) return 'missing';
  const diff = Math.abs(a.ageYears - b.ageYears);
  return diff === 0 ? 'agree' : diff === 1 ? 'partial' : 'differ';
}

/** A shared PT agrees; PTs sharing an HLT (siblings) are partial. */
export function compareReactions(a: MatchReaction[], b: MatchReaction[]): FieldOutcome {
  if (!a.length || !b.length) return 'missing';
  const terms = new Set(a.map((r) => r.term));
  if (b.some((r) => terms.has(r.term))) return 'agree';
  const hlts = new Set(a.flatMap((r) => r.hlts ?? []));
  return b.some((r) => (r.hlts ?? []).some((h) => hlts.has(h))) ? 'partial' : 'differ';
}

/** Drug name for comparison: NFKC, lower case, letters, digits and Han characters only. */
export function normaliseDrugName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

export function compareDrugs(a: string[], b: string[]): FieldOutcome {
  const x = new Set(a.map(normaliseDrugName).filter(Boolean));
  const y = b.map(normaliseDrugName).filter(Boolean);
  if (!x.size || !y.length) return 'missing';
  return y.some((name) => x.has(name)) ? 'agree' : 'differ';
}

/** Days within which two onset dates count as a partial agreement. */
export const ONSET_NEAR_DAYS = 7;

/** The same onset date agrees; dates within ONSET_NEAR_DAYS, or the same month at month precision, are partial. */
export function compareOnsets(a: string[], b: string[]): FieldOutcome {
  if (!a.length || !b.length) return 'missing';
  if (a.some((x) => b.includes(x))) return 'agree';
  for (const x of a)
    for (const y of b) {
      const days = daysBetween(x, y);
      if (days !== null ? days <= ONSET_NEAR_DAYS : x.slice(0, 6) === y.slice(0, 6) && x.length >= 6)
        return 'partial';
    }
  return 'differ';
}

function normaliseText(value: string | null): string {
  return (value ?? '').normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

export function compareText(a: string | null, b: string | null): FieldOutcome {
  const x = normaliseText(a);
  const y = normaliseText(b);
  if (!x || !y) return 'missing';
  return x === y ? 'agree' : 'differ';
}

export function shareIdentifier(a: string[], b: string[]): boolean {
  const norm = (s: string) => s.normalize('NFKC').trim().toUpperCase();
  const x = new Set(a.map(norm).filter(Boolean));
  return b.some((id) => x.has(norm(id)));
}

/** Scores a pair of case reports; symmetric. */
export function matchCases(a: MatchRecord, b: MatchRecord): MatchResult {
  const identifierMatch = shareIdentifier(a.senderIds, b.senderIds);
  const outcomes: [Exclude<MatchField, 'senderIds'>, FieldOutcome][] = [
    ['initials', compareName(a.name, b.name)],
    ['sex', compareSex(a.sex, b.sex)],
    ['age', compareAge(a, b)],
    ['reactions', compareReactions(a.reactions, b.reactions)],
    ['suspectDrugs', compareDrugs(a.suspectDrugs, b.suspectDrugs)],
    ['onsets', compareOnsets(a.onsets, b.onsets)],
    ['country', compareText(a.country, b.country)],
    ['reporter', compareText(a.reporter, b.reporter)],
  ];
  const fields: FieldComparison[] = [
    {
      field: 'senderIds',
      outcome: !a.senderIds.length || !b.senderIds.length ? 'missing' : identifierMatch ? 'agree' : 'differ',
      weight: identifierMatch ? IDENTIFIER_WEIGHT : 0,
    },
    ...outcomes.map(([field, outcome]) => ({
      field,
      outcome,
      weight: outcome === 'missing' ? 0 : MATCH_WEIGHTS[field][outcome],
    })),
  ];
  const score = Math.round(fields.reduce((sum, f) => sum + f.weight, 0) * 100) / 100;
  return { score, identifierMatch, fields };
}
