/**
 * One check per field, built once from its schema when the group schema is built (never per
 * keystroke): what the form says beside a field while the user types. The messages are the
 * engine's validation catalogue and the date check is the engine's own `e2bDateProblem`, so the
 * field says what the server's check will say; the full rule set runs on check and save (server).
 */
import { codelists, e2bDateProblem, validationMessages } from '../../../engine/src/index';
import type { CaseJsonSchema } from '../../../engine/src/index';
import { nowMs } from '../clock';

export interface FieldProblem {
  key: string;
  params: Record<string, string | number>;
}

export type FieldCheck = (value: unknown) => FieldProblem | null;

const DIGITS: Record<string, number> = { year: 4, month: 6, day: 8, hour: 10, minute: 12, second: 14 };
const FORMATS: Record<number, string> = {
  4: 'CCYY',
  6: 'CCYYMM',
  8: 'CCYYMMDD',
  10: 'CCYYMMDDhh',
  12: 'CCYYMMDDhhmm',
  14: 'CCYYMMDDhhmmss',
};

function digitsOf(precision: unknown, fallback: number): number {
  if (typeof precision === 'number') return precision;
  return DIGITS[String(precision)] ?? fallback;
}

function codesOf(name: unknown): Set<string> | null {
  const list = typeof name === 'string' ? codelists[name] : undefined;
  return list ? new Set(list.values.map((v) => v.code)) : null;
}

/** Compiles the check of one field from its schema. */
export function compileFieldCheck(schema: CaseJsonSchema): FieldCheck {
  const checks: FieldCheck[] = [];
  const nullFlavors = new Set((schema['x-nullFlavors'] as string[] | undefined) ?? []);
  const maxLength = (schema.maxLength ?? schema['x-maxLength']) as number | undefined;
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : null;
  const codes = codesOf(schema['x-codelist']);
  const date = schema['x-e2b-date'] as
    { minPrecision?: unknown; maxPrecision?: unknown; notFuture?: boolean } | undefined;
  const type = schema.type;

  if (date) {
    const min = digitsOf(date.minPrecision, 4);
    const max = digitsOf(date.maxPrecision, 14);
    checks.push((value) => {
      const problem = e2bDateProblem(
        value,
        min,
        max,
        date.notFuture === false ? Number.MAX_SAFE_INTEGER : nowMs(),
      );
      if (!problem) return null;
      const digits = problem === 'precisionMax' ? max : min;
      return { key: `e2bDate.${problem}`, params: { precision: FORMATS[digits] ?? String(digits) } };
    });
  }
  if (maxLength !== undefined) {
    checks.push((value) =>
      (typeof value === 'string' || typeof value === 'number') && [...String(value)].length > maxLength
        ? { key: 'maxLength', params: { limit: maxLength } }
        : null,
    );
  }
  if (pattern) {
    checks.push((value) =>
      typeof value === 'string' && !pattern.test(value) ? { key: 'pattern', params: {} } : null,
    );
  }
  if (codes) {
    checks.push((value) =>
      typeof value === 'string' && !codes.has(value) ? { key: 'enum', params: {} } : null,
    );
  }
  if (type === 'integer') {
    checks.push((value) =>
      typeof value === 'number' && !Number.isInteger(value)
        ? { key: 'type', params: { type: 'integer' } }
        : null,
    );
  }
  if (typeof schema.minimum === 'number') {
    const minimum = schema.minimum;
    checks.push((value) =>
      typeof value === 'number' && value < minimum ? { key: 'minimum', params: { limit: minimum } } : null,
    );
  }
  return (value) => {
    if (value === undefined || value === null || value === '') return null;
    if (typeof value === 'object' && !Array.isArray(value) && 'nullFlavor' in value) {
      const flavor = String((value as { nullFlavor: unknown }).nullFlavor);
      return nullFlavors.has(flavor)
        ? null
        : { key: 'nullFlavor', params: { allowed: [...nullFlavors].join(', ') } };
    }
    for (const check of checks) {
      const problem = check(value);
      if (problem) return problem;
    }
    return null;
  };
}

/** The text of a problem in one language, with the field's label. */
export function problemText(problem: FieldProblem, lang: 'zh' | 'en', label: string): string {
  const template = validationMessages[lang][problem.key] ?? problem.key;
  const params: Record<string, string | number> = { ...problem.params, label };
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}
