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

export function fieldFormat(schema: CaseJsonSchema | undefined): ValueFormat {
  if (!schema) return {};
  const items = (schema.items ?? {}) as CaseJsonSchema;
  const codelist = schema['x-codelist'] ?? schema['x-suggest-codelist'] ?? items['x-codelist'];
  return {
    ...(typeof codelist === 'string' ? { codelist } : {}),
    ...(schema['x-e2b-date'] ? { format: 'e2bDate' as const } : {}),
  };
}

export function fieldValueText(
  schema: CaseJsonSchema | undefined,
  value: unknown,
  pick: (text: LocalisedText) => string,
  t: (key: string) => string,
): string {
  return valueText(value, fieldFormat(schema), pick, t);
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
): string {
  if (value === undefined || value === null) return '';
  const scalar = (v: unknown) => v === null || typeof v !== 'object' || 'nullFlavor' in (v as object);
  if (!scalar(value) && !(Array.isArray(value) && value.every(scalar))) return JSON.stringify(value);
  return fieldValueText(getCaseProperty(path.replace(/\/\d+(?=\/|$)/g, '/*')), value, pick, t);
}
