import type { XmlElement } from '../xml/dom';
import type { Step } from '../path';
import { createStep, ensureStep, selectFirst } from '../path';
import { subNodes } from './read';
import type { CompiledElement, CompiledGroup, CompiledMapping } from '../mapping';
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

/** The value as the file writes it: R3 codes back to the file's codes, R2 dates without zone. */
function fileValue(element: CompiledElement, value: string): string {
  if (element.values) {
    const code = Object.keys(element.values).find((k) => element.values?.[k] === value);
    if (code !== undefined) return code;
  }
  if (element.dateFormat) return value.replace(/[+-]\d{4}$/, '').slice(0, 14);
  return value;
}

const r2DateFormats: Record<number, string> = { 4: '602', 6: '610', 8: '102', 12: '203', 14: '204' };

/** An R2 date-format field the record lacks (the case came from R3): from its date's precision. */
function derivedFormat(element: CompiledElement, record: E2bRecord): string | undefined {
  if (!element.formatOf) return undefined;
  const date = record.values[element.formatOf];
  if (typeof date !== 'string') return undefined;
  return r2DateFormats[date.replace(/[+-]\d{4}$/, '').slice(0, 14).length];
}

const hasExtras = (record: E2bRecord, id: string): boolean =>
  !!record.attrs && Object.keys(record.attrs).some((k) => k.startsWith(`${id}/`));

/** Puts back the attributes kept at import (displayName, mediaType ...) on an element's nodes. */
function applyExtras(record: E2bRecord, key: string, chain: XmlElement[], steps: Step[]): void {
  const extras = record.attrs;
  if (!extras) return;
  chain.forEach((n, i) => {
    applyAttrs(n, extras[`${key}/${i}`]);
    for (const [subKey, sub] of subNodes(n, steps[i] as Step, `${key}/${i}`)) applyAttrs(sub, extras[subKey]);
  });
}

const clone = (node: XmlElement): XmlElement => ({
  ...node,
  attrs: { ...node.attrs },
  children: node.children.map(clone),
});

/** Puts back the parts of a received message that no mapping entry describes (see keepFragments). */
function writeFragments(node: XmlElement, record: E2bRecord): void {
  for (const fragment of record.fragments ?? []) {
    const steps = stepsOf(fragment.anchor);
    const parent = selectFirst(node, steps) ?? ensureChain(node, steps).pop() ?? node;
    parent.children.push(clone(fragment.node));
  }
}

/**
 * A drug or reaction entered in the platform has no UUID yet, but causality (G.k.9.i) refers to it
 * by one: an instance whose group declares an identifier gets a fresh one when it has none.
 */
function withInstanceId(group: CompiledGroup, record: E2bRecord): E2bRecord {
  const key = `${group.id}#id`;
  if (record.values[key] !== undefined || !group.elements.some((e) => e.id === key)) return record;
  return { ...record, values: { ...record.values, [key]: globalThis.crypto.randomUUID() } };
}

function writeGroup(group: CompiledGroup, node: XmlElement, given: E2bRecord, scope: Scope): void {
  const record = withInstanceId(group, given);
  const vars = { ...scope.vars };
  const id = record.values[`${group.id}#id`];
  if (typeof id === 'string') vars[group.id] = id;
  const inner: Scope = { nodes: { ...scope.nodes, [group.id]: node }, vars };
  if (!group.virtual) applyAttrs(node, record.attrs?.['.']);
  for (const fixed of group.fixed) ensureChain(node, stepsOf(fixed, vars));
  for (const element of group.elements) {
    // An R2 date-format field follows its date's precision (the date may have been edited).
    const value = derivedFormat(element, record) ?? record.values[element.id] ?? element.default;
    if (!element.path && !element.carrier) continue;
    // An element that came as a node without a value is written back as that node.
    const present = value !== undefined || hasExtras(record, element.id);
    if (!present) continue;
    const base = element.context ? inner.nodes[element.context] : node;
    if (!base) continue;
    const steps = stepsOf(element.path, vars);
    const chain = ensureChain(base, steps);
    const target = chain[chain.length - 1] ?? base;
    if (value === undefined) {
      applyExtras(record, element.id, chain, steps);
      continue;
    }
    if (isNullFlavored(value)) target.attrs.nullFlavor = value.nullFlavor;
    else {
      const written = fileValue(element, value);
      if (element.attr) target.attrs[element.attr] = (element.prefix ?? '') + written;
      else target.text = written;
    }
    applyExtras(record, element.id, chain, steps);
    // A code written without the code system it came with gets the element's declared one.
    if (
      element.attr === 'code' &&
      element.codeSystem &&
      !element.codeSystem.includes(' ') &&
      target.attrs.codeSystem === undefined
    ) {
      target.attrs.codeSystem = element.codeSystem;
    }
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
  if (!group.virtual) writeFragments(node, record);
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
  writeBatch(batch, mapping, root);
  sortBySchema(root, order);
  return root;
}

/** Writes a batch into `root` by a mapping table (the R2 table uses it too). */
export function writeBatch(batch: E2bBatch, mapping: CompiledMapping, root: XmlElement): void {
  const header: E2bRecord = { ...batch.header, groups: { ...batch.header.groups, report: batch.reports } };
  writeGroup(mapping.batch, root, header, { nodes: {}, vars: {} });
}
