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

/** The typed form of each precision, in ISO order whatever the display language. */
export const PRECISION_PATTERN: Record<Precision, string> = {
  year: 'YYYY',
  month: 'YYYY-MM',
  day: 'YYYY-MM-DD',
  hour: 'YYYY-MM-DD hh',
  minute: 'YYYY-MM-DD hh:mm',
  second: 'YYYY-MM-DD hh:mm:ss',
};

/** Digits (CCYY[MM[DD[hh[mm[ss]]]]]) as typed text in ISO order: `20261120` -> `2026-11-20`. */
export function textFromDigits(digits: string): string {
  const p = (from: number, to: number) => digits.slice(from, to);
  let text = p(0, 4);
  if (digits.length >= 6) text += `-${p(4, 6)}`;
  if (digits.length >= 8) text += `-${p(6, 8)}`;
  if (digits.length >= 10) text += ` ${p(8, 10)}`;
  if (digits.length >= 12) text += `:${p(10, 12)}`;
  if (digits.length >= 14) text += `:${p(12, 14)}`;
  return text;
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Typed text -> E2B digits and the precision it carries, or null when it is not a real date:
 * `2026`, `2026-11`, `2026-11-20`, `2026-11-20 10`, `2026-11-20 10:30`, `2026-11-20 10:30:15`;
 * `/`, `.` and `T` separate too, and bare E2B digits (`20261120`) are taken as they are.
 */
export function parseTypedDate(text: string): { digits: string; precision: Precision } | null {
  const trimmed = text.trim();
  let parts: string[];
  if (/^\d+$/.test(trimmed)) {
    if (![4, 6, 8, 10, 12, 14].includes(trimmed.length)) return null;
    parts = trimmed.match(/^\d{4}|\d{2}/g) ?? [];
  } else {
    const match =
      /^(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2})(?:[ T](\d{1,2})(?::(\d{1,2})(?::(\d{1,2}))?)?)?)?)?$/.exec(
        trimmed,
      );
    if (!match) return null;
    parts = match.slice(1).filter((part): part is string => part !== undefined);
  }
  const [year, month, day, hour, minute, second] = parts.map(Number);
  if (year === undefined || year < 1000) return null;
  if (month !== undefined && (month < 1 || month > 12)) return null;
  if (day !== undefined && (day < 1 || day > daysIn(year, month!))) return null;
  if (hour !== undefined && hour > 23) return null;
  if (minute !== undefined && minute > 59) return null;
  if (second !== undefined && second > 59) return null;
  const digits = parts.map((part, i) => (i === 0 ? part : part.padStart(2, '0'))).join('');
  const precision = PRECISIONS.find((x) => PRECISION_DIGITS[x] === digits.length)!;
  return { digits, precision };
}
