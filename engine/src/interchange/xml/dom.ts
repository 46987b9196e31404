/** The small element tree the interchange code reads and writes (no mixed content: E2B has none). */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Text content, if the element carries any (entity references already decoded). */
  text?: string;
}

export const element = (
  name: string,
  attrs: Record<string, string> = {},
  children: XmlElement[] = [],
  text?: string,
): XmlElement => (text === undefined ? { name, attrs, children } : { name, attrs, children, text });

export const childrenNamed = (parent: XmlElement, name: string): XmlElement[] =>
  parent.children.filter((c) => c.name === name);

export const firstChild = (parent: XmlElement, name: string): XmlElement | undefined =>
  parent.children.find((c) => c.name === name);

/** Text of the first descendant reached by a chain of child names, or undefined. */
export function textAt(parent: XmlElement, ...names: string[]): string | undefined {
  let node: XmlElement | undefined = parent;
  for (const n of names) {
    node = node && firstChild(node, n);
    if (!node) return undefined;
  }
  return node.text;
}

/** Local name (namespace prefix dropped): E2B documents use the default HL7 namespace. */
export const localName = (name: string): string => {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
};
