import type { XmlElement } from './dom';

/** Child elements of each schema type in sequence order (schemas/e2b/mapping/r3-xsd-order.json). */
export interface XsdOrder {
  roots: Record<string, string>;
  types: Record<string, [string, string][]>;
}

/**
 * Reorders siblings to the schema's sequence (stable for siblings of one name), following each
 * child's declared type, or its xsi:type where the document names one.
 */
export function sortBySchema(root: XmlElement, order: XsdOrder): void {
  const rootType = order.roots[root.name];
  if (rootType) sortNode(root, rootType, order);
}

function sortNode(node: XmlElement, typeName: string, order: XsdOrder): void {
  const declared = order.types[typeName];
  if (!declared) return;
  const rank = new Map<string, number>();
  const childType = new Map<string, string>();
  declared.forEach(([name, type], i) => {
    if (!rank.has(name)) rank.set(name, i);
    if (!childType.has(name)) childType.set(name, type);
  });
  if (node.children.length > 1) {
    const keyed = node.children.map((child, i) => ({
      child,
      i,
      r: rank.get(child.name) ?? Number.MAX_SAFE_INTEGER,
    }));
    keyed.sort((a, b) => a.r - b.r || a.i - b.i);
    node.children = keyed.map((k) => k.child);
  }
  for (const child of node.children) {
    const explicit = child.attrs['xsi:type'];
    const type = explicit && order.types[explicit] ? explicit : childType.get(child.name);
    if (type) sortNode(child, type, order);
  }
}

/** Reorders siblings by a per-element list of child names (R2 follows its DTD's sequences). */
export function sortByNames(node: XmlElement, order: Record<string, string[]>): void {
  const names = order[node.name];
  if (names && node.children.length > 1) {
    const rank = new Map(names.map((n, i) => [n, i]));
    const keyed = node.children.map((child, i) => ({
      child,
      i,
      r: rank.get(child.name) ?? Number.MAX_SAFE_INTEGER,
    }));
    keyed.sort((a, b) => a.r - b.r || a.i - b.i);
    node.children = keyed.map((k) => k.child);
  }
  for (const child of node.children) sortByNames(child, order);
}
