/**
 * The rule interpreter: each rule is compiled once per configuration into closures over
 * pre-parsed paths, then run against case documents.
 *
 * Scope: the rule's target path fixes the items the rule runs for (`drugs[*].dosages[*].startDate`
 * runs once per dosage of each drug). A condition field that shares the target's leading path binds
 * to the same items (`drugs[*].isBlind` is the blind flag of that drug); any other `[*]` in a
 * condition field means "some item" (a negative operator means "no item").
 */
import { parseDataPath, tokensToPointer } from '../schema-registry/schema-set';
import type { FieldInfo } from '../schema-registry/types';
import type { Finding } from '../validation/finding';
import { resolveFieldRef } from './field-index';
import type { FieldIndex } from './field-index';
import { checkRule } from './check';
import type { Condition, FieldCondition, FieldRef, Rule } from './types';
import { compareE2bDates, isEmpty, isIntegerValue, sameValue } from './values';

type Binding = readonly number[];
type Test = (doc: unknown, binding: Binding) => boolean;

interface BoundPath {
  segments: string[];
  /** How many leading `[*]` take their index from the target's binding. */
  bound: number;
}

export interface CompiledRule {
  rule: Rule;
  field: FieldInfo;
  /** Data paths (with `[*]`) whose change can change the rule's outcome. */
  reads: string[];
  run(doc: unknown, out: Finding[]): void;
  /** Runs the rule only for the items a changed field (path and indices of its `[*]`) belongs to. */
  runWithin(doc: unknown, fieldSegments: readonly string[], fieldBinding: Binding, out: Finding[]): void;
}

export interface RuleCompileProblem {
  ruleId: string;
  problems: string[];
}

export interface CompiledRules {
  rules: CompiledRule[];
  problems: RuleCompileProblem[];
  /** Rules by every field path they read, for checking one changed field. */
  byField: Map<string, CompiledRule[]>;
}

function sharedStars(target: readonly string[], other: readonly string[]): number {
  let stars = 0;
  for (let i = 0; i < target.length && i < other.length; i++) {
    if (target[i] !== other[i]) break;
    if (target[i] === '*') stars++;
  }
  return stars;
}

/** A missing parent object reads as missing members, so "required" fires for a field of an absent section. */
function childOf(current: unknown, name: string): unknown {
  return current !== null && typeof current === 'object' && !Array.isArray(current)
    ? (current as Record<string, unknown>)[name]
    : undefined;
}

/** Calls `visit` for every value at the path (missing leaves included as undefined). */
function eachValue(
  node: unknown,
  path: BoundPath,
  binding: Binding,
  visit: (value: unknown) => boolean | void,
): boolean {
  const { segments, bound } = path;
  const step = (current: unknown, i: number, star: number): boolean => {
    if (i === segments.length) return visit(current) === true;
    const segment = segments[i]!;
    if (segment === '*') {
      if (!Array.isArray(current)) return false;
      if (star < bound) return step(current[binding[star]!], i + 1, star + 1);
      for (let k = 0; k < current.length; k++) if (step(current[k], i + 1, star + 1)) return true;
      return false;
    }
    return step(childOf(current, segment), i + 1, star);
  };
  return step(node, 0, 0);
}

/** Every instance of a path: value, indices of its `[*]`s and JSON pointer tokens. */
function eachInstance(
  doc: unknown,
  segments: readonly string[],
  visit: (value: unknown, binding: number[], tokens: string[]) => void,
  prefix: Binding = [],
): void {
  const binding: number[] = [];
  const tokens: string[] = [];
  const step = (current: unknown, i: number): void => {
    if (i === segments.length) {
      visit(current, binding, tokens);
      return;
    }
    const segment = segments[i]!;
    if (segment === '*') {
      if (!Array.isArray(current)) return;
      const fixed = binding.length < prefix.length ? prefix[binding.length]! : -1;
      for (
        let k = fixed >= 0 ? fixed : 0;
        k < (fixed >= 0 ? Math.min(fixed + 1, current.length) : current.length);
        k++
      ) {
        binding.push(k);
        tokens.push(String(k));
        step(current[k], i + 1);
        binding.pop();
        tokens.pop();
      }
      return;
    }
    tokens.push(segment);
    step(childOf(current, segment), i + 1);
    tokens.pop();
  };
  step(doc, 0);
}

