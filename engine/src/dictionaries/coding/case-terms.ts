/**
 * Where a case holds MedDRA-coded values, and how a coding is written back. One table for every
 * MedDRA field of the case (E.i.2.1, G.k.7.r.2, D.7.1.r.1, D.8.r.6/7, D.9.2.r.1, D.9.4.r.1,
 * D.10.7.1.r.1, D.10.8.r.6/7, F.r.2.2, H.3.r.1): the case form's pickers, the coding review tab and
 * the bulk recode all read it, so a field cannot be coded in one place and forgotten in another.
 * The test beside this file fails when the case schema gains a MedDRA code this table does not name.
 */
import type { CodedMeddraField, CodedMeddraTerm } from '../meddra/recode';
import type { MeddraCoding } from '../meddra/types';

/** One MedDRA field of the case: the repeated item that holds it and its sibling properties. */
export interface MeddraFieldLocation {
  id: string;
  /** E2B id of the coded element (its `a` is the version, its `b` the LLT code). */
  e2b: string;
  /** The item holding the value, `*` for each array index (`/drugs/*\/indications/*`). */
  item: string;
  code: string;
  version: string;
  /** The LLT name as coded, where the item keeps it. */
  name?: string;
  pt?: { code: string; name: string };
  soc?: { code: string; name: string };
  /** The reported (verbatim) text, first non-empty wins; suggestions are looked up for it. */
  verbatim: string[];
}

const full = (id: string, e2b: string, item: string, verbatim: string[]): MeddraFieldLocation => ({
  id,
  e2b,
  item,
  code: 'meddraCode',
  version: 'meddraVersion',
  name: 'meddraLltName',
  pt: { code: 'meddraPtCode', name: 'meddraPtName' },
  soc: { code: 'meddraSocCode', name: 'meddraSocName' },
  verbatim,
});
const lltOnly = (id: string, e2b: string, item: string, verbatim: string[]): MeddraFieldLocation => ({
  id,
  e2b,
  item,
  code: 'meddraCode',
  version: 'meddraVersion',
  name: 'meddraLltName',
  verbatim,
});
/** Past drug history rows keep the term text beside the code (D.8.r.6/7 carry no verbatim of their own). */
const pastDrug = (id: string, e2b: string, item: string, prefix: string): MeddraFieldLocation => ({
  id,
  e2b,
  item,
  code: `${prefix}MeddraCode`,
  version: `${prefix}MeddraVersion`,
  name: `${prefix}Term`,
  verbatim: [`${prefix}Term`],
});

export const MEDDRA_FIELD_LOCATIONS: readonly MeddraFieldLocation[] = [
  full('reaction', 'E.i.2.1', '/reactions/*', ['reactionNative', 'reactionTranslation']),
  lltOnly('indication', 'G.k.7.r.2', '/drugs/*/indications/*', ['indicationText']),
  full('medicalHistory', 'D.7.1.r.1', '/patient/medicalHistory/*', ['historyName', 'comments']),
  pastDrug('pastDrugIndication', 'D.8.r.6', '/patient/pastDrugs/*', 'indication'),
  pastDrug('pastDrugReaction', 'D.8.r.7', '/patient/pastDrugs/*', 'reaction'),
  lltOnly('deathCause', 'D.9.2.r.1', '/patient/death/reportedCauses/*', ['causeText']),
  lltOnly('autopsyCause', 'D.9.4.r.1', '/patient/death/autopsyCauses/*', ['causeText']),
  full('parentMedicalHistory', 'D.10.7.1.r.1', '/patient/parent/medicalHistory/*', [
    'historyName',
    'comments',
  ]),
  pastDrug('parentPastDrugIndication', 'D.10.8.r.6', '/patient/parent/pastDrugs/*', 'indication'),
  pastDrug('parentPastDrugReaction', 'D.10.8.r.7', '/patient/parent/pastDrugs/*', 'reaction'),
  lltOnly('test', 'F.r.2.2', '/tests/*', ['testName']),
  lltOnly('senderDiagnosis', 'H.3.r.1', '/narrative/senderDiagnoses/*', []),
];

/** The location of a case-form field pointer (`/reactions/*\/meddraCode`), or null. */
export function meddraLocationOfField(pointer: string): MeddraFieldLocation | null {
  const cut = pointer.lastIndexOf('/');
  const item = pointer.slice(0, cut);
  const property = pointer.slice(cut + 1);
  return MEDDRA_FIELD_LOCATIONS.find((l) => l.item === item && l.code === property) ?? null;
}

