import type { XmlElement } from '../xml/dom';
import type { Step } from '../path';
import { createStep, ensureStep, selectFirst } from '../path';
import type { CompiledGroup, CompiledMapping } from '../mapping';
import { stepsOf } from '../mapping';
import type { E2bBatch, E2bRecord } from '../record';
import { isNullFlavored } from '../record';
import type { XsdOrder } from '../xml/order';
import { sortBySchema } from '../xml/order';

interface Scope {
  nodes: Record<string, XmlElement>;
  vars: Record<string, string>;
}

function ensureChain(context: XmlElement, steps: Step[]): XmlElement[] {
  const chain: XmlElement[] = [];
  let node = context;
  for (const step of steps) {
    node = ensureStep(node, step);
    chain.push(node);
  }
  return chain;
}

function applyAttrs(node: XmlElement, attrs: Record<string, string> | undefined): void {
  if (attrs) for (const k in attrs) if (node.attrs[k] === undefined) node.attrs[k] = attrs[k] as string;
}

/** Puts back the attributes kept at import (displayName, mediaType ...) on an element's nodes. */
function applyExtras(record: E2bRecord, key: string, chain: XmlElement[], steps: Step[]): void {
  const extras = record.attrs;
  if (!extras) return;
  chain.forEach((n, i) => {
    applyAttrs(n, extras[`${key}/${i}`]);
    (steps[i] as Step).subs.forEach((sub, k) => {
      if (sub.negated) return;
      let subNode: XmlElement | undefined = n;
      sub.steps.forEach((s, j) => {
        subNode = subNode && selectFirst(subNode, [s]);
        if (subNode) applyAttrs(subNode, extras[`${key}/${i}/${k}/${j}`]);
      });
    });
  });
}

function writeGroup(group: CompiledGroup, node: XmlElement, record: E2bRecord, scope: Scope): void {
  const vars = { ...scope.vars };
  const id = record.values[`${group.id}#id`];
  if (typeof id === 'string') vars[group.id] = id;
  const inner: Scope = { nodes: { ...scope.nodes, [group.id]: node }, vars };
  if (!group.virtual) applyAttrs(node, record.attrs?.['.']);
  for (const fixed of group.fixed) ensureChain(node, stepsOf(fixed, vars));
  for (const element of group.elements) {
    const value = record.values[element.id] ?? element.default;
    if (value === undefined || (!element.path && !element.carrier)) continue;
    const base = element.context ? inner.nodes[element.context] : node;
    if (!base) continue;
    const steps = stepsOf(element.path, vars);
    const chain = ensureChain(base, steps);
    const target = chain[chain.length - 1] ?? base;
    if (isNullFlavored(value)) target.attrs.nullFlavor = value.nullFlavor;
    else if (element.attr) target.attrs[element.attr] = (element.prefix ?? '') + value;
    else target.text = value;
    applyExtras(record, element.id, chain, steps);
  }
  for (const child of group.children) {
    const instances = record.groups[child.id];
    if (!instances) continue;
    for (const instance of instances) {
      if (Object.keys(instance.values).length === 0 && Object.keys(instance.groups).length === 0) continue;
      if (child.virtual) {
        const key = instance.values[child.virtual.keyElement];
        if (typeof key !== 'string') continue;
        writeGroup(child, node, instance, { nodes: inner.nodes, vars: { ...vars, [child.id]: key } });
        continue;
      }
      const base = child.context ? inner.nodes[child.context] : node;
      if (!base) continue;
      const steps = stepsOf(child.path, vars);
      const lead = ensureChain(base, steps.slice(0, -1));
      applyExtras(record, `>${child.id}`, lead, steps);
      const repeat = steps[steps.length - 1] as Step;
      const instanceNode = createStep(lead[lead.length - 1] ?? base, repeat);
      applyExtras(instance, '.', [instanceNode], [repeat]);
      writeGroup(child, instanceNode, instance, inner);
    }
  }
}

/** Writes a batch of element-id-keyed records as an MCCI_IN200100UV01 document tree. */
export function writeR3Batch(batch: E2bBatch, mapping: CompiledMapping, order: XsdOrder): XmlElement {
  const root: XmlElement = {
    name: 'MCCI_IN200100UV01',
    attrs: {
      xmlns: 'urn:hl7-org:v3',
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      ITSVersion: 'XML_1.0',
    },
    children: [],
  };
  const header: E2bRecord = { ...batch.header, groups: { ...batch.header.groups, report: batch.reports } };
  writeGroup(mapping.batch, root, header, { nodes: {}, vars: {} });
  sortBySchema(root, order);
  return root;
}
