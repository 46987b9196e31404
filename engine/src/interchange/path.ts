import type { XmlElement } from './xml/dom';

/**
 * The XPath subset the E2B mapping tables use: child steps with predicates `[@a='v']`, `[n]`,
 * `[sub/path[...]]`, `[sub/path/@a='v']`, `[starts-with(@a,'p')]`, `[not(sub/path)]` and `[not(@a='v')]`. Paths are compiled once;
 * `select` reads a document, `ensure` writes one (creating what a predicate demands).
 */
export interface Step {
  name: string;
  attrs: [string, string][];
  /** `[not(@a='v')]`: attributes the node must not carry with that value. */
  notAttrs?: [string, string][];
  index?: number;
  subs: SubPredicate[];
  startsWith?: [string, string];
}

export interface SubPredicate {
  steps: Step[];
  attr?: string;
  equals?: string;
  /** `not(sub/path)`: the node must not have it. */
  negated?: boolean;
}

function splitTop(path: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const c of path) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    if (c === separator && depth === 0 && !quote) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

const unquote = (s: string): string => s.replace(/^['"]|['"]$/g, '');

function compilePredicate(step: Step, body: string): void {
  if (/^\d+$/.test(body)) {
    step.index = Number(body);
    return;
  }
  const attr = /^@([\w:]+)=(['"])(.*)\2$/.exec(body);
  if (attr) {
    step.attrs.push([attr[1] as string, attr[3] as string]);
    return;
  }
  const starts = /^starts-with\(@([\w:]+),(['"])(.*)\2\)$/.exec(body);
  if (starts) {
    step.startsWith = [starts[1] as string, starts[3] as string];
    return;
  }
  const notAttr = /^not\(@([\w:]+)=(['"])(.*)\2\)$/.exec(body);
  if (notAttr) {
    (step.notAttrs ??= []).push([notAttr[1] as string, notAttr[3] as string]);
    return;
  }
  const negated = /^not\((.*)\)$/.exec(body);
  if (negated) {
    const sub: SubPredicate = { steps: splitTop(negated[1] as string, '/').map(compileStep), negated: true };
    step.subs.push(sub);
    return;
  }
  const [left, right] = splitTop(body, '=');
  const parts = splitTop(left as string, '/');
  const last = parts[parts.length - 1] as string;
  const sub: SubPredicate = { steps: [] };
  if (last.startsWith('@')) {
    sub.attr = last.slice(1);
    parts.pop();
  }
  if (right !== undefined) sub.equals = unquote(right);
  sub.steps = parts.map(compileStep);
  step.subs.push(sub);
}

export function compileStep(text: string): Step {
  const open = text.indexOf('[');
  const step: Step = { name: open < 0 ? text : text.slice(0, open), attrs: [], subs: [] };
  if (open < 0) return step;
  let depth = 0;
  let quote = '';
  let start = -1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '[') {
      if (depth++ === 0) start = i + 1;
    } else if (c === ']' && --depth === 0) compilePredicate(step, text.slice(start, i));
  }
  return step;
}

const interned = new Map<string, Step>();

/**
 * One Step object per step text, so that a reader can remember what a step matched under a node
 * across the many paths sharing it (steps are never changed once compiled).
 */
function internStep(text: string): Step {
  let step = interned.get(text);
  if (!step) {
    if (interned.size > 50_000) interned.clear();
    interned.set(text, (step = compileStep(text)));
  }
  return step;
}

export const compilePath = (path: string): Step[] => (path ? splitTop(path, '/').map(internStep) : []);

export function matches(node: XmlElement, step: Step): boolean {
  if (node.name !== step.name) return false;
  for (const [k, v] of step.attrs) if (node.attrs[k] !== v) return false;
  if (step.notAttrs?.some(([k, v]) => node.attrs[k] === v)) return false;
  if (step.startsWith && !(node.attrs[step.startsWith[0]] ?? '').startsWith(step.startsWith[1])) return false;
  for (const sub of step.subs) if (!subHolds(node, sub)) return false;
  return true;
}

function subHolds(node: XmlElement, sub: SubPredicate): boolean {
  const found = selectAll(node, sub.steps);
  if (sub.negated) return found.length === 0;
  if (sub.attr === undefined) return found.length > 0;
  return found.some((n) =>
    sub.equals === undefined
      ? n.attrs[sub.attr as string] !== undefined
      : n.attrs[sub.attr as string] === sub.equals,
  );
}

function stepMatches(parent: XmlElement, step: Step): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of parent.children) if (matches(child, step)) out.push(child);
  if (step.index !== undefined) {
    const chosen = out[step.index - 1];
    return chosen ? [chosen] : [];
  }
  return out;
}

/** Every node a path reaches from `context`, in document order. */
export function selectAll(context: XmlElement, steps: Step[]): XmlElement[] {
  let current = [context];
  for (const step of steps) {
    const next: XmlElement[] = [];
    for (const node of current) next.push(...stepMatches(node, step));
    if (next.length === 0) return next;
    current = next;
  }
  return current;
}

/** The first node a path reaches, or undefined. */
export function selectFirst(context: XmlElement, steps: Step[]): XmlElement | undefined {
  let node = context;
  for (const step of steps) {
    const found = stepMatches(node, step)[0];
    if (!found) return undefined;
    node = found;
  }
  return node;
}

// When writing, a node qualifies if it has the step's name and sub-structure and no conflicting
// attribute value: an attribute it lacks is set (the predicate describes what the node must carry).
function qualifies(node: XmlElement, step: Step): boolean {
  if (node.name !== step.name) return false;
  for (const [k, v] of step.attrs) if (node.attrs[k] !== undefined && node.attrs[k] !== v) return false;
  if (step.notAttrs?.some(([k, v]) => node.attrs[k] === v)) return false;
  if (step.startsWith) {
    const value = node.attrs[step.startsWith[0]];
    if (value !== undefined && !value.startsWith(step.startsWith[1])) return false;
    if (value === undefined && node.attrs.nullFlavor === undefined && node.children.length === 0) return true;
    if (value === undefined) return false;
  }
  for (const sub of step.subs) if (!subHolds(node, sub)) return false;
  return true;
}

/** Creates a node satisfying `step` under `parent` (materialising its predicates). */
export function createStep(parent: XmlElement, step: Step): XmlElement {
  const node: XmlElement = { name: step.name, attrs: {}, children: [] };
  for (const [k, v] of step.attrs) node.attrs[k] = v;
  for (const sub of step.subs) {
    if (sub.negated) continue;
    const target = ensurePath(node, sub.steps);
    if (sub.attr !== undefined && sub.equals !== undefined) target.attrs[sub.attr] = sub.equals;
  }
  parent.children.push(node);
  return node;
}

/** Finds or creates the node a step names under `parent`. */
export function ensureStep(parent: XmlElement, step: Step): XmlElement {
  const wanted = step.index ?? 1;
  let seen = 0;
  for (const child of parent.children) {
    if (!qualifies(child, step)) continue;
    if (++seen === wanted) {
      for (const [k, v] of step.attrs) child.attrs[k] = v;
      return child;
    }
  }
  let node = createStep(parent, step);
  while (++seen < wanted) node = createStep(parent, step);
  return node;
}

/** Finds or creates every node along a path; returns the last. */
export function ensurePath(context: XmlElement, steps: Step[]): XmlElement {
  let node = context;
  for (const step of steps) node = ensureStep(node, step);
  return node;
}
