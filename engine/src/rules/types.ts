/**
 * The rule format of schemas/rules/<profile>.json (documented in schemas/rules/README.md).
 * Pure data: no expressions, no code; the interpreter in this folder gives it meaning.
 */
import type { BilingualText } from '../schema-registry/types';
import type { Severity } from '../validation/finding';

export type Scalar = string | number | boolean;

/** A field named by data path (`drugs[*].isBlind`) or by E2B id (`G.k.2.5`). */
export interface FieldRef {
  field?: string;
  e2b?: string;
}

/** Exactly one operator per field condition. */
export interface FieldCondition extends FieldRef {
  is?: Scalar;
  isNot?: Scalar;
  in?: Scalar[];
  notIn?: Scalar[];
  empty?: true;
  notEmpty?: true;
  /** The sender said why there is no value (`{"nullFlavor": "UNK"}`). */
  nullFlavored?: true;
}

export type Condition = FieldCondition | { all: Condition[] } | { any: Condition[] } | { none: Condition[] };

/** Exactly one assertion per rule (`orEqual` qualifies `after`). */
export interface Assertion {
  required?: true;
  empty?: true;
  equals?: Scalar;
  in?: Scalar[];
  /** The target date is later than this field's date. */
  after?: FieldRef;
  orEqual?: boolean;
  integer?: true;
  pattern?: string;
  /** On a repeating section: at most this many fully blank items. */
  maxBlankItems?: number;
  /** Value and unit: when one of the two is filled, so is the other. */
  together?: FieldRef;
  /** On a repeating section: how many items satisfy `where` (all items without `where`). */
  count?: { where?: Condition; min?: number; max?: number };
}

export interface Rule {
  id: string;
  severity: Severity;
  /** Target field, by path or by E2B id (at least one). */
  path?: string;
  e2b?: string;
  when?: Condition;
  then: Assertion;
  message: BilingualText;
  /** Where the rule comes from (SPEC section, ICH table, FDA error id ...). */
  source?: string;
}

export interface RuleSet {
  profile: string;
  label: BilingualText;
  rules: Rule[];
}

export const ASSERTION_KEYS = [
  'required',
  'empty',
  'equals',
  'in',
  'after',
  'integer',
  'pattern',
  'maxBlankItems',
  'together',
  'count',
] as const;
export const CONDITION_OPERATORS = [
  'is',
  'isNot',
  'in',
  'notIn',
  'empty',
  'notEmpty',
  'nullFlavored',
] as const;
