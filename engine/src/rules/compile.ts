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
import type { Assertion, Condition, FieldCondition, FieldRef, Rule } from './types';
import { compareE2bDates, hasNoValue, isEmpty, isIntegerValue, isNullFlavored, sameValue } from './values';

type Binding = readonly number[];

/** A condition over the document at one binding; `constant` when it reads no repeating item. */
interface Test {
  (doc: unknown, binding: Binding, item?: unknown): boolean;
  constant: boolean;
}

function test(fn: (doc: unknown, binding: Binding, item?: unknown) => boolean, constant: boolean): Test {
  return Object.assign(fn, { constant });
}

export interface CompiledRule {
  rule: Rule;
  field: FieldInfo;
  /** Target path segments: the rule runs once per instance of this path. */
  segments: readonly string[];
  /** Data paths (with `[*]`) whose change can change the rule's outcome. */
  reads: string[];
  /** False when a condition on the case as a whole rules the rule out for this document. */
  applies(doc: unknown): boolean;
  /** Checks one instance of the target (its value and the indices of its `[*]`). */
  visit(value: unknown, doc: unknown, binding: Binding, out: Finding[], item?: unknown): void;
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
  if (Array.isArray(current)) return /^\d+$/.test(name) ? current[Number(name)] : undefined;
  return current !== null && typeof current === 'object'
    ? (current as Record<string, unknown>)[name]
    : undefined;
}

/**
 * Reads a path at a binding: its first `bound` `[*]`s take the binding's indices, the others range
 * over every item. Paths without free `[*]` read one value without allocating.
 */
class PathReader {
  readonly free: boolean;
  readonly constant: boolean;
  /** Members below the target's item when the path lies in that same item (read without walking from the root). */
  private readonly sibling: readonly string[] | undefined;
  constructor(
    readonly segments: readonly string[],
    readonly bound: number,
    scope: readonly string[] = [],
  ) {
    const stars = segments.filter((segment) => segment === '*').length;
    this.free = stars > bound;
    this.constant = stars === 0;
    const cut = scope.lastIndexOf('*') + 1;
    const rest = segments.slice(cut);
    const sameItem =
      segments.length >= cut && scope.slice(0, cut).every((segment, i) => segments[i] === segment);
    this.sibling = sameItem && !this.free && !rest.includes('*') ? rest : undefined;
  }

  /** The value when the path has no free `[*]`; `item` is the target's item when the caller has it. */
  one(doc: unknown, binding: Binding, item?: unknown): unknown {
    if (item !== undefined && this.sibling) {
      let value: unknown = item;
      for (let i = 0; i < this.sibling.length && value !== undefined; i++)
        value = childOf(value, this.sibling[i]!);
      return value;
    }
    let current = doc;
    let star = 0;
    const segments = this.segments;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      if (segment === '*') {
        if (!Array.isArray(current)) return undefined;
        current = current[binding[star++]!];
      } else current = childOf(current, segment);
      if (current === undefined) return undefined;
    }
    return current;
  }

  /** True when `match` holds for some value at the path (missing values included as undefined). */
  some(doc: unknown, binding: Binding, match: (value: unknown) => boolean, item?: unknown): boolean {
    if (!this.free) return match(this.one(doc, binding, item));
    const { segments, bound } = this;
    const step = (current: unknown, i: number, star: number): boolean => {
      if (i === segments.length) return match(current);
      const segment = segments[i]!;
      if (segment === '*') {
        if (!Array.isArray(current)) return false;
        if (star < bound) return step(current[binding[star]!], i + 1, star + 1);
        for (let k = 0; k < current.length; k++) if (step(current[k], i + 1, star + 1)) return true;
        return false;
      }
      return step(childOf(current, segment), i + 1, star);
    };
    return step(doc, 0, 0);
  }

  values(doc: unknown, binding: Binding): unknown[] {
    if (!this.free) return [this.one(doc, binding)];
    const out: unknown[] = [];
    this.some(doc, binding, (value) => {
      out.push(value);
      return false;
    });
    return out;
  }

  /** JSON pointer at a binding that fixes every `[*]`. */
  pointer(binding: Binding): string {
    let star = 0;
    return tokensToPointer(
      this.segments.map((segment) => (segment === '*' ? String(binding[star++]) : segment)),
    );
  }
}

/** Every instance of a path: its value and the indices of its `[*]`s; `prefix` fixes leading indices. */
function eachInstance(
  doc: unknown,
  segments: readonly string[],
  visit: (value: unknown, binding: number[]) => void,
  prefix: Binding = [],
): void {
  const binding: number[] = [];
  const step = (current: unknown, i: number): void => {
    if (i === segments.length) {
      visit(current, binding);
      return;
    }
    const segment = segments[i]!;
    if (segment === '*') {
      if (!Array.isArray(current)) return;
      const fixed = binding.length < prefix.length ? prefix[binding.length]! : -1;
      const from = fixed >= 0 ? fixed : 0;
      const to = fixed >= 0 ? Math.min(fixed + 1, current.length) : current.length;
      for (let k = from; k < to; k++) {
        binding.push(k);
        step(current[k], i + 1);
        binding.pop();
      }
      return;
    }
    step(childOf(current, segment), i + 1);
  };
  step(doc, 0);
}

