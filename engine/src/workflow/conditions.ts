/**
 * Conditions over facts, as workflows and deadline rules declare them: `{fact, is}`, `{fact, in}`,
 * `{fact, notIn}`, `{fact, gt}`, `{fact, lt}`, `{fact, empty}` and `all` / `any` / `not`.
 * Facts are a flat record the caller computes (the case's node, completion, lock, error count ...).
 */
export type FactValue = string | number | boolean | null | undefined;
export type Facts = Record<string, FactValue>;

export type Condition =
  | { fact: string; is: FactValue }
  | { fact: string; in: FactValue[] }
  | { fact: string; notIn: FactValue[] }
  | { fact: string; gt: number }
  | { fact: string; lt: number }
  | { fact: string; empty: boolean }
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition };

export function holds(condition: Condition, facts: Facts): boolean {
  if ('all' in condition) return condition.all.every((c) => holds(c, facts));
  if ('any' in condition) return condition.any.some((c) => holds(c, facts));
  if ('not' in condition) return !holds(condition.not, facts);
  const value = facts[condition.fact];
  if ('is' in condition) return value === condition.is;
  if ('in' in condition) return condition.in.includes(value);
  if ('notIn' in condition) return !condition.notIn.includes(value);
  if ('gt' in condition) return typeof value === 'number' && value > condition.gt;
  if ('lt' in condition) return typeof value === 'number' && value < condition.lt;
  const isEmpty = value === undefined || value === null || value === '';
  return isEmpty === condition.empty;
}

/** The facts a condition reads, so a workflow check can refuse unknown ones. */
export function factsRead(condition: Condition, into: Set<string> = new Set()): Set<string> {
  if ('all' in condition) condition.all.forEach((c) => factsRead(c, into));
  else if ('any' in condition) condition.any.forEach((c) => factsRead(c, into));
  else if ('not' in condition) factsRead(condition.not, into);
  else into.add(condition.fact);
  return into;
}
