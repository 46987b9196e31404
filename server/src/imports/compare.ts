/**
 * The pre-processing comparison: every leaf of the imported report beside the same field of the
 * existing case (matched on C.1.1 or C.1.8.1), with its label and E2B id from the case schema,
 * and the document that results from the user's choices.
 */
import { getCaseProperty } from '@pv/engine';
import type { FieldChoice } from './collections';

type Doc = Record<string, unknown>;

/** Sections that are not user data: the server's state and the verbatim E2B carry-over. */
const HIDDEN_SECTIONS = new Set(['state', 'e2bCarry', 'e2bBatch']);
/** Fields the case module owns on a case it writes (the report code is the receiver's own). */
const KEPT_BY_CASE = new Set(['/report/reportCode', '/report/studyProjectId', '/report/creationDate']);

const isObject = (value: unknown): value is Doc =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
/** A null flavor stands in for a value: one leaf. */
const isLeafObject = (value: Doc) => 'nullFlavor' in value && Object.keys(value).length === 1;

/** Every leaf (JSON pointer -> value) of a case document, hidden sections left out. */
export function leaves(doc: Doc): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}/${i}`));
    else if (isObject(value) && !isLeafObject(value)) {
      for (const [key, item] of Object.entries(value)) walk(item, `${path}/${key}`);
    } else if (value !== undefined && value !== null && value !== '') out.set(path, value);
  };
  for (const [key, value] of Object.entries(doc)) if (!HIDDEN_SECTIONS.has(key)) walk(value, `/${key}`);
  return out;
}

export interface ComparisonRow {
  path: string;
  e2b?: string;
  label?: { zh: string; en: string };
  imported?: unknown;
  existing?: unknown;
  /** The value the pre-processing gives the field (absent: no value). */
  chosen?: unknown;
  source: FieldChoice['source'];
  differs: boolean;
  /** The case module sets this field itself (e.g. the report code). */
  readOnly: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Where a pointer's value comes from when the user chose nothing: the import, else the existing case. */
function defaultChoice(imported: unknown, existing: unknown): FieldChoice['source'] {
  return imported === undefined && existing !== undefined ? 'existing' : 'imported';
}

function describe(path: string): Pick<ComparisonRow, 'e2b' | 'label'> {
  const property = getCaseProperty(path.replace(/\/\d+(?=\/|$)/g, '/*'));
  const out: Pick<ComparisonRow, 'e2b' | 'label'> = {};
  if (typeof property?.['x-e2b'] === 'string') out.e2b = property['x-e2b'];
  const label = property?.['x-label'] as ComparisonRow['label'] | undefined;
  if (label) out.label = label;
  return out;
}

function chosenValue(choice: FieldChoice, imported: unknown, existing: unknown): unknown {
  if (choice.source === 'edited') return choice.value;
  return choice.source === 'existing' ? existing : imported;
}

/** The rows of the comparison, in the imported document's order then the existing case's. */
export function compareRows(imported: Doc, existing: Doc | null, choices: Record<string, FieldChoice>) {
  const mine = leaves(imported);
  const theirs = existing ? leaves(existing) : new Map<string, unknown>();
  const paths = [...new Set([...mine.keys(), ...theirs.keys(), ...Object.keys(choices)])];
  return paths.map((path): ComparisonRow => {
    const a = mine.get(path);
    const b = theirs.get(path);
    const choice = choices[path] ?? { source: defaultChoice(a, b) };
    const row: ComparisonRow = {
      path,
      ...describe(path),
      source: choice.source,
      differs: existing !== null && !same(a, b),
      readOnly: KEPT_BY_CASE.has(path),
    };
    if (a !== undefined) row.imported = a;
    if (b !== undefined) row.existing = b;
    const chosen = chosenValue(choice, a, b);
    if (chosen !== undefined && chosen !== null && chosen !== '') row.chosen = chosen;
    return row;
  });
}

function setAt(doc: Doc, path: string, value: unknown): void {
  const tokens = path.split('/').slice(1);
  let node: Doc | unknown[] = doc;
  tokens.forEach((token, i) => {
    const last = i === tokens.length - 1;
    const key = Array.isArray(node) ? Number(token) : token;
    const container = node as Record<string | number, unknown>;
    if (last) {
      if (value === undefined) {
        if (Array.isArray(node)) container[key] = undefined;
        else delete container[key];
      } else container[key] = value;
      return;
    }
    if (container[key] === undefined || container[key] === null || typeof container[key] !== 'object')
      container[key] = /^\d+$/.test(tokens[i + 1]!) ? [] : {};
    node = container[key] as Doc | unknown[];
  });
}

/** Drops what removing leaves left behind: undefined array slots, empty objects and arrays. */
function prune(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(prune).filter((item) => item !== undefined);
    return items.length ? items : undefined;
  }
  if (isObject(value)) {
    if (isLeafObject(value)) return value;
    const entries = Object.entries(value)
      .map(([key, item]) => [key, prune(item)] as const)
      .filter(([, item]) => item !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return value === null || value === '' ? undefined : value;
}

/**
 * The document the pre-processing gives: the imported report with every compared field set to the
 * chosen value (the imported one, the existing case's, or the user's edit). Hidden sections (the
 * E2B carry-over) stay as imported.
 */
export function resolveDocument(
  imported: Doc,
  existing: Doc | null,
  choices: Record<string, FieldChoice>,
): Doc {
  const out = structuredClone(imported);
  for (const key of Object.keys(out)) if (!HIDDEN_SECTIONS.has(key)) delete out[key];
  for (const row of compareRows(imported, existing, choices)) {
    if (row.chosen !== undefined) setAt(out, row.path, structuredClone(row.chosen));
  }
  const pruned: Doc = {};
  for (const [key, value] of Object.entries(out)) {
    const kept = HIDDEN_SECTIONS.has(key) ? value : prune(value);
    if (kept !== undefined) pruned[key] = kept;
  }
  return dropDanglingAssessments(pruned);
}

/**
 * A reaction the pre-processing removed takes its drug-reaction assessments (G.k.9.i, which name
 * the reaction by its id) with it: an assessment of a reaction the report no longer has is void.
 */
function dropDanglingAssessments(doc: Doc): Doc {
  if (!Array.isArray(doc.drugs)) return doc;
  const reactions = Array.isArray(doc.reactions) ? (doc.reactions as Doc[]) : [];
  const ids = new Set(reactions.map((reaction) => reaction.id).filter((id) => typeof id === 'string'));
  const drugs = (doc.drugs as Doc[]).map((drug) => {
    if (!Array.isArray(drug.reactionAssessments)) return drug;
    const kept = (drug.reactionAssessments as Doc[]).filter(
      (assessment) => typeof assessment.reactionId !== 'string' || ids.has(assessment.reactionId),
    );
    const { reactionAssessments: _dropped, ...rest } = drug;
    return kept.length ? { ...rest, reactionAssessments: kept } : rest;
  });
  return { ...doc, drugs };
}
