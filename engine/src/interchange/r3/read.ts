import type { XmlElement } from '../xml/dom';
import type { Step } from '../path';
import { matches } from '../path';
import type { CompiledGroup, CompiledMapping } from '../mapping';
import { stepsOf } from '../mapping';
import type { E2bBatch, E2bRecord } from '../record';
import { emptyRecord } from '../record';

/** Marks which attributes (and `#text`) of each node the mapping accounted for. */
type Consumed = Map<XmlElement, Set<string>>;

interface Scope {
  /** Instance node of each enclosing group (batch, report, G.k ...). */
  nodes: Record<string, XmlElement>;
  /** Identifier of each enclosing instance (drug and reaction UUIDs), for `{G.k}` placeholders. */
  vars: Record<string, string>;
}

/** Instance node -> its record, to hang the message's unmapped parts on their nearest instance. */
const instanceRecords = new Map<XmlElement, E2bRecord>();

/**
 * (node, step) pairs whose leftover attributes, and those of the step's sub-predicate nodes, were
 * kept already: the many elements whose paths share a prefix would find nothing more there.
 */
const keptSteps = new Map<XmlElement, Set<Step>>();

/** Claims since the last mark, so that a candidate instance that turns out empty can be undone. */
const journal: [XmlElement, string | Step][] = [];

const consume = (consumed: Consumed, node: XmlElement, key: string): void => {
  let set = consumed.get(node);
  if (!set) consumed.set(node, (set = new Set()));
  if (set.has(key)) return;
  set.add(key);
  journal.push([node, key]);
};

/** Whether the pair was kept already; marks it kept (undone with the claims on a rollback). */
function keptBefore(node: XmlElement, step: Step): boolean {
  let steps = keptSteps.get(node);
  if (!steps) keptSteps.set(node, (steps = new Set()));
  if (steps.has(step)) return true;
  steps.add(step);
  journal.push([node, step]);
  return false;
}

function rollback(consumed: Consumed, mark: number): void {
  while (journal.length > mark) {
    const [node, key] = journal.pop() as [XmlElement, string | Step];
    if (typeof key === 'string') consumed.get(node)?.delete(key);
    else keptSteps.get(node)?.delete(key);
  }
}

/**
 * While a message is read (its tree does not change), each node's children by name and what each
 * (interned) step matched among them: the mapping's hundreds of paths share long prefixes, which
 * would otherwise be matched again, predicates and all, for every element of every instance.
 */
let readMemo:
  | { byName: Map<XmlElement, Map<string, XmlElement[]>>; byStep: Map<XmlElement, Map<Step, XmlElement[]>> }
  | undefined;

/** The children of `node` that `step` matches (its index not applied), in document order. */
function childrenMatching(node: XmlElement, step: Step): XmlElement[] {
  if (!readMemo) return node.children.filter((c) => matches(c, step));
  let steps = readMemo.byStep.get(node);
  if (!steps) readMemo.byStep.set(node, (steps = new Map()));
  let found = steps.get(step);
  if (found) return found;
  let names = readMemo.byName.get(node);
  if (!names) {
    names = new Map();
    for (const c of node.children) {
      const same = names.get(c.name);
      if (same) same.push(c);
      else names.set(c.name, [c]);
    }
    readMemo.byName.set(node, names);
  }
  found = (names.get(step.name) ?? []).filter((c) => matches(c, step));
  steps.set(step, found);
  return found;
}

/** Every chain of nodes (one per step) by which a path matches, in document order. */
export function chainsOf(context: XmlElement, steps: Step[]): XmlElement[][] {
  let chains: XmlElement[][] = [[]];
  let frontier = [context];
  for (const step of steps) {
    const nextChains: XmlElement[][] = [];
    const nextFrontier: XmlElement[] = [];
    frontier.forEach((node, i) => {
      let found = childrenMatching(node, step);
      if (step.index !== undefined)
        found = found[step.index - 1] ? [found[step.index - 1] as XmlElement] : [];
      for (const f of found) {
        nextChains.push([...(chains[i] as XmlElement[]), f]);
        nextFrontier.push(f);
      }
    });
    chains = nextChains;
    frontier = nextFrontier;
    if (frontier.length === 0) return [];
  }
  return chains;
}

