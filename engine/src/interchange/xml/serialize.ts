import type { XmlElement } from './dom';

const escapeText = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
const escapeAttr = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');

function inline(node: XmlElement): string {
  let open = `<${node.name}`;
  for (const key in node.attrs) open += ` ${key}="${escapeAttr(node.attrs[key] as string)}"`;
  if (node.children.length === 0 && node.text === undefined) return `${open}/>`;
  return `${open}>${node.text !== undefined ? escapeText(node.text) : ''}${node.children.map(inline).join('')}</${node.name}>`;
}

/** Writes an element tree as indented XML with its declaration. */
export function serializeXml(root: XmlElement, indent = '\t'): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  const write = (node: XmlElement, depth: number): void => {
    const pad = indent.repeat(depth);
    let open = `${pad}<${node.name}`;
    for (const key in node.attrs) open += ` ${key}="${escapeAttr(node.attrs[key] as string)}"`;
    if (node.children.length === 0 && node.text === undefined) {
      out.push(`${open}/>\n`);
      return;
    }
    if (node.children.length === 0) {
      out.push(`${open}>${escapeText(node.text as string)}</${node.name}>\n`);
      return;
    }
    if (node.text !== undefined) {
      // Mixed content (an attachment's text with its reference): no layout whitespace may be added.
      out.push(`${open}>${escapeText(node.text)}${node.children.map(inline).join('')}</${node.name}>\n`);
      return;
    }
    out.push(`${open}>\n`);
    for (const child of node.children) write(child, depth + 1);
    out.push(`${pad}</${node.name}>\n`);
  };
  write(root, 0);
  return out.join('');
}
