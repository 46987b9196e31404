/**
 * The case fields an import template may map a sheet column to, by E2B id: every leaf of the case
 * schema that carries `x-e2b` and repeats at most twice (a reaction, a drug, a drug's dosage). Read
 * from the case schema, so a field added there is importable without code.
 */
import { codelists, walkCaseSchema } from '../case-model';
import type { BilingualLabel } from '../case-model';

export type IntakeValueType = 'text' | 'number' | 'integer' | 'boolean' | 'date' | 'code';

export interface IntakeField {
  /** E2B id (D.5, E.i.1.1a, G.k.2.2 ...). */
  e2b: string;
  /** Document pointer with `*` for array indexes (`/reactions/*\/reactionNative`). */
  pointer: string;
  type: IntakeValueType;
  /** Code list of a code field (schemas/codelists). */
  codelist?: string;
  label: BilingualLabel;
  maxLength?: number;
}

let catalogue: Map<string, IntakeField> | null = null;

function typeOf(schema: Record<string, unknown>): IntakeValueType | null {
  if (typeof schema['x-codelist'] === 'string') return 'code';
  if (schema['x-e2b-date']) return 'date';
  switch (schema['type']) {
    case 'string':
      return 'text';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    default:
      return null;
  }
}

/** Every importable field by E2B id (the first declaration of an id wins). */
export function intakeFields(): ReadonlyMap<string, IntakeField> {
  if (catalogue) return catalogue;
  const found = new Map<string, IntakeField>();
  walkCaseSchema((property) => {
    const e2b = property.schema['x-e2b'];
    if (typeof e2b !== 'string' || found.has(e2b)) return;
    if (property.schema['x-internal'] || property.schema['x-ref'] || property.schema['x-file']) return;
    if ((property.pointer.match(/\/\*/g) ?? []).length > 2) return;
    const type = typeOf(property.schema);
    if (!type) return;
    const codelist = property.schema['x-codelist'];
    if (type === 'code' && !(typeof codelist === 'string' && codelists[codelist])) return;
    const label = (property.schema['x-label'] as BilingualLabel | undefined) ?? { zh: e2b, en: e2b };
    const maxLength = property.schema['maxLength'];
    found.set(e2b, {
      e2b,
      pointer: property.pointer,
      type,
      ...(type === 'code' ? { codelist: codelist as string } : {}),
      label,
      ...(typeof maxLength === 'number' ? { maxLength } : {}),
    });
  });
  catalogue = found;
  return found;
}

/** The unit field paired with an amount (D.2.2a -> D.2.2b, G.k.4.r.1a -> G.k.4.r.1b), if declared. */
export function unitFieldOf(e2b: string): IntakeField | undefined {
  if (!e2b.endsWith('a')) return undefined;
  return intakeFields().get(`${e2b.slice(0, -1)}b`);
}
