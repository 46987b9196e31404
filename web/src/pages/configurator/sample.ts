/**
 * Sample data for the form designer's preview: one plausible value per laid-out field of a tab
 * (first code of a code list, a date of the field's precision, the label as text), one item per
 * repeating group, so the configured tab shows filled in as a case would.
 */
import { allowedCodes, codelists } from '@pv/engine';
import type { CaseJsonSchema, CaseTab } from '@pv/engine';
import { setAt } from '../../case-form';

const PRECISION_DIGITS: Record<string, number> = {
  year: 4,
  month: 6,
  day: 8,
  hour: 10,
  minute: 12,
  second: 14,
};
const SAMPLE_MOMENT = '20240115093000';

function sampleValue(schema: CaseJsonSchema, pointer: string): unknown {
  // The project's subset of a code list counts: the sample must be a value the form accepts.
  if (typeof schema['x-codelist'] === 'string') {
    const fits = (code: string) => typeof schema.maxLength !== 'number' || code.length <= schema.maxLength;
    return allowedCodes(schema, codelists)?.find((value) => fits(value.code))?.code;
  }
  const date = schema['x-e2b-date'] as { minPrecision?: string; maxPrecision?: string } | undefined;
  if (date) return SAMPLE_MOMENT.slice(0, PRECISION_DIGITS[date.maxPrecision ?? 'day'] ?? 8);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return 1;
  if (type !== 'string') return undefined;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  // A formatted text gets a value of its format (the configuration's validators check it).
  if (schema.format === 'email') return 'sample@example.org';
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000001';
  const label = schema['x-label'] as { zh?: string } | undefined;
  const text = label?.zh ?? pointer.slice(pointer.lastIndexOf('/') + 1);
  return typeof schema.maxLength === 'number' ? text.slice(0, schema.maxLength) : text;
}

/** A case document with a sample value in every field the tab lays out (first item of each list). */
export function sampleCase(tab: CaseTab): Record<string, unknown> {
  let doc: unknown = {};
  for (const group of tab.groups)
    for (const pointer of group.fields) {
      const schema = group.properties?.[pointer];
      if (!schema || schema.pattern) continue;
      const value = sampleValue(schema, pointer);
      if (value !== undefined) doc = setAt(doc, pointer.replace(/\*/g, '0'), value);
    }
  return doc as Record<string, unknown>;
}
