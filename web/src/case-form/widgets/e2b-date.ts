/**
 * E2B partial dates `CCYY[MM[DD[hh[mm[ss]]]]][+/-ZZzz]` as the date widget edits them: a precision,
 * the calendar parts and an optional time-zone offset.
 */
export const PRECISIONS = ['year', 'month', 'day', 'hour', 'minute', 'second'] as const;
export type Precision = (typeof PRECISIONS)[number];
export const PRECISION_DIGITS: Record<Precision, number> = {
  year: 4,
  month: 6,
  day: 8,
  hour: 10,
  minute: 12,
  second: 14,
};

export interface PartialDate {
  precision: Precision;
  /** Digits in E2B order, at most 14 (CCYYMMDDhhmmss); as many as the precision needs. */
  digits: string;
  /** `+0800`, `-0500`, or '' for none. */
  zone: string;
}

export function parseE2bDate(value: unknown): PartialDate | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}|\d{6}|\d{8}|\d{10}|\d{12}|\d{14})([+-]\d{4})?$/.exec(value);
  if (!match) return null;
  const digits = match[1]!;
  const precision = PRECISIONS.find((p) => PRECISION_DIGITS[p] === digits.length)!;
  return { precision, digits, zone: match[2] ?? '' };
}

/** The E2B string, or '' while the parts do not reach the chosen precision. */
export function formatE2bDate(date: PartialDate): string {
  const need = PRECISION_DIGITS[date.precision];
  if (!/^\d*$/.test(date.digits) || date.digits.length < need) return '';
  return date.digits.slice(0, need) + date.zone;
}

/** Digits of an `<input type="date|month|datetime-local">` value (`2026-11-21T10:30:15`). */
export function digitsFromInput(input: string): string {
  return input.replace(/[-T:]/g, '');
}

/** The native input value for the digits at a precision. */
export function inputFromDigits(digits: string, precision: Precision): string {
  const d = digits.padEnd(14, '0');
  const day = `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
  if (digits.length < PRECISION_DIGITS[precision]) return '';
  switch (precision) {
    case 'year':
      return d.slice(0, 4);
    case 'month':
      return `${d.slice(0, 4)}-${d.slice(4, 6)}`;
    case 'day':
      return day;
    case 'hour':
    case 'minute':
      return `${day}T${d.slice(8, 10)}:${d.slice(10, 12)}`;
    case 'second':
      return `${day}T${d.slice(8, 10)}:${d.slice(10, 12)}:${d.slice(12, 14)}`;
  }
}

/** Offsets offered in the zone picker: every quarter hour that exists somewhere, -12:00 .. +14:00. */
export const ZONES: string[] = [
  '-1200',
  '-1100',
  '-1000',
  '-0930',
  '-0900',
  '-0800',
  '-0700',
  '-0600',
  '-0500',
  '-0400',
  '-0330',
  '-0300',
  '-0200',
  '-0100',
  '+0000',
  '+0100',
  '+0200',
  '+0300',
  '+0330',
  '+0400',
  '+0430',
  '+0500',
  '+0530',
  '+0545',
  '+0600',
  '+0630',
  '+0700',
  '+0800',
  '+0845',
  '+0900',
  '+0930',
  '+1000',
  '+1030',
  '+1100',
  '+1200',
  '+1245',
  '+1300',
  '+1400',
];
