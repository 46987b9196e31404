import type { XmlElement } from './xml/dom';

/**
 * The data leaves of a document: element path (names from the root) with one attribute value or
 * its text, as `path/@attr=value` or `path/text()=value`. Namespace declarations are not data.
 */
export function dataLeaves(root: XmlElement): string[] {
  const out: string[] = [];
  const walk = (node: XmlElement, path: string): void => {
    for (const attr in node.attrs)
      if (!attr.startsWith('xmlns')) out.push(`${path}/@${attr}=${node.attrs[attr]}`);
    if (node.text !== undefined && node.text.trim() !== '') out.push(`${path}/text()=${node.text}`);
    for (const child of node.children) walk(child, `${path}/${child.name}`);
  };
  walk(root, `/${root.name}`);
  return out;
}

/** Leaves of `before` missing from `after`, counting repeats (order ignored). */
export function missingLeaves(
  before: XmlElement,
  after: XmlElement,
  ignore: (leaf: string) => boolean = () => false,
): string[] {
  const available = new Map<string, number>();
  for (const leaf of dataLeaves(after)) available.set(leaf, (available.get(leaf) ?? 0) + 1);
  const missing: string[] = [];
  for (const leaf of dataLeaves(before)) {
    if (ignore(leaf)) continue;
    const n = available.get(leaf) ?? 0;
    if (n > 0) available.set(leaf, n - 1);
    else missing.push(leaf);
  }
  return missing;
}
