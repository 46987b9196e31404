/**
 * Report-code generators (SPEC 3 and 9): a code is the country code, the company or regulator
 * name and the number, separated by hyphens (`CN-ACME-2026000123`). The number is the counter's
 * period (cycle none, year, year-month, year-month-day, short year) followed by the counter value
 * zero-padded to the configured length; the counter restarts at the start value each period.
 * Pure: the server keeps the counters and hands out values atomically.
 */

export type ReportCodeCycle = 'none' | 'year' | 'yearMonth' | 'yearMonthDay' | 'shortYear';
export const REPORT_CODE_CYCLES: readonly ReportCodeCycle[] = [
  'none',
  'year',
  'yearMonth',
  'yearMonthDay',
  'shortYear',
];

export interface ReportCodeGenerator {
  /** ISO 3166-1 alpha-2 country code, upper case. */
  countryCode: string;
  /** Company or regulator name part: letters, digits, no hyphen. */
  organisation: string;
  cycle: ReportCodeCycle;
  /** Digits of the counter value (1 to 12). */
  length: number;
  /** First value of each period. */
  startValue: number;
}

export interface GeneratorProblem {
  field: keyof ReportCodeGenerator;
  messageKey: string;
}

/** Problems of a generator's settings; empty when it can produce codes. */
export function checkGenerator(generator: ReportCodeGenerator): GeneratorProblem[] {
  const problems: GeneratorProblem[] = [];
  if (!/^[A-Z]{2}$/.test(generator.countryCode))
    problems.push({ field: 'countryCode', messageKey: 'reportCodes.countryCode' });
  if (!/^[A-Za-z0-9_.]{1,40}$/.test(generator.organisation))
    problems.push({ field: 'organisation', messageKey: 'reportCodes.organisation' });
  if (!REPORT_CODE_CYCLES.includes(generator.cycle))
    problems.push({ field: 'cycle', messageKey: 'reportCodes.cycle' });
  if (!Number.isInteger(generator.length) || generator.length < 1 || generator.length > 12)
    problems.push({ field: 'length', messageKey: 'reportCodes.length' });
  if (
    !Number.isInteger(generator.startValue) ||
    generator.startValue < 0 ||
    String(generator.startValue).length > generator.length
  ) {
    problems.push({ field: 'startValue', messageKey: 'reportCodes.startValue' });
  }
  return problems;
}

/** The counter period a date falls in, in the generator's time zone offset (minutes east of UTC). */
export function periodOf(cycle: ReportCodeCycle, date: Date, utcOffsetMinutes = 0): string {
  const local = new Date(date.getTime() + utcOffsetMinutes * 60_000);
  const y = String(local.getUTCFullYear());
  const m = String(local.getUTCMonth() + 1).padStart(2, '0');
  const d = String(local.getUTCDate()).padStart(2, '0');
  switch (cycle) {
    case 'none':
      return '';
    case 'year':
      return y;
    case 'yearMonth':
      return y + m;
    case 'yearMonthDay':
      return y + m + d;
    case 'shortYear':
      return y.slice(2);
  }
}

/** The largest value the counter can take (all nines of the length). */
export function maxValue(generator: ReportCodeGenerator): number {
  return 10 ** generator.length - 1;
}

/** The code for a counter value in a period. */
export function formatReportCode(generator: ReportCodeGenerator, period: string, value: number): string {
  return `${generator.countryCode}-${generator.organisation}-${period}${String(value).padStart(generator.length, '0')}`;
}