/** The first of chainsOf's chains (their order is depth-first), found without building the others. */
function firstChain(context: XmlElement, steps: Step[]): XmlElement[] | undefined {
  const chain: XmlElement[] = [];
  const descend = (node: XmlElement, depth: number): boolean => {
    if (depth === steps.length) return true;
    const step = steps[depth] as Step;
    const found = childrenMatching(node, step);
    const candidates =
      step.index === undefined ? found : found[step.index - 1] ? [found[step.index - 1] as XmlElement] : [];
    for (const c of candidates) {
      chain[depth] = c;
      if (descend(c, depth + 1)) return true;
    }
    return false;
  };
  if (!descend(context, 0)) return undefined;
  chain.length = steps.length;
  return chain;
}

/**
 * The nodes a step's sub-path predicates matched (first match of each, predicates within predicates
 * included), keyed `/<sub>/<step>` below `prefix`, so that their attributes can be kept and put back.
 */
export function subNodes(node: XmlElement, step: Step, prefix: string): [string, XmlElement][] {
  const out: [string, XmlElement][] = [];
  step.subs.forEach((sub, k) => {
    if (sub.negated) return;
    const chain = firstChain(node, sub.steps) ?? [];
    chain.forEach((n, j) => {
      const key = `${prefix}/${k}/${j}`;
      out.push([key, n], ...subNodes(n, sub.steps[j] as Step, key));
    });
  });
  return out;
}

function consumeStep(consumed: Consumed, node: XmlElement, step: Step): void {
  for (const [k] of step.attrs) consume(consumed, node, k);
  if (step.startsWith) consume(consumed, node, step.startsWith[0]);
  for (const sub of step.subs) {
    if (sub.negated) continue;
    for (const chain of chainsOf(node, sub.steps)) {
      chain.forEach((n, i) => consumeStep(consumed, n, sub.steps[i] as Step));
      const last = chain[chain.length - 1];
      if (last && sub.attr && (sub.equals === undefined || last.attrs[sub.attr] === sub.equals))
        consume(consumed, last, sub.attr);
    }
  }
}

function splitAttr(path: string): [string, string] {
  const i = path.lastIndexOf('/@');
  return [path.slice(0, i), path.slice(i + 2)];
}

const relaxedSteps = new WeakMap<Step, Step>();

/**
 * The step without the attribute conditions a null-flavored node lacks (one object per step), or the
 * step itself when it has none to drop.
 */
function relaxedStep(step: Step): Step {
  let relaxed = relaxedSteps.get(step);
  if (!relaxed) {
    const attrs = step.attrs.filter(([k]) => k === 'xsi:type');
    relaxed = attrs.length === step.attrs.length ? step : { ...step, attrs };
    relaxedSteps.set(step, relaxed);
  }
  return relaxed;
}

