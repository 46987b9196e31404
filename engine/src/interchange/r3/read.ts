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

/** Claims since the last mark, so that a candidate instance that turns out empty can be undone. */
const journal: [XmlElement, string][] = [];

const consume = (consumed: Consumed, node: XmlElement, key: string): void => {
  let set = consumed.get(node);
  if (!set) consumed.set(node, (set = new Set()));
  if (set.has(key)) return;
  set.add(key);
  journal.push([node, key]);
};

function rollback(consumed: Consumed, mark: number): void {
  while (journal.length > mark) {
    const [node, key] = journal.pop() as [XmlElement, string];
    consumed.get(node)?.delete(key);
  }
}

/** Every chain of nodes (one per step) by which a path matches, in document order. */
export function chainsOf(context: XmlElement, steps: Step[]): XmlElement[][] {
  let chains: XmlElement[][] = [[]];
  let frontier = [context];
  for (const step of steps) {
    const nextChains: XmlElement[][] = [];
    const nextFrontier: XmlElement[] = [];
    frontier.forEach((node, i) => {
      let found = node.children.filter((c) => matches(c, step));
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

/**
 * The nodes a step's sub-path predicates matched (first match of each, predicates within predicates
 * included), keyed `/<sub>/<step>` below `prefix`, so that their attributes can be kept and put back.
 */
export function subNodes(node: XmlElement, step: Step, prefix: string): [string, XmlElement][] {
  const out: [string, XmlElement][] = [];
  step.subs.forEach((sub, k) => {
    if (sub.negated) return;
    const chain = chainsOf(node, sub.steps)[0] ?? [];
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
    let chain = chainsOf(base, steps)[0];
    if (!chain && steps.length > 0) {
      // A null-flavored value carries no code system: match its node without the value's attributes.
      const last = steps[steps.length - 1] as Step;
      const relaxed = [
        ...steps.slice(0, -1),
        { ...last, attrs: last.attrs.filter(([k]) => k === 'xsi:type') },
      ];
      const candidate = chainsOf(base, relaxed)[0];
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
        for (const instance of parent.children) {
          if (!matches(instance, repeat)) continue;
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
      attrs[key] = { ...attrs[key], [attr]: n.attrs[attr] as string };
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
      keep(`${elementId}/${i}`, n);
      for (const [key, sub] of subNodes(n, steps[i] as Step, `${elementId}/${i}`)) keep(key, sub);
    });
  }
  return record;
}

/** Leaves (path, attribute or text) of `root` that no mapping entry accounted for. */
function unaccounted(root: XmlElement, consumed: Consumed): string[] {
  const out: string[] = [];
  const walk = (n: XmlElement, path: string): void => {
    const taken = consumed.get(n);
    for (const attr in n.attrs)
      if (!taken?.has(attr) && !attr.startsWith('xmlns')) out.push(`${path}/@${attr}=${n.attrs[attr]}`);
    if (n.text !== undefined && n.text.trim() !== '' && !taken?.has('#text'))
      out.push(`${path}/text()=${n.text}`);
    for (const c of n.children) walk(c, `${path}/${c.name}`);
  };
  walk(root, `/${root.name}`);
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
  const header = readGroup(mapping.batch, root, { nodes: {}, vars: {} }, consumed);
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
function exactStep(parent: XmlElement, node: XmlElement, kept: (n: XmlElement) => boolean): string {
  let step = node.name;
  for (const [k, v] of Object.entries(node.attrs)) {
    const q = quoted(v);
    if (q && !k.startsWith('xmlns')) step += `[@${k}=${q}]`;
  }
  // Siblings of one name and attributes are told apart by what they hold (component[adverseEventAssessment]),
  // counting only what the writer regenerates (not the kept fragments themselves).
  const firstOf = (n: XmlElement): string | undefined => n.children.find((c) => !kept(c))?.name;
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
  const walk = (node: XmlElement, owner: E2bRecord, anchor: string[]): void => {
    for (const child of node.children) {
      const own = instanceRecords.get(child);
      if (own) {
        walk(child, own, []);
        continue;
      }
      if (isUntouched(child)) {
        (owner.fragments ??= []).push({ anchor: anchor.join('/'), node: child });
        continue;
      }
      walk(child, owner, [...anchor, exactStep(node, child, isUntouched)]);
    }
  };
  const top = instanceRecords.get(root);
  if (top) walk(root, top, []);
}
