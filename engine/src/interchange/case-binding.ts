import { walkCaseSchema } from '../case-model/index';
import type { E2bRecord, E2bValue } from './record';
import { emptyRecord, isNullFlavored } from './record';
import { r3Mapping } from './r3/index';

/**
 * Binds the case document (schemas/case) to element-id-keyed records by the schema's own x-e2b
 * annotations: a property with `x-e2b` is that element, an array with `x-e2b-section` (or `x-e2b`)
 * is that repeating group. Nothing here names a field: adding an element is a schema edit.
 */
export type CaseDocument = Record<string, unknown>;

interface BoundElement {
  id: string;
  path: string[];
  type: string;
}

interface BoundGroup {
  id: string;
  /** Property names from the parent group's item (or the document) to this array. */
  path: string[];
  /** Set when the array holds plain values (C.1.10.r): the element each item is. */
  scalar?: BoundElement;
  elements: BoundElement[];
  children: BoundGroup[];
}

let binding: BoundGroup | undefined;

/** The case schema's x-e2b tree, built once. */
export function caseBinding(): BoundGroup {
  if (binding) return binding;
  const root: BoundGroup = { id: 'report', path: [], elements: [], children: [] };
  const groupsByPointer = new Map<string, BoundGroup>([['', root]]);
  const mapping = r3Mapping();
  const enclosing = (segments: string[]): { group: BoundGroup; rest: string[] } => {
    for (let i = segments.length - 1; i >= 0; i--) {
      if (segments[i] !== '*') continue;
      const group = groupsByPointer.get(segments.slice(0, i).join('/'));
      if (group) return { group, rest: segments.slice(i + 1) };
      return { group: root, rest: [] };
    }
    return { group: root, rest: segments };
  };
  walkCaseSchema((property) => {
    const segments = property.pointer.split('/').slice(1);
    const schema = property.schema;
    const e2b = typeof schema['x-e2b'] === 'string' ? (schema['x-e2b'] as string) : undefined;
    const section =
      typeof schema['x-e2b-section'] === 'string' ? (schema['x-e2b-section'] as string) : undefined;
    const { group: parent, rest } = enclosing(segments);
    if (
      parent === root &&
      segments.includes('*') &&
      !groupsByPointer.has(segments.slice(0, segments.lastIndexOf('*')).join('/'))
    )
      return;
    if (schema.type === 'array') {
      const id = section ?? e2b;
      if (!id) return;
      const items = (schema.items ?? {}) as Record<string, unknown>;
      const scalarItems = items.type !== 'object';
      // An array of plain values is either a repeating group whose element is the value (C.1.10.r)
      // or the repeat of the element's group (FDA.D.11.r.1 in FDA.D.11.r).
      const groupId = scalarItems && !mapping.groups.has(id) ? (mapping.elements.get(id)?.group ?? id) : id;
      const group: BoundGroup = { id: groupId, path: rest, elements: [], children: [] };
      if (scalarItems) group.scalar = { id, path: [], type: String(items.type ?? 'string') };
      parent.children.push(group);
      groupsByPointer.set(segments.join('/'), group);
      return;
    }
    if (e2b) parent.elements.push({ id: e2b, path: rest, type: String(schema.type ?? 'string') });
    else if (property.name === 'id' && schema.format === 'uuid' && rest.length === 1 && parent !== root) {
      parent.elements.push({ id: `${parent.id}#id`, path: rest, type: 'string' });
    }
  });
  binding = root;
  return root;
}

const getIn = (object: unknown, path: string[]): unknown => {
  let node = object;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
};

const setIn = (object: Record<string, unknown>, path: string[], value: unknown): void => {
  let node = object;
  path.slice(0, -1).forEach((key) => {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  });
  node[path[path.length - 1] as string] = value;
};

function toE2b(value: unknown): E2bValue | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (isNullFlavored(value)) return { nullFlavor: value.nullFlavor };
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (typeof value === 'string') return value;
  return undefined;
}

/** Converts an E2B value to the property's JSON type; undefined when it does not fit (kept aside). */
function fromE2b(value: E2bValue, type: string): unknown {
  if (isNullFlavored(value)) return value;
  if (type === 'boolean') return value === 'true' ? true : value === 'false' ? false : undefined;
  if (type === 'number' || type === 'integer') {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) && (type === 'number' || Number.isInteger(n))
      ? n
      : undefined;
  }
  return value;
}