function readGroup(
  group: CompiledGroup,
  node: XmlElement,
  scope: Scope,
  consumed: Consumed,
  repeat?: Step,
): E2bRecord {
  const record = emptyRecord();
  const owned: [string, XmlElement[], Step[]][] = [];
  const vars = { ...scope.vars };
  for (const element of group.elements) {
    if (!element.path && !element.carrier) continue;
    const base = element.context ? scope.nodes[element.context] : node;
    if (!base) continue;
    let steps = stepsOf(element.path, vars);
    let chain = firstChain(base, steps);
    const last = steps[steps.length - 1];
    if (!chain && last && relaxedStep(last) !== last) {
      // A null-flavored value carries no code system: match its node without the value's attributes.
      const relaxed = [...steps.slice(0, -1), relaxedStep(last)];
      const candidate = firstChain(base, relaxed);
      if (candidate && candidate[candidate.length - 1]?.attrs.nullFlavor !== undefined) {
        steps = relaxed;
        chain = candidate;
      }
    }
    if (!chain) continue;
    const target = chain[chain.length - 1] ?? base;
    const raw = element.attr ? target.attrs[element.attr] : target.text;
    if (raw !== undefined) {
      const value = element.prefix && raw.startsWith(element.prefix) ? raw.slice(element.prefix.length) : raw;
      record.values[element.id] = element.values?.[value] ?? value;
      consume(consumed, target, element.attr ?? '#text');
    } else if (target.attrs.nullFlavor !== undefined) {
      record.values[element.id] = { nullFlavor: target.attrs.nullFlavor };
      consume(consumed, target, 'nullFlavor');
    } else if (!Object.keys(target.attrs).some((a) => !consumed.get(target)?.has(a))) continue;
    // else: the element's node is there without a value (a code with only its displayName): its
    // attributes are kept below so that the node is written back as it came.
    chain.forEach((n, i) => consumeStep(consumed, n, steps[i] as Step));
    owned.push([element.id, chain, steps]);
    // The instance's identifier (read first) is what other elements' paths refer to.
    const id = record.values[element.id];
    if (element.id === `${group.id}#id` && typeof id === 'string') vars[group.id] = id;
  }
  const inner: Scope = { nodes: { ...scope.nodes, [group.id]: node }, vars };
  for (const fixed of group.fixed) {
    const steps = stepsOf(fixed, vars);
    for (const chain of chainsOf(node, steps))
      chain.forEach((n, i) => consumeStep(consumed, n, steps[i] as Step));
  }
  const leads: [string, XmlElement[], Step[]][] = [];
  for (const child of group.children) {
    const instances: E2bRecord[] = [];
    if (child.virtual) {
      const keys = new Set<string>();
      for (const source of child.virtual.keys) {
        const [path, attr] = splitAttr(source.path);
        const steps = stepsOf(path, vars);
        const from = inner.nodes[source.context];
        if (!from) continue;
        for (const chain of chainsOf(from, steps)) {
          const last = chain[chain.length - 1];
          const key = last?.attrs[attr];
          if (!last || key === undefined) continue;
          keys.add(key);
        }
      }
      for (const key of keys) {
        const keyed: Scope = { nodes: inner.nodes, vars: { ...vars, [child.id]: key } };
        const instance = readGroup(child, node, keyed, consumed);
        instance.values[child.virtual.keyElement] = key;
        // The key's own occurrences are claimed by the paths that name it as a placeholder.
        instances.push(instance);
      }
    } else {
      const base = child.context ? inner.nodes[child.context] : node;
      if (!base) continue;
      const steps = stepsOf(child.path, vars);
      const lead = steps.slice(0, -1);
      const repeat = steps[steps.length - 1] as Step;
      for (const leadChain of chainsOf(base, lead)) {
        leadChain.forEach((n, i) => consumeStep(consumed, n, lead[i] as Step));
        leads.push([child.id, leadChain, lead]);
        const parent = leadChain[leadChain.length - 1] ?? base;
        for (const instance of childrenMatching(parent, repeat)) {
          const mark = journal.length;
          const read = readGroup(child, instance, inner, consumed, repeat);
          // A node that matched the group's path but carries none of its elements is not an instance.
          if (Object.keys(read.values).length === 0 && Object.keys(read.groups).length === 0) {
            rollback(consumed, mark);
            continue;
          }
          consumeStep(consumed, instance, repeat);
          instances.push(read);
        }
      }
    }
    if (instances.length > 0) record.groups[child.id] = instances;
  }
  // Attributes nobody claimed that sit on this group's nodes are kept with their owner.
  const keep = (key: string, n: XmlElement): void => {
    const taken = consumed.get(n);
    for (const attr in n.attrs) {
      if (taken?.has(attr) || attr.startsWith('xmlns')) continue;
      const attrs = (record.attrs ??= {});
      (attrs[key] ??= {})[attr] = n.attrs[attr] as string;
      consume(consumed, n, attr);
    }
  };
  if (!group.virtual) {
    keep('.', node);
    instanceRecords.set(node, record);
  }
  if (repeat) for (const [key, n] of subNodes(node, repeat, './0')) keep(key, n);
  // Nodes on the way to a repeating group are shared by its instances: their extras stay here.
  for (const [elementId, chain, steps] of [
    ...owned,
    ...leads.map(([id, c, s]): [string, XmlElement[], Step[]] => [`>${id}`, c, s]),
  ]) {
    chain.forEach((n, i) => {
      const step = steps[i] as Step;
      if (keptBefore(n, step)) return;
      keep(`${elementId}/${i}`, n);
      for (const [key, sub] of subNodes(n, step, `${elementId}/${i}`)) keep(key, sub);
    });
  }
  return record;
}

