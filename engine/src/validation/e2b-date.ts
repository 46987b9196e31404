/**
 * The `x-e2b-date` keyword: `{ minPrecision, maxPrecision }` on a string holding an E2B date
 * `CCYY[MM[DD[hh[mm[ss]]]]][+/-ZZzz]`. Precisions are year, month, day, hour, minute, second
 * (or the digit counts 4, 6, 8, 10, 12, 14). Checks format, calendar, precision range, time zone,
 * and that the date is not in the future relative to `now` (the `this.now` of the validation call,
 * epoch milliseconds, else the clock).
 */
import { _ } from 'ajv/dist/compile/codegen';
import { _Code } from 'ajv/dist/compile/codegen/code';
import type { Code } from 'ajv/dist/compile/codegen';
import type { KeywordCxt, KeywordDefinition } from 'ajv';

export const PRECISION_DIGITS: Record<string, number> = {
  year: 4,
  month: 6,
  day: 8,
  hour: 10,
  minute: 12,
  second: 14,
};

export type E2bDateProblem = 'format' | 'calendar' | 'timezone' | 'precisionMin' | 'precisionMax' | 'future';

/**
 * Self-contained on purpose (no imports, no closure): its source text is embedded into the
 * standalone validators generated for the browser.
 */
export function e2bDateProblem(
  value: unknown,
  minDigits: number,
  maxDigits: number,
  now: number,
): E2bDateProblem | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4,14})(?:([+-])(\d{2})(\d{2}))?$/.exec(value);
  if (!match) return 'format';
  const digits = match[1] as string;
  if (digits.length % 2 !== 0) return 'format';
  // No inner functions: bundlers decorate them (e.g. __name) and the source must run standalone.
  const year = Number(digits.slice(0, 4));
  const month = digits.length >= 6 ? Number(digits.slice(4, 6)) : 1;
  const day = digits.length >= 8 ? Number(digits.slice(6, 8)) : 1;
  const hour = digits.length >= 10 ? Number(digits.slice(8, 10)) : 0;
  const minute = digits.length >= 12 ? Number(digits.slice(10, 12)) : 0;
  const second = digits.length >= 14 ? Number(digits.slice(12, 14)) : 0;
  const monthDays = [
    31,
    year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  if (
    year < 1800 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > (monthDays[month - 1] as number) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return 'calendar';
  }
  if (match[2] && (Number(match[3]) > 14 || Number(match[4]) > 59)) return 'timezone';
  if (digits.length < minDigits) return 'precisionMin';
  if (digits.length > maxDigits) return 'precisionMax';
  // Earliest instant the value can mean; without a time zone allow the widest offset (UTC+14).
  const offsetMinutes = match[2]
    ? (match[2] === '-' ? -1 : 1) * (Number(match[3]) * 60 + Number(match[4]))
    : 14 * 60;
  const earliest = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60000;
  return earliest > now ? 'future' : null;
}

export interface E2bDateSchema {
  minPrecision?: string | number;
  maxPrecision?: string | number;
  /** Set false for dates that may lie ahead (expiry dates, expected confinement). */
  notFuture?: boolean;
}

export function precisionDigits(precision: string | number | undefined, fallback: number): number {
  if (precision === undefined) return fallback;
  if (typeof precision === 'number') return precision;
  const digits = PRECISION_DIGITS[precision];
  if (digits === undefined) throw new Error(`x-e2b-date: unknown precision "${precision}"`);
  return digits;
}

/** The embedded function in generated code: its own source, so standalone output carries it. */
const problemFunctionSource = e2bDateProblem.toString();

/** Called when a validator runs without `this.now`: the engine reads no clock, its caller passes one. */
function missingNow(): never {
  throw new Error('x-e2b-date: call the validator as validate.call({ now: epochMs }, value)');
}
const missingNowSource = `(function missingNow() { throw new Error(${JSON.stringify(
  'x-e2b-date: call the validator as validate.call({ now: epochMs }, value)',
)}); })`;

export const e2bDateKeyword: KeywordDefinition = {
  keyword: 'x-e2b-date',
  type: 'string',
  schemaType: 'object',
  errors: true,
  error: {
    message: ({ params }) => _`"E2B date: " + ${params.problem}`,
    params: ({ params }) =>
      _`{problem: ${params.problem}, minPrecision: ${params.minPrecision}, maxPrecision: ${params.maxPrecision}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    const config = schema as E2bDateSchema;
    const min = precisionDigits(config.minPrecision, 4);
    const max = precisionDigits(config.maxPrecision, 14);
    const notFuture = config.notFuture !== false;
    const fn = gen.scopeValue('func', {
      ref: e2bDateProblem,
      code: new _Code(`(${problemFunctionSource})`),
    });
    const noNow = gen.scopeValue('func', { ref: missingNow, code: new _Code(missingNowSource) });
    // `this.now` is set by the caller (passContext); Infinity disables the future check for this keyword.
    const now: Code = notFuture
      ? _`(this && typeof this.now === "number" ? this.now : ${noNow}())`
      : _`Infinity`;
    const problem = gen.const('problem', _`${fn}(${data}, ${min}, ${max}, ${now})`);
    cxt.setParams({ problem, minPrecision: min, maxPrecision: max });
    cxt.fail(_`${problem} !== null`);
  },
};
