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

/**
 * The condition compiled once to a function of the facts, meaning exactly what `holds` does; for
 * rules evaluated on many cases (reporting rules over a whole case selection).
 */
export function compileCondition(condition: Condition): (facts: Facts) => boolean {
  if ('all' in condition) {
    const parts = condition.all.map(compileCondition);
    return (facts) => {
      for (const part of parts) if (!part(facts)) return false;
      return true;
    };
  }
  if ('any' in condition) {
    const parts = condition.any.map(compileCondition);
    return (facts) => {
      for (const part of parts) if (part(facts)) return true;
      return false;
    };
  }
  if ('not' in condition) {
    const inner = compileCondition(condition.not);
    return (facts) => !inner(facts);
  }
  const name = condition.fact;
  if ('is' in condition) {
    const wanted = condition.is;
    return (facts) => facts[name] === wanted;
  }
  if ('in' in condition) {
    const listed = condition.in;
    return (facts) => listed.includes(facts[name]);
  }
  if ('notIn' in condition) {
    const listed = condition.notIn;
    return (facts) => !listed.includes(facts[name]);
  }
  if ('gt' in condition) {
    const bound = condition.gt;
    return (facts) => {
      const value = facts[name];
      return typeof value === 'number' && value > bound;
    };
  }
  if ('lt' in condition) {
    const bound = condition.lt;
    return (facts) => {
      const value = facts[name];
      return typeof value === 'number' && value < bound;
    };
  }
  const empty = condition.empty;
  return (facts) => {
    const value = facts[name];
    return (value === undefined || value === null || value === '') === empty;
  };
}

/** The facts a condition reads, so a workflow check can refuse unknown ones. */
export function factsRead(condition: Condition, into: Set<string> = new Set()): Set<string> {
  if ('all' in condition) condition.all.forEach((c) => factsRead(c, into));
  else if ('any' in condition) condition.any.forEach((c) => factsRead(c, into));
  else if ('not' in condition) factsRead(condition.not, into);
  else into.add(condition.fact);
  return into;
}