/** Leaves (path, attribute or text) of `root` that no mapping entry accounted for. */
function unaccounted(root: XmlElement, consumed: Consumed): string[] {
  const out: string[] = [];
  // The path is spelt out only for a leaf that is reported (most nodes have none).
  const names: string[] = [];
  const walk = (n: XmlElement): void => {
    names.push(n.name);
    const taken = consumed.get(n);
    for (const attr in n.attrs)
      if (!taken?.has(attr) && !attr.startsWith('xmlns'))
        out.push(`/${names.join('/')}/@${attr}=${n.attrs[attr]}`);
    if (n.text !== undefined && n.text.trim() !== '' && !taken?.has('#text'))
      out.push(`/${names.join('/')}/text()=${n.text}`);
    for (const c of n.children) walk(c);
    names.pop();
  };
  walk(root);
  return out;
}

export interface R3ReadResult {
  batch: E2bBatch;
  /** Leaves of the message that no mapping entry accounted for (empty when nothing is lost). */
  unmapped: string[];
}

/** Reads an MCCI_IN200100UV01 batch into element-id-keyed records, one per PORR_IN049016UV. */
export function readR3Batch(root: XmlElement, mapping: CompiledMapping): R3ReadResult {
  const consumed: Consumed = new Map();
  journal.length = 0;
  instanceRecords.clear();
  keptSteps.clear();
  readMemo = { byName: new Map(), byStep: new Map() };
  let header: E2bRecord;
  try {
    header = readGroup(mapping.batch, root, { nodes: {}, vars: {} }, consumed);
  } finally {
    readMemo = undefined;
    keptSteps.clear();
  }
  const unmapped = unaccounted(root, consumed);
  keepFragments(root, consumed);
  instanceRecords.clear();
  const reports = header.groups.report ?? [];
  delete header.groups.report;
  journal.length = 0;
  return { batch: { format: 'r3', header, reports }, unmapped };
}

const quoted = (value: string): string | undefined =>
  !value.includes("'") ? `'${value}'` : !value.includes('"') ? `"${value}"` : undefined;

/** A step naming `node` exactly among its siblings: every attribute, then its position among equals. */
function exactStep(
  parent: XmlElement,
  node: XmlElement,
  firstOf: (n: XmlElement) => string | undefined,
): string {
  let step = node.name;
  for (const [k, v] of Object.entries(node.attrs)) {
    const q = quoted(v);
    if (q && !k.startsWith('xmlns')) step += `[@${k}=${q}]`;
  }
  // Siblings of one name and attributes are told apart by what they hold (component[adverseEventAssessment]),
  // counting only what the writer regenerates (not the kept fragments themselves).
  const first = firstOf(node);
  if (first) step += `[${first}]`;
  const same = parent.children.filter(
    (c) =>
      c.name === node.name &&
      firstOf(c) === first &&
      Object.entries(node.attrs).every(([k, v]) => c.attrs[k] === v),
  );
  return `${step}[${same.indexOf(node) + 1}]`;
}

/**
 * Hangs every subtree the mapping did not touch at all on the record of its nearest instance, with
 * the exact path of the node it hangs from: written back verbatim, nothing received is lost.
 */
function keepFragments(root: XmlElement, consumed: Consumed): void {
  const untouched = new Map<XmlElement, boolean>();
  const isUntouched = (n: XmlElement): boolean => {
    let known = untouched.get(n);
    if (known === undefined) {
      known = !consumed.get(n)?.size && n.children.every(isUntouched);
      untouched.set(n, known);
    }
    return known;
  };
  const firsts = new Map<XmlElement, string | undefined>();
  const firstOf = (n: XmlElement): string | undefined => {
    if (!firsts.has(n)) firsts.set(n, n.children.find((c) => !isUntouched(c))?.name);
    return firsts.get(n);
  };
  // A node's anchor is spelt out only when a fragment hangs below it (most touched nodes have none).
  const none = (): string[] => [];
  const walk = (node: XmlElement, owner: E2bRecord, anchor: () => string[]): void => {
    for (const child of node.children) {
      const own = instanceRecords.get(child);
      if (own) {
        walk(child, own, none);
        continue;
      }
      if (isUntouched(child)) {
        (owner.fragments ??= []).push({ anchor: anchor().join('/'), node: child });
        continue;
      }
      let steps: string[] | undefined;
      walk(child, owner, () => (steps ??= [...anchor(), exactStep(node, child, firstOf)]));
    }
  };
  const top = instanceRecords.get(root);
  if (top) walk(root, top, none);
}
