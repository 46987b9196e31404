/**
 * A case field's value as words, by its schema: code-list codes as labels, yes/no for booleans,
 * E2B dates in ISO order, null flavors as their code - in the display language. Item headers of
 * repeated sections and the case history read values through it.
 */
import { getCaseProperty } from '@pv/engine';
import type { CaseJsonSchema } from '@pv/engine';
import type { LocalisedText } from '../i18n';
import { valueText } from '../display/values';
import type { ValueFormat } from '../display/values';
import { NAME_KINDS } from '../display/names';
import type { NameKind } from '../display/names';

/** The name of a referenced object (useNames' `name`): '' while being read. */
export type NameOf = (kind: NameKind, id: unknown) => string;

export function fieldFormat(schema: CaseJsonSchema | undefined): ValueFormat {
  if (!schema) return {};
  const items = (schema.items ?? {}) as CaseJsonSchema;
  const codelist = schema['x-codelist'] ?? schema['x-suggest-codelist'] ?? items['x-codelist'];
  const ref = schema['x-name-kind'];
  return {
    ...(typeof codelist === 'string' ? { codelist } : {}),
    ...(NAME_KINDS.includes(ref as NameKind) ? { ref: ref as NameKind } : {}),
    ...(schema['x-e2b-date'] ? { format: 'e2bDate' as const } : {}),
  };
}

export function fieldValueText(
  schema: CaseJsonSchema | undefined,
  value: unknown,
  pick: (text: LocalisedText) => string,
  t: (key: string) => string,
  name?: NameOf,
): string {
  const format = fieldFormat(schema);
  if (format.ref && name && typeof value === 'string' && value) return name(format.ref, value);
  return valueText(value, format, pick, t);
}

/** The kind of object a case field at a concrete path refers to by id, if it does. */
export function caseFieldRef(path: string): NameKind | undefined {
  return fieldFormat(getCaseProperty(path.replace(/\/\d+(?=\/|$)/g, '/*'))).ref;
}

/**
 * A value of the case at a concrete path (a version comparison's `/drugs/0/isClinicalDrug`, read
 * by the schema of `/drugs/*\/isClinicalDrug`); objects other than null flavors stay JSON.
 */
export function changedValueText(
  path: string,
  value: unknown,
  pick: (text: LocalisedText) => string,
  t: (key: string) => string,
  name?: NameOf,
): string {
  if (value === undefined || value === null) return '';
  const scalar = (v: unknown) => v === null || typeof v !== 'object' || 'nullFlavor' in (v as object);
  if (!scalar(value) && !(Array.isArray(value) && value.every(scalar))) return JSON.stringify(value);
  return fieldValueText(getCaseProperty(path.replace(/\/\d+(?=\/|$)/g, '/*')), value, pick, t, name);
}