/** A MedDRA field of one case as the coding review lists it. */
export interface CaseMeddraTerm extends CodedMeddraTerm {
  /** The item's pointer in the case (`/reactions/0`) followed by `#` and the location id. */
  ref: string;
  /** The item's pointer (`/reactions/0`). */
  itemPointer: string;
  location: string;
  e2b: string;
  verbatim: string;
  /** Every reported text of the item, for suggestions (native and translation, say). */
  verbatims: string[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** Every item a location pattern reaches in a document, with its concrete pointer. */
function itemsAt(doc: unknown, pattern: string): { pointer: string; item: Json }[] {
  let current: { pointer: string; value: unknown }[] = [{ pointer: '', value: doc }];
  for (const token of pattern.slice(1).split('/')) {
    const next: { pointer: string; value: unknown }[] = [];
    for (const { pointer, value } of current) {
      if (token === '*') {
        if (Array.isArray(value))
          value.forEach((v, i) => next.push({ pointer: `${pointer}/${i}`, value: v }));
      } else if (isObject(value) && value[token] !== undefined) {
        next.push({ pointer: `${pointer}/${token}`, value: value[token] });
      }
    }
    current = next;
  }
  return current.filter((c) => isObject(c.value)).map((c) => ({ pointer: c.pointer, item: c.value as Json }));
}

/** The coded value of one item at one location (undefined fields are absent). */
export function codedTermOf(item: Json, location: MeddraFieldLocation): CodedMeddraTerm & { ref: '' } {
  const term: CodedMeddraTerm & { ref: '' } = { ref: '' };
  const put = (key: keyof CodedMeddraTerm, property: string | undefined) => {
    const value = property ? text(item[property]) : undefined;
    if (value !== undefined) (term as unknown as Record<string, string>)[key] = value;
  };
  put('meddraVersion', location.version);
  put('meddraCode', location.code);
  put('meddraLltName', location.name);
  put('meddraPtCode', location.pt?.code);
  put('meddraPtName', location.pt?.name);
  put('meddraSocCode', location.soc?.code);
  put('meddraSocName', location.soc?.name);
  return term;
}

/**
 * Every MedDRA field of a case that is coded or has something to code (a verbatim text), in the
 * table's order. An item with neither (a blank row) is not a term.
 */
export function meddraTermsOf(doc: unknown): CaseMeddraTerm[] {
  const out: CaseMeddraTerm[] = [];
  for (const location of MEDDRA_FIELD_LOCATIONS) {
    for (const { pointer, item } of itemsAt(doc, location.item)) {
      const coded = codedTermOf(item, location);
      const verbatims = location.verbatim.map((p) => text(item[p])).filter((v): v is string => !!v);
      if (!coded.meddraCode && verbatims.length === 0) continue;
      out.push({
        ...coded,
        ref: `${pointer}#${location.id}`,
        itemPointer: pointer,
        location: location.id,
        e2b: location.e2b,
        verbatim: verbatims.join(' / '),
        verbatims,
      });
    }
  }
  return out;
}

/** The stored form of a coding (LLT with its PT and SOC on the chosen or primary path). */
export function codedTermFromCoding(coding: MeddraCoding): Omit<CodedMeddraTerm, 'ref'> {
  return {
    meddraVersion: coding.version,
    meddraCode: coding.llt.code,
    meddraLltName: coding.llt.name,
    meddraPtCode: coding.pt.code,
    meddraPtName: coding.pt.name,
    meddraSocCode: coding.soc.code,
    meddraSocName: coding.soc.name,
  };
}

/**
 * The term fields an item at `location` stores, each with its property, in write order. A past
 * drug's term text is also its verbatim: it takes the LLT name only while empty (`storedName`
 * is its current value), so a coding never overwrites what the reporter wrote.
 */
export function storedMeddraFields(
  location: MeddraFieldLocation,
  storedName?: unknown,
): [field: CodedMeddraField, property: string][] {
  const fields: [CodedMeddraField, string][] = [
    ['meddraCode', location.code],
    ['meddraVersion', location.version],
  ];
  if (location.name && (!location.verbatim.includes(location.name) || !text(storedName)))
    fields.push(['meddraLltName', location.name]);
  if (location.pt) fields.push(['meddraPtCode', location.pt.code], ['meddraPtName', location.pt.name]);
  if (location.soc) fields.push(['meddraSocCode', location.soc.code], ['meddraSocName', location.soc.name]);
  return fields;
}

/**
 * The writes that store a coded value in an item: `[property, value]` for each sibling the
 * location keeps (the case store and the server apply them the same way). Values absent from the
 * term clear the property, so no PT or SOC of an earlier coding stays behind.
 */
export function meddraWrites(
  location: MeddraFieldLocation,
  term: Omit<CodedMeddraTerm, 'ref'>,
  current: Record<string, unknown> = {},
): [property: string, value: string | undefined][] {
  const storedName = location.name ? current[location.name] : undefined;
  return storedMeddraFields(location, storedName).map(([field, property]) => [property, term[field]]);
}

/** The location of a term ref (`/reactions/0#reaction`), or null. */
export function meddraLocationOfRef(
  ref: string,
): { itemPointer: string; location: MeddraFieldLocation } | null {
  const hash = ref.lastIndexOf('#');
  if (hash < 0) return null;
  const location = MEDDRA_FIELD_LOCATIONS.find((l) => l.id === ref.slice(hash + 1));
  return location ? { itemPointer: ref.slice(0, hash), location } : null;
}

/**
 * Applies codings to a case document (copy-on-write along the written paths): each ref's writes
 * land in its item. Refs whose item no longer exists are returned as `missing`, nothing written.
 */
export function applyMeddraTerms(
  doc: Json,
  terms: readonly CodedMeddraTerm[],
): { doc: Json; applied: string[]; missing: string[] } {
  let root: Json = doc;
  const applied: string[] = [];
  const missing: string[] = [];
  for (const term of terms) {
    const found = meddraLocationOfRef(term.ref);
    const tokens = found?.itemPointer.slice(1).split('/') ?? [];
    let probe: unknown = root;
    for (const token of tokens)
      probe = Array.isArray(probe) ? probe[Number(token)] : isObject(probe) ? probe[token] : undefined;
    if (!found || !isObject(probe)) {
      missing.push(term.ref);
      continue;
    }
    const item: Json = { ...probe };
    for (const [property, value] of meddraWrites(found.location, term, probe)) {
      if (value === undefined) delete item[property];
      else item[property] = value;
    }
    root = replaceAt(root, tokens, item) as Json;
    applied.push(term.ref);
  }
  return { doc: root, applied, missing };
}

function replaceAt(node: unknown, tokens: string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  const [head, ...rest] = tokens as [string, ...string[]];
  if (Array.isArray(node)) {
    const copy = [...node];
    copy[Number(head)] = replaceAt(copy[Number(head)], rest, value);
    return copy;
  }
  const object = node as Json;
  return { ...object, [head]: replaceAt(object[head], rest, value) };
}
