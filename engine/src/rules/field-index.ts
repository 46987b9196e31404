/** Lookup of case fields by path and by E2B id, built once per configuration. */
import { formatDataPath, parseDataPath } from '../schema-registry/schema-set';
import type { FieldInfo } from '../schema-registry/types';
import type { FieldRef } from './types';

export interface FieldIndex {
  byPath: Map<string, FieldInfo>;
  byE2b: Map<string, FieldInfo>;
}

export function buildFieldIndex(fields: readonly FieldInfo[]): FieldIndex {
  const byPath = new Map<string, FieldInfo>();
  const byE2b = new Map<string, FieldInfo>();
  for (const field of fields) {
    byPath.set(field.path, field);
    if (field.e2b && !byE2b.has(field.e2b)) byE2b.set(field.e2b, field);
  }
  return { byPath, byE2b };
}

/** The field a reference names, or a reason it names none. */
export function resolveFieldRef(ref: FieldRef, index: FieldIndex): FieldInfo | string {
  if (typeof ref.field === 'string') {
    let normalised: string;
    try {
      normalised = formatDataPath(
        parseDataPath(ref.field).map((segment) => (/^\d+$/.test(segment) ? '*' : segment)),
      );
    } catch {
      return `bad path "${ref.field}"`;
    }
    return index.byPath.get(normalised) ?? `no field at path "${ref.field}"`;
  }
  if (typeof ref.e2b === 'string') return index.byE2b.get(ref.e2b) ?? `no field with E2B id "${ref.e2b}"`;
  return 'field or e2b missing';
}