class RuleCompiler {
  reads = new Set<string>();
  constructor(
    private readonly index: FieldIndex,
    private readonly scope: readonly string[],
  ) {}

  field(ref: FieldRef): PathReader {
    const field = resolveFieldRef(ref, this.index) as FieldInfo;
    this.reads.add(field.path);
    // A path may name a fixed item (`reporters[0]`); the field index knows it as `reporters[*]`.
    const segments = parseDataPath(typeof ref.field === 'string' ? ref.field : field.path);
    return new PathReader(segments, sharedStars(this.scope, segments), this.scope);
  }

  condition(condition: Condition): Test {
    if ('all' in condition || 'any' in condition || 'none' in condition) {
      const list = 'all' in condition ? condition.all : 'any' in condition ? condition.any : condition.none;
      const tests = list.map((item) => this.condition(item));
      const constant = tests.every((item) => item.constant);
      if ('all' in condition)
        return test((doc, binding, item) => tests.every((one) => one(doc, binding, item)), constant);
      const some = (doc: unknown, binding: Binding, item?: unknown) =>
        tests.some((one) => one(doc, binding, item));
      return 'any' in condition
        ? test(some, constant)
        : test((doc, binding, item) => !some(doc, binding, item), constant);
    }
    const fieldCondition = condition as FieldCondition;
    const reader = this.field(fieldCondition);
    const holds = (match: (value: unknown) => boolean, negate: boolean): Test =>
      test(
        reader.free
          ? (doc, binding) => reader.some(doc, binding, match) !== negate
          : (doc, binding, item) => match(reader.one(doc, binding, item)) !== negate,
        reader.constant,
      );
    if (fieldCondition.is !== undefined || fieldCondition.isNot !== undefined) {
      const expected = (fieldCondition.is ?? fieldCondition.isNot)!;
      return holds((value) => sameValue(value, expected), fieldCondition.is === undefined);
    }
    if (fieldCondition.in !== undefined || fieldCondition.notIn !== undefined) {
      const expected = (fieldCondition.in ?? fieldCondition.notIn)!;
      return holds(
        (value) => expected.some((item) => sameValue(value, item)),
        fieldCondition.in === undefined,
      );
    }
    if (fieldCondition.nullFlavored) return holds(isNullFlavored, false);
    return holds((value) => !isEmpty(value), fieldCondition.notEmpty !== true);
  }
}

/** Outcome of an assertion: true holds, false fails at the target, a string fails at that pointer. */
type Check = (value: unknown, doc: unknown, binding: Binding, item?: unknown) => boolean | string;

function compileCheck(
  then: Assertion,
  compiler: RuleCompiler,
  index: FieldIndex,
  segments: readonly string[],
): Check {
  if (then.required) return (value) => !isEmpty(value);
  if (then.empty) return (value) => isEmpty(value);
  if (then.equals !== undefined) {
    const expected = then.equals;
    return (value) => hasNoValue(value) || sameValue(value, expected);
  }
  if (then.in !== undefined) {
    const expected = then.in;
    return (value) => hasNoValue(value) || expected.some((item) => sameValue(value, item));
  }
  if (then.integer) return (value) => hasNoValue(value) || isIntegerValue(value);
  if (then.pattern !== undefined) {
    const pattern = new RegExp(then.pattern, 'u');
    return (value) => hasNoValue(value) || (typeof value === 'string' && pattern.test(value));
  }
  if (then.after) {
    const start = compiler.field(then.after);
    const orEqual = then.orEqual === true;
    const early = (value: unknown) => (other: unknown) => {
      const order = compareE2bDates(value, other);
      return order === -1 || (order === 0 && !orEqual);
    };
    return (value, doc, binding, item) => isEmpty(value) || !start.some(doc, binding, early(value), item);
  }
  if (then.together) {
    const other = compiler.field(then.together);
    return (value, doc, binding, item) => {
      const otherFilled = other.some(doc, binding, (member) => !isEmpty(member), item);
      if (isEmpty(value) === !otherFilled) return true;
      // Report at the empty one of the pair.
      return isEmpty(value) || other.free ? false : other.pointer(binding);
    };
  }
  if (then.maxBlankItems !== undefined) {
    const limit = then.maxBlankItems;
    return (value) => !Array.isArray(value) || value.filter(isEmpty).length <= limit;
  }
  const count = then.count!;
  const itemCompiler = new RuleCompiler(index, [...segments, '*']);
  const where = count.where ? itemCompiler.condition(count.where) : undefined;
  itemCompiler.reads.forEach((path) => compiler.reads.add(path));
  return (value, doc, binding) => {
    const items = Array.isArray(value) ? value : [];
    let n = items.length;
    if (where) {
      n = 0;
      const itemBinding = [...binding, 0];
      for (let k = 0; k < items.length; k++) {
        itemBinding[binding.length] = k;
        if (where(doc, itemBinding)) n++;
      }
    }
    return !((count.min !== undefined && n < count.min) || (count.max !== undefined && n > count.max));
  };
}