/** JSON pointer of a path whose `[*]`s are all bound. */
function boundPointer(segments: readonly string[], binding: Binding): string {
  let star = 0;
  return tokensToPointer(segments.map((segment) => (segment === '*' ? String(binding[star++]) : segment)));
}

function valuesAt(doc: unknown, path: BoundPath, binding: Binding): unknown[] {
  const values: unknown[] = [];
  eachValue(doc, path, binding, (value) => {
    values.push(value);
  });
  return values;
}

class RuleCompiler {
  reads = new Set<string>();
  constructor(
    private readonly index: FieldIndex,
    private readonly scope: readonly string[],
  ) {}

  field(ref: FieldRef): BoundPath {
    const field = resolveFieldRef(ref, this.index) as FieldInfo;
    this.reads.add(field.path);
    const segments = parseDataPath(field.path);
    return { segments, bound: sharedStars(this.scope, segments) };
  }

  condition(condition: Condition): Test {
    if ('all' in condition) {
      const tests = condition.all.map((item) => this.condition(item));
      return (doc, binding) => tests.every((test) => test(doc, binding));
    }
    if ('any' in condition) {
      const tests = condition.any.map((item) => this.condition(item));
      return (doc, binding) => tests.some((test) => test(doc, binding));
    }
    if ('none' in condition) {
      const tests = condition.none.map((item) => this.condition(item));
      return (doc, binding) => !tests.some((test) => test(doc, binding));
    }
    const fieldCondition = condition as FieldCondition;
    const path = this.field(fieldCondition);
    const some =
      (match: (value: unknown) => boolean): Test =>
      (doc, binding) =>
        eachValue(doc, path, binding, match);
    if (fieldCondition.is !== undefined) {
      const expected = fieldCondition.is;
      return some((value) => sameValue(value, expected));
    }
    if (fieldCondition.isNot !== undefined) {
      const expected = fieldCondition.isNot;
      const test = some((value) => sameValue(value, expected));
      return (doc, binding) => !test(doc, binding);
    }
    if (fieldCondition.in !== undefined) {
      const expected = fieldCondition.in;
      return some((value) => expected.some((item) => sameValue(value, item)));
    }
    if (fieldCondition.notIn !== undefined) {
      const expected = fieldCondition.notIn;
      const test = some((value) => expected.some((item) => sameValue(value, item)));
      return (doc, binding) => !test(doc, binding);
    }
    const filled = some((value) => !isEmpty(value));
    return fieldCondition.notEmpty ? filled : (doc, binding) => !filled(doc, binding);
  }
}

