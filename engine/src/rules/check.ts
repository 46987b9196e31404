/** Structural checks of a rule before it is stored or compiled (the rule editor shows these). */
import type { FieldInfo } from '../schema-registry/types';
import { buildFieldIndex, resolveFieldRef } from './field-index';
import type { FieldIndex } from './field-index';
import { ASSERTION_KEYS, CONDITION_OPERATORS } from './types';
import type { Condition, Rule } from './types';

const RULE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function checkCondition(condition: unknown, index: FieldIndex, where: string, problems: string[]): void {
  if (condition === null || typeof condition !== 'object') {
    problems.push(`${where}: condition must be an object`);
    return;
  }
  const record = condition as Record<string, unknown>;
  for (const group of ['all', 'any', 'none'] as const) {
    if (group in record) {
      const list = record[group];
      if (!Array.isArray(list) || list.length === 0)
        problems.push(`${where}.${group}: needs a non-empty list`);
      else list.forEach((item, i) => checkCondition(item, index, `${where}.${group}[${i}]`, problems));
      if (Object.keys(record).length !== 1) problems.push(`${where}: "${group}" stands alone`);
      return;
    }
  }
  const operators = CONDITION_OPERATORS.filter((operator) => operator in record);
  if (operators.length !== 1) {
    problems.push(`${where}: needs exactly one of ${CONDITION_OPERATORS.join(', ')}`);
    return;
  }
  const operator = operators[0]!;
  const value = record[operator];
  if ((operator === 'is' || operator === 'isNot') && !isScalar(value))
    problems.push(`${where}.${operator}: needs a string, number or boolean`);
  if ((operator === 'in' || operator === 'notIn') && (!Array.isArray(value) || !value.every(isScalar)))
    problems.push(`${where}.${operator}: needs a list of values`);
  if ((operator === 'empty' || operator === 'notEmpty' || operator === 'nullFlavored') && value !== true)
    problems.push(`${where}.${operator}: must be true`);
  const field = resolveFieldRef(record as Condition & { field?: string; e2b?: string }, index);
  if (typeof field === 'string') problems.push(`${where}: ${field}`);
}

export function checkRule(rule: Rule, fields: readonly FieldInfo[] | FieldIndex): string[] {
  const index = Array.isArray(fields) ? buildFieldIndex(fields) : (fields as FieldIndex);
  const problems: string[] = [];
  if (!rule || typeof rule !== 'object') return ['rule must be an object'];
  if (typeof rule.id !== 'string' || !RULE_ID.test(rule.id))
    problems.push('id: letters, digits, dot, dash or underscore');
  if (rule.severity !== 'error' && rule.severity !== 'warning') problems.push('severity: error or warning');
  if (
    !rule.message ||
    typeof rule.message.zh !== 'string' ||
    !rule.message.zh.trim() ||
    typeof rule.message.en !== 'string' ||
    !rule.message.en.trim()
  ) {
    problems.push('message: zh and en required');
  }
  const target = resolveFieldRef(
    {
      ...(rule.path !== undefined ? { field: rule.path } : {}),
      ...(rule.e2b !== undefined ? { e2b: rule.e2b } : {}),
    },
    index,
  );
  if (typeof target === 'string') problems.push(`target: ${target}`);
  if (rule.when !== undefined) checkCondition(rule.when, index, 'when', problems);
  const then = (rule.then ?? {}) as Record<string, unknown>;
  const assertions = ASSERTION_KEYS.filter((key) => key in then);
  if (assertions.length !== 1) {
    problems.push(`then: needs exactly one of ${ASSERTION_KEYS.join(', ')}`);
    return problems;
  }
  const assertion = assertions[0]!;
  const value = then[assertion];
  switch (assertion) {
    case 'required':
    case 'empty':
    case 'integer':
      if (value !== true) problems.push(`then.${assertion}: must be true`);
      break;
    case 'equals':
      if (!isScalar(value)) problems.push('then.equals: needs a string, number or boolean');
      break;
    case 'in':
      if (!Array.isArray(value) || !value.every(isScalar)) problems.push('then.in: needs a list of values');
      break;
    case 'pattern':
      try {
        new RegExp(String(value), 'u');
      } catch {
        problems.push('then.pattern: not a valid regular expression');
      }
      if (typeof value !== 'string') problems.push('then.pattern: needs a string');
      break;
    case 'maxBlankItems':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
        problems.push('then.maxBlankItems: a whole number >= 0');
      break;
    case 'after':
    case 'together': {
      const other = resolveFieldRef((value ?? {}) as Record<string, string>, index);
      if (typeof other === 'string') problems.push(`then.${assertion}: ${other}`);
      break;
    }
    case 'count': {
      const count = (value ?? {}) as { where?: unknown; min?: unknown; max?: unknown };
      if (count.min === undefined && count.max === undefined) problems.push('then.count: min or max');
      for (const bound of ['min', 'max'] as const) {
        if (
          count[bound] !== undefined &&
          (typeof count[bound] !== 'number' || !Number.isInteger(count[bound]))
        )
          problems.push(`then.count.${bound}: whole number`);
      }
      if (count.where !== undefined) checkCondition(count.where, index, 'then.count.where', problems);
      break;
    }
  }
  if (
    (assertion === 'maxBlankItems' || assertion === 'count') &&
    typeof target !== 'string' &&
    target.kind !== 'array'
  ) {
    problems.push(`then.${assertion}: target must be a repeating section`);
  }
  return problems;
}