function recordFrom(group: BoundGroup, item: unknown): E2bRecord {
  const record = emptyRecord();
  if (group.scalar) {
    const v = toE2b(item);
    if (v !== undefined) record.values[group.scalar.id] = v;
    return record;
  }
  for (const element of group.elements) {
    const v = toE2b(getIn(item, element.path));
    if (v !== undefined) record.values[element.id] = v;
  }
  for (const child of group.children) {
    const list = getIn(item, child.path);
    if (!Array.isArray(list) || list.length === 0) continue;
    record.groups[child.id] = list.map((entry) => recordFrom(child, entry));
  }
  return record;
}

/** The element-id-keyed record of a case document (one report), ready for the XML writers. */
export function caseToRecord(doc: CaseDocument): E2bRecord {
  const record = recordFrom(caseBinding(), doc);
  const carry = doc.e2bCarry as E2bRecord | undefined;
  return carry ? mergeRecords(record, carry) : record;
}

/** Adds a residue's values, attributes and instances to a record (instances matched by position). */
function mergeRecords(record: E2bRecord, residue: E2bRecord): E2bRecord {
  const merged: E2bRecord = { values: { ...residue.values, ...record.values }, groups: { ...record.groups } };
  if (residue.attrs || record.attrs) merged.attrs = { ...residue.attrs, ...record.attrs };
  if (residue.fragments || record.fragments)
    merged.fragments = [...(record.fragments ?? []), ...(residue.fragments ?? [])];
  for (const [id, list] of Object.entries(residue.groups)) {
    const own = merged.groups[id] ?? [];
    merged.groups[id] = list
      .map((r, i) => (own[i] ? mergeRecords(own[i] as E2bRecord, r) : r))
      .concat(own.slice(list.length));
  }
  return merged;
}

const hasResidue = (r: E2bRecord): boolean =>
  Object.keys(r.values).length > 0 ||
  Object.keys(r.groups).length > 0 ||
  r.attrs !== undefined ||
  r.fragments !== undefined;

export interface RecordToCase {
  case: CaseDocument;
  /** Element ids read from the message that the case schema has no property for (kept in e2bCarry). */
  unbound: string[];
}

/**
 * The case document of a report record. Values without a case property, and the attributes kept for
 * a faithful re-export, go to `e2bCarry` (same shape as a record) instead of being dropped.
 */
export function recordToCase(record: E2bRecord): RecordToCase {
  const unbound = new Set<string>();
  const fill = (group: BoundGroup, source: E2bRecord, target: Record<string, unknown>): E2bRecord => {
    const residue = emptyRecord();
    if (source.attrs) residue.attrs = source.attrs;
    if (source.fragments) residue.fragments = source.fragments;
    const bound = new Set<string>();
    for (const element of group.elements) {
      const value = source.values[element.id];
      if (value === undefined) continue;
      const converted = fromE2b(value, element.type);
      if (converted === undefined) continue;
      setIn(target, element.path, converted);
      bound.add(element.id);
    }
    for (const [id, value] of Object.entries(source.values)) {
      if (bound.has(id)) continue;
      residue.values[id] = value;
      if (!id.includes('#') && !id.startsWith('N.')) unbound.add(id);
    }
    for (const [id, instances] of Object.entries(source.groups)) {
      const child = group.children.find((c) => c.id === id);
      if (!child) {
        residue.groups[id] = instances;
        unbound.add(id);
        continue;
      }
      const items: unknown[] = [];
      const residues = instances.map((instance) => {
        if (child.scalar) {
          const value = instance.values[child.scalar.id];
          const converted = value === undefined ? undefined : fromE2b(value, child.scalar.type);
          if (converted !== undefined) items.push(converted);
          const rest = { ...instance, values: { ...instance.values } };
          if (converted !== undefined) delete rest.values[child.scalar.id];
          return rest;
        }
        const item: Record<string, unknown> = {};
        items.push(item);
        return fill(child, instance, item);
      });
      setIn(target, child.path, items);
      if (residues.some(hasResidue)) residue.groups[id] = residues;
    }
    return residue;
  };
  const doc: CaseDocument = {};
  const residue = fill(caseBinding(), record, doc);
  if (hasResidue(residue)) doc.e2bCarry = residue;
  return { case: doc, unbound: [...unbound].sort() };
}