function compileRule(rule: Rule, index: FieldIndex): CompiledRule {
  const field = resolveFieldRef(
    {
      ...(rule.path !== undefined ? { field: rule.path } : {}),
      ...(rule.e2b !== undefined ? { e2b: rule.e2b } : {}),
    },
    index,
  ) as FieldInfo;
  const segments = parseDataPath(rule.path ?? field.path);
  const compiler = new RuleCompiler(index, segments);
  compiler.reads.add(field.path);
  const when = rule.when ? compiler.condition(rule.when) : undefined;
  const check = compileCheck(rule.then, compiler, index, segments);
  const e2b = rule.e2b ?? field.e2b;
  const report = (path: string): Finding => ({
    path,
    ...(e2b ? { e2b } : {}),
    ruleId: rule.id,
    severity: rule.severity,
    messageKey: `rule.${rule.id}`,
    params: {},
    message: rule.message,
  });
  const perItemWhen = when && !when.constant ? when : undefined;
  const target = new PathReader(segments, segments.length);
  const visit = (value: unknown, doc: unknown, binding: Binding, out: Finding[], item?: unknown): void => {
    if (perItemWhen && !perItemWhen(doc, binding, item)) return;
    const outcome = check(value, doc, binding, item);
    if (outcome !== true) out.push(report(outcome === false ? target.pointer(binding) : outcome));
  };
  // A condition on the case as a whole is decided once per run, not once per item.
  const applies = (doc: unknown): boolean => !when?.constant || when(doc, []);
  return {
    rule,
    field,
    segments,
    reads: [...compiler.reads],
    applies,
    visit,
    run(doc, out) {
      if (applies(doc)) eachInstance(doc, segments, (value, binding) => visit(value, doc, binding, out));
    },
    runWithin(doc, fieldSegments, fieldBinding, out) {
      if (!applies(doc)) return;
      const prefix = fieldBinding.slice(0, sharedStars(segments, fieldSegments));
      eachInstance(doc, segments, (value, binding) => visit(value, doc, binding, out), prefix);
    },
  };
}

interface PlanGroup {
  items: readonly string[];
  members: { rule: CompiledRule; rest: readonly string[] }[];
}

/** Rules grouped by the repeating section their targets lie in, prepared once per rule selection. */
export interface RulePlan {
  groups: PlanGroup[];
}

export function planRules(rules: readonly CompiledRule[]): RulePlan {
  const groups = new Map<string, PlanGroup>();
  for (const rule of rules) {
    const cut = rule.segments.lastIndexOf('*') + 1;
    const items = rule.segments.slice(0, cut);
    const key = items.join('\u0000');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { items, members: [] }));
    group.members.push({ rule, rest: rule.segments.slice(cut) });
  }
  return { groups: [...groups.values()] };
}

/**
 * Runs a plan: one walk per repeating section (`drugs[*].reactionAssessments[*]`), each rule
 * reading its member from the item; rules whose case-level condition fails are left out first.
 */
export function runPlan(plan: RulePlan, doc: unknown, out: Finding[]): void {
  for (const group of plan.groups) {
    const members = group.members.filter((member) => member.rule.applies(doc));
    if (members.length === 0) continue;
    eachInstance(doc, group.items, (item, binding) => {
      for (let m = 0; m < members.length; m++) {
        const { rule, rest } = members[m]!;
        let value = item;
        for (let i = 0; i < rest.length && value !== undefined; i++) value = childOf(value, rest[i]!);
        rule.visit(value, doc, binding, out, item);
      }
    });
  }
}

/**
 * As `runPlan`, each rule's findings into its own list (`outOf(rule)`): the browser's check keeps
 * them and, after a write, runs again only the rules that read the written field.
 */
export function runPlanPerRule(plan: RulePlan, doc: unknown, outOf: (rule: CompiledRule) => Finding[]): void {
  for (const group of plan.groups) {
    const members = group.members.filter((member) => member.rule.applies(doc));
    if (members.length === 0) continue;
    const outs = members.map((member) => outOf(member.rule));
    eachInstance(doc, group.items, (item, binding) => {
      for (let m = 0; m < members.length; m++) {
        const { rule, rest } = members[m]!;
        let value = item;
        for (let i = 0; i < rest.length && value !== undefined; i++) value = childOf(value, rest[i]!);
        rule.visit(value, doc, binding, outs[m]!, item);
      }
    });
  }
}

export function runRules(rules: readonly CompiledRule[], doc: unknown, out: Finding[]): void {
  runPlan(planRules(rules), doc, out);
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
