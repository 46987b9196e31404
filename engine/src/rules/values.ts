/** Value semantics shared by conditions and assertions. */
import type { Scalar } from './types';

/**
 * Empty: missing, null, blank text, an empty list, or an object whose members are all empty.
 * A null-flavored value (`{"nullFlavor": "UNK"}`) is filled: the sender says why there is no value.
 */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number' || typeof value === 'boolean') return false;
  if (Array.isArray(value)) return value.every(isEmpty);
  const record = value as Record<string, unknown>;
  if (record.nullFlavor !== undefined && record.nullFlavor !== null && record.nullFlavor !== '') return false;
  for (const key in record) if (!isEmpty(record[key])) return false;
  return true;
}

export function isNullFlavored(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof (value as { nullFlavor?: unknown }).nullFlavor === 'string'
  );
}

/** Value assertions (equals, in, integer, pattern) leave missing and null-flavored values to other checks. */
export function hasNoValue(value: unknown): boolean {
  return isEmpty(value) || isNullFlavored(value);
}

/** Codes are compared as text so that a rule saying `2` matches a stored `"2"`. */
export function sameValue(value: unknown, expected: Scalar): boolean {
  if (value === null || value === undefined || typeof value === 'object') return false;
  return value === expected || String(value) === String(expected);
}

const E2B_DATE = /^(\d{4,14})(?:\.\d+)?(?:[+-]\d{4})?$/;

/**
 * Compares two E2B dates on the precision both carry (time zones ignored: the same sender writes both).
 * Returns undefined when either is not a date or when the shared precision cannot decide (2024 vs 202403).
 */
export function compareE2bDates(left: unknown, right: unknown): -1 | 0 | 1 | undefined {
  if (typeof left !== 'string' || typeof right !== 'string') return undefined;
  const a = E2B_DATE.exec(left)?.[1];
  const b = E2B_DATE.exec(right)?.[1];
  if (!a || !b) return undefined;
  const length = Math.min(a.length, b.length);
  const x = a.slice(0, length);
  const y = b.slice(0, length);
  if (x < y) return -1;
  if (x > y) return 1;
  return a.length === b.length ? 0 : undefined;
}

export function isIntegerValue(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  if (typeof value === 'string') return /^[+-]?\d+$/.test(value.trim());
  return false;
}
