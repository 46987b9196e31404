/**
 * Field-by-field differences between two case documents (version comparison, the conflict answer
 * of a stale save), each with its E2B id and label so a reader sees "C.1.5 changed", not a path.
 */
import { getCaseProperty } from '@pv/engine';

export interface FieldChange {
  /** JSON pointer of the field (`/drugs/0/dosages/1/dose`). */
  path: string;
  e2b?: string;
  label?: { zh: string; en: string };
  /** Absent when the field did not exist on that side. */
  before?: unknown;
  after?: unknown;
}

type Doc = Record<string, unknown>;
const isObject = (value: unknown): value is Doc =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function isLeafObject(value: Doc): boolean {
  // A null flavor stands in for a value: compare it whole.
  return 'nullFlavor' in value && Object.keys(value).length === 1;
}

function equal(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Describes the field a pointer names (array indexes read as `*`). */
export function describeField(path: string): Pick<FieldChange, 'e2b' | 'label'> {
  const property = getCaseProperty(path.replace(/\/\d+(?=\/|$)/g, '/*'));
  const out: Pick<FieldChange, 'e2b' | 'label'> = {};
  if (typeof property?.['x-e2b'] === 'string') out.e2b = property['x-e2b'];
  const label = property?.['x-label'] as FieldChange['label'] | undefined;
  if (label) out.label = label;
  return out;
}

/** A field the case schema marks internal (`x-internal`: a row's identifier), never shown as data. */
export function isInternalField(path: string): boolean {
  return getCaseProperty(path.replace(/\/\d+(?=\/|$)/g, '/*'))?.['x-internal'] === true;
}

/** Leaf-level changes from `before` to `after`; arrays compared item by item. */
export function fieldChanges(
  before: unknown,
  after: unknown,
  skip: ReadonlySet<string> = new Set(),
): FieldChange[] {
  const out: FieldChange[] = [];
  const walk = (b: unknown, a: unknown, path: string): void => {
    if (skip.has(path) || equal(b, a)) return;
    if (isObject(b) && isObject(a) && !isLeafObject(b) && !isLeafObject(a)) {
      for (const key of new Set([...Object.keys(b), ...Object.keys(a)]))
        walk(b[key], a[key], `${path}/${key}`);
      return;
    }
    if (Array.isArray(b) && Array.isArray(a)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(b[i], a[i], `${path}/${i}`);
      return;
    }
    if (b === undefined && isObject(a) && !isLeafObject(a)) {
      for (const key of Object.keys(a)) walk(undefined, a[key], `${path}/${key}`);
      return;
    }
    if (a === undefined && isObject(b) && !isLeafObject(b)) {
      for (const key of Object.keys(b)) walk(b[key], undefined, `${path}/${key}`);
      return;
    }
    if (b === undefined && Array.isArray(a)) {
      a.forEach((item, i) => walk(undefined, item, `${path}/${i}`));
      return;
    }
    if (a === undefined && Array.isArray(b)) {
      b.forEach((item, i) => walk(item, undefined, `${path}/${i}`));
      return;
    }
    const change: FieldChange = { path, ...describeField(path) };
    if (b !== undefined) change.before = b;
    if (a !== undefined) change.after = a;
    out.push(change);
  };
  walk(before ?? {}, after ?? {}, '');
  return out;
}

/** Sets a dotted store path (`drugs.0.dose`, as the audit trail records it) in a document. */
export function setDotted(doc: Doc, path: string, value: unknown): void {
  const tokens = path.split('.');
  let current: Doc | unknown[] = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]!;
    const container = current as Doc;
    if (container[token] === null || typeof container[token] !== 'object') {
      container[token] = /^\d+$/.test(tokens[i + 1]!) ? [] : {};
    }
    current = container[token] as Doc;
  }
  const last = tokens[tokens.length - 1]!;
  if (value === undefined) delete (current as Doc)[last];
  else (current as Doc)[last] = structuredClone(value);
}
