/** AJV errors -> findings with field path, E2B id, rule id, severity and zh/en messages. */
import type { ErrorObject } from 'ajv';
import { pointerToFieldPath, tokensToPointer } from '../schema-registry/schema-set';
import type { FieldIndex } from '../rules/field-index';
import type { Finding } from './finding';
import { catalogueMessage } from './messages';

const DATE_FORMATS: Record<number, string> = {
  4: 'CCYY',
  6: 'CCYYMM',
  8: 'CCYYMMDD',
  10: 'CCYYMMDDhh',
  12: 'CCYYMMDDhhmm',
  14: 'CCYYMMDDhhmmss',
};

const LIMIT_KEYWORDS = new Set([
  'maxLength',
  'minLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
const PLAIN_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'pattern',
  'format',
  'required',
  'additionalProperties',
  ...LIMIT_KEYWORDS,
]);

/**
 * @param basePointer pointer of the validated value inside the case (for field validators), '' for the whole case.
 */
export function findingsFromErrors(
  errors: readonly ErrorObject[] | null | undefined,
  index: FieldIndex,
  basePointer = '',
): Finding[] {
  if (!errors) return [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // if/then/else of the null-flavor expansion: the branch error says it all.
    if (error.keyword === 'if') continue;
    let pointer = basePointer + error.instancePath;
    let messageKey: string;
    let ruleId: string;
    const params: Record<string, string | number> = {};
    const inNullFlavor = /\/then\/(properties\/nullFlavor\/enum|additionalProperties|required|type)$/.test(
      error.schemaPath,
    );
    if (inNullFlavor) {
      if (pointer.endsWith('/nullFlavor')) pointer = pointer.slice(0, -'/nullFlavor'.length);
      messageKey = 'validation.nullFlavor';
      ruleId = 'schema.nullFlavor';
      const allowed =
        (error.keyword === 'enum'
          ? (error.params as { allowedValues?: string[] }).allowedValues
          : undefined) ?? [];
      params.allowed = allowed.join(', ');
    } else if (error.keyword === 'x-e2b-date') {
      const details = error.params as { problem: string; minPrecision: number; maxPrecision: number };
      messageKey = `validation.e2bDate.${details.problem}`;
      ruleId = `schema.e2bDate.${details.problem}`;
      const digits = details.problem === 'precisionMax' ? details.maxPrecision : details.minPrecision;
      params.precision = DATE_FORMATS[digits] ?? String(digits);
    } else if (error.keyword === 'x-maxLength') {
      messageKey = 'validation.maxLength';
      ruleId = 'schema.maxLength';
      params.limit = Number((error.params as { limit: number }).limit);
    } else if (error.keyword === 'x-codes') {
      messageKey = 'validation.enum';
      ruleId = 'schema.codelist';
    } else if (error.keyword === 'required') {
      pointer = `${pointer}${tokensToPointer([(error.params as { missingProperty: string }).missingProperty])}`;
      messageKey = 'validation.required';
      ruleId = 'schema.required';
    } else if (PLAIN_KEYWORDS.has(error.keyword)) {
      messageKey = `validation.${error.keyword}`;
      ruleId = `schema.${error.keyword === 'enum' ? 'codelist' : error.keyword}`;
      const errorParams = error.params as Record<string, unknown>;
      if (LIMIT_KEYWORDS.has(error.keyword)) params.limit = Number(errorParams.limit);
      if (error.keyword === 'type') params.type = String(errorParams.type);
      if (error.keyword === 'format') params.format = String(errorParams.format);
      if (error.keyword === 'additionalProperties') params.property = String(errorParams.additionalProperty);
    } else {
      messageKey = 'validation.other';
      ruleId = `schema.${error.keyword}`;
      params.keyword = error.keyword;
    }
    const key = `${pointer}|${ruleId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const fieldPath = pointerToFieldPath(pointer);
    const field = index.byPath.get(fieldPath);
    params.field = fieldPath;
    if (field?.e2b) params.e2b = field.e2b;
    findings.push({
      path: pointer,
      ...(field?.e2b ? { e2b: field.e2b } : {}),
      ruleId,
      severity: 'error',
      messageKey,
      params,
      message: catalogueMessage(messageKey, params, field?.label),
    });
  }
  return findings;
}
