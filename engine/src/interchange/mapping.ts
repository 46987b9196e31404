import { compilePath } from './path';
import type { Step } from './path';

const compiled = new Map<string, Step[]>();

/**
 * Compiles a mapping path, substituting `{G.k}`-style placeholders with the identifiers of the
 * enclosing instances (drug and reaction UUIDs); results are cached by the substituted text.
 */
export function stepsOf(path: string, vars?: Record<string, string>): Step[] {
  const text =
    vars && path.includes('{')
      ? path.replace(/\{([\w.]+)\}/g, (whole, name: string) => vars[name] ?? whole)
      : path;
  let steps = compiled.get(text);
  if (!steps) {
    steps = compilePath(text);
    if (compiled.size > 50_000) compiled.clear();
    compiled.set(text, steps);
  }
  return steps;
}

/** One row of a declared mapping table (schemas/e2b/mapping/r3.json). */
export interface MappingElement {
  id: string;
  group: string;
  /** Path from the group's node to the node carrying the value. */
  path: string;
  /** `@attr` or `text`. */
  carrier: string;
  /** Text before the value in the attribute (tel:, mailto:, fax:). */
  prefix?: string;
  dataType: string;
  codeSystem?: string;
  source: string;
  /** Evaluate `path` from this enclosing group's node instead of the element's own group node. */
  context?: string;
  /** Written when the record has no value (transmission parameters such as processingCode). */
  default?: string;
  /** Code in the file -> value in the record (R2 1/2 -> R3 true/false, R2 unit codes -> UCUM). */
  values?: Record<string, string>;
  /** R2: this date's format field (the date is written without time zone, at most 14 digits). */
  dateFormat?: string;
  /** R2: this is the format field of that date element; derived from the date when absent. */
  formatOf?: string;
}

export interface MappingGroup {
  id: string;
  /** `batch`, `report` or another group's id. */
  parent: string;
  /** Path from the parent's (or `context`'s) node to one instance node (the last step repeats). */
  path: string;
  /** Evaluate `path` from this enclosing group's node instead of the parent's. */
  context?: string;
  /**
   * A group with no node of its own (the drug-reaction matrix G.k.9.i): one instance per key found
   * by `keys` (paths ending in an attribute, from `context` nodes); the key is the value of `keyElement`.
   */
  virtual?: { keyElement: string; keys: { context: string; path: string }[] };
}

/** Structure written with every instance of a group (codes, status, interaction ids). */
export interface MappingFixed {
  group: string;
  path: string;
}

export interface MappingTable {
  /** Root element (default MCCI_IN200100UV01) and the element of one report (default PORR_IN049016UV). */
  root?: string;
  message?: string;
  /** Child element order per element name, where no XSD order applies (R2 follows its DTD). */
  order?: Record<string, string[]>;
  groups: MappingGroup[];
  elements: MappingElement[];
  fixed: MappingFixed[];
}

export interface CompiledElement extends MappingElement {
  attr?: string;
}

export interface CompiledGroup {
  id: string;
  parent?: CompiledGroup;
  /** Path from the parent (or context) node to the instances; its last step repeats. */
  path: string;
  context?: string;
  virtual?: MappingGroup['virtual'];
  elements: CompiledElement[];
  fixed: string[];
  children: CompiledGroup[];
}

export interface CompiledMapping {
  root: string;
  order?: Record<string, string[]>;
  batch: CompiledGroup;
  report: CompiledGroup;
  groups: Map<string, CompiledGroup>;
  elements: Map<string, CompiledElement>;
}

/** Compiles a mapping table once: paths parsed, groups linked into their tree. */
export function compileMapping(table: MappingTable): CompiledMapping {
  const groups = new Map<string, CompiledGroup>();
  const make = (id: string, path: string): CompiledGroup => ({
    id,
    path,
    elements: [],
    fixed: [],
    children: [],
  });
  const batch = make('batch', '');
  const report = make('report', table.message ?? 'PORR_IN049016UV');
  report.parent = batch;
  batch.children.push(report);
  groups.set('batch', batch);
  groups.set('report', report);
  for (const g of table.groups) {
    const group = make(g.id, g.path);
    if (g.context) group.context = g.context;
    if (g.virtual) group.virtual = g.virtual;
    groups.set(g.id, group);
  }
  for (const g of table.groups) {
    const group = groups.get(g.id) as CompiledGroup;
    const parent = groups.get(g.parent);
    if (!parent) throw new Error(`mapping: group ${g.id} has unknown parent ${g.parent}`);
    group.parent = parent;
    parent.children.push(group);
  }
  const elements = new Map<string, CompiledElement>();
  for (const e of table.elements) {
    const group = groups.get(e.group);
    if (!group) throw new Error(`mapping: element ${e.id} has unknown group ${e.group}`);
    const compiled: CompiledElement = { ...e };
    if (e.carrier.startsWith('@')) compiled.attr = e.carrier.slice(1);
    group.elements.push(compiled);
    elements.set(e.id, compiled);
  }
  // Instance identifiers are read first: other elements of the group name them in their paths.
  for (const group of groups.values())
    group.elements.sort((a, b) => Number(b.id.endsWith('#id')) - Number(a.id.endsWith('#id')));
  for (const f of table.fixed) {
    const group = groups.get(f.group);
    if (!group) throw new Error(`mapping: fixed structure for unknown group ${f.group}`);
    group.fixed.push(f.path);
  }
  const compiledMapping: CompiledMapping = {
    root: table.root ?? 'MCCI_IN200100UV01',
    batch,
    report,
    groups,
    elements,
  };
  if (table.order) compiledMapping.order = table.order;
  return compiledMapping;
}