function compileRule(rule: Rule, index: FieldIndex): CompiledRule {
  const field = resolveFieldRef(
    {
      ...(rule.path !== undefined ? { field: rule.path } : {}),
      ...(rule.e2b !== undefined ? { e2b: rule.e2b } : {}),
    },
    index,
  ) as FieldInfo;
  const segments = parseDataPath(field.path);
  const compiler = new RuleCompiler(index, segments);
  compiler.reads.add(field.path);
  const when = rule.when ? compiler.condition(rule.when) : undefined;
  const then = rule.then;
  const e2b = rule.e2b ?? field.e2b;
  const finding = (pointer: string, params: Record<string, string | number> = {}): Finding => ({
    path: pointer,
    ...(e2b ? { e2b } : {}),
    ruleId: rule.id,
    severity: rule.severity,
    messageKey: `rule.${rule.id}`,
    params,
    message: rule.message,
  });

  // Returns the pointer to report at, or undefined when the assertion holds.
  type Check = (value: unknown, doc: unknown, binding: Binding, pointer: string) => string | undefined;
  let check: Check;
  if (then.required) check = (value, _doc, _binding, pointer) => (isEmpty(value) ? pointer : undefined);
  else if (then.empty) check = (value, _doc, _binding, pointer) => (isEmpty(value) ? undefined : pointer);
  else if (then.equals !== undefined) {
    const expected = then.equals;
    check = (value, _doc, _binding, pointer) =>
      isEmpty(value) || sameValue(value, expected) ? undefined : pointer;
  } else if (then.in !== undefined) {
    const expected = then.in;
    check = (value, _doc, _binding, pointer) =>
      isEmpty(value) || expected.some((item) => sameValue(value, item)) ? undefined : pointer;
  } else if (then.integer)
    check = (value, _doc, _binding, pointer) =>
      isEmpty(value) || isIntegerValue(value) ? undefined : pointer;
  else if (then.pattern !== undefined) {
    const pattern = new RegExp(then.pattern, 'u');
    check = (value, _doc, _binding, pointer) =>
      isEmpty(value) || (typeof value === 'string' && pattern.test(value)) ? undefined : pointer;
  } else if (then.after) {
    const other = compiler.field(then.after);
    const orEqual = then.orEqual === true;
    check = (value, doc, binding, pointer) => {
      if (isEmpty(value)) return undefined;
      const early = valuesAt(doc, other, binding).some((start) => {
        const order = compareE2bDates(value, start);
        return order === -1 || (order === 0 && !orEqual);
      });
      return early ? pointer : undefined;
    };
  } else if (then.together) {
    const other = compiler.field(then.together);
    const otherFullyBound = other.bound === other.segments.filter((segment) => segment === '*').length;
    check = (value, doc, binding, pointer) => {
      const otherFilled = valuesAt(doc, other, binding).some((item) => !isEmpty(item));
      if (isEmpty(value) === !otherFilled) return undefined;
      if (isEmpty(value)) return pointer;
      return otherFullyBound ? boundPointer(other.segments, binding) : pointer;
    };
  } else if (then.maxBlankItems !== undefined) {
    const limit = then.maxBlankItems;
    check = (value, _doc, _binding, pointer) =>
      Array.isArray(value) && value.filter(isEmpty).length > limit ? pointer : undefined;
  } else {
    const count = then.count!;
    const itemCompiler = new RuleCompiler(index, [...segments, '*']);
    const where = count.where ? itemCompiler.condition(count.where) : undefined;
    itemCompiler.reads.forEach((path) => compiler.reads.add(path));
    check = (value, doc, binding, pointer) => {
      const items = Array.isArray(value) ? value : [];
      let n = 0;
      for (let k = 0; k < items.length; k++) if (!where || where(doc, [...binding, k])) n++;
      return (count.min !== undefined && n < count.min) || (count.max !== undefined && n > count.max)
        ? pointer
        : undefined;
    };
  }

  const evaluate = (
    value: unknown,
    doc: unknown,
    binding: Binding,
    tokens: readonly string[],
    out: Finding[],
  ): void => {
    if (when && !when(doc, binding)) return;
    const at = check(value, doc, binding, tokensToPointer(tokens));
    if (at !== undefined) out.push(finding(at));
  };
  return {
    rule,
    field,
    reads: [...compiler.reads],
    run(doc, out) {
      eachInstance(doc, segments, (value, binding, tokens) => evaluate(value, doc, binding, tokens, out));
    },
    runWithin(doc, fieldSegments, fieldBinding, out) {
      const prefix = fieldBinding.slice(0, sharedStars(segments, fieldSegments));
      eachInstance(
        doc,
        segments,
        (value, binding, tokens) => evaluate(value, doc, binding, tokens, out),
        prefix,
      );
    },
  };
}

/** Compiles rules against the fields of one configuration; rules that do not fit are reported, not run. */
export function compileRules(
  rules: readonly Rule[],
  index: FieldIndex,
  disabled: ReadonlySet<string> = new Set(),
): CompiledRules {
  const compiled: CompiledRule[] = [];
  const problems: RuleCompileProblem[] = [];
  const byField = new Map<string, CompiledRule[]>();
  for (const rule of rules) {
    if (disabled.has(rule.id)) continue;
    const ruleProblems = checkRule(rule, index);
    if (ruleProblems.length > 0) {
      problems.push({ ruleId: rule.id, problems: ruleProblems });
      continue;
    }
    const one = compileRule(rule, index);
    if (one.field.hidden) continue;
    compiled.push(one);
    for (const path of one.reads) {
      const list = byField.get(path) ?? [];
      list.push(one);
      byField.set(path, list);
    }
  }
  return { rules: compiled, problems, byField };
}
