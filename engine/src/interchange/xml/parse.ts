import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { InterchangeError } from '../errors';
import type { XmlElement } from './dom';

/** Bounds on what an incoming document may cost; every one is checked before or while parsing. */
export interface XmlLimits {
  maxBytes: number;
  maxDepth: number;
  maxAttributes: number;
  maxElements: number;
}

export const defaultXmlLimits: XmlLimits = {
  maxBytes: 64 * 1024 * 1024,
  maxDepth: 64,
  maxAttributes: 32,
  maxElements: 1_000_000,
};

// Entities are never expanded by the parser; the five predefined ones and character references are
// decoded here, and anything else (an entity the document would need a DTD for) is refused.
const entityPattern = /&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);|&/g;
const predefined: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(entityPattern, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new InterchangeError('xml.malformed', { detail: 'bare &' });
    if (ref[0] === '#') {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code > 0x10ffff)
        throw new InterchangeError('xml.malformed', { detail: whole });
      return String.fromCodePoint(code);
    }
    const char = predefined[ref];
    if (char === undefined) throw new InterchangeError('xml.entity', { name: ref });
    return char;
  });
}

/** Decodes bytes by the encoding the XML declaration names (UTF-8 when none). */
export function decodeXmlBytes(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared ?? 'utf-8', { fatal: true });
  } catch {
    throw new InterchangeError('xml.encoding', { encoding: declared ?? '' });
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new InterchangeError('xml.encoding', { encoding: declared ?? 'utf-8' });
  }
}

/**
 * Refuses what must never reach a parser: any entity declaration, and any DOCTYPE with an internal
 * subset. A bare `<!DOCTYPE x SYSTEM "...dtd">` (every ICH R2 file has one) is tolerated because it
 * is never resolved.
 */
function preScan(xml: string, limits: XmlLimits): void {
  if (xml.length > limits.maxBytes) throw new InterchangeError('xml.tooLarge', { limit: limits.maxBytes });
  if (/<!ENTITY/i.test(xml)) throw new InterchangeError('xml.entityDeclaration');
  const doctype = /<!DOCTYPE/i.exec(xml);
  if (doctype) {
    const end = xml.indexOf('>', doctype.index);
    const declaration = xml.slice(doctype.index, end < 0 ? undefined : end + 1);
    if (end < 0 || declaration.includes('[')) throw new InterchangeError('xml.doctype');
  }
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  allowBooleanAttributes: false,
  maxNestedTags: defaultXmlLimits.maxDepth + 1,
});

type OrderedNode = Record<string, unknown>;

/**
 * fast-xml-parser gathers text one character at a time, so a 1.5 MB base64 attachment costs it
 * ~200 ms, mostly garbage collection. Each long run of plain text between two tags goes to the
 * validator and the parser as a short token instead and is put back, byte for byte, wherever the
 * token lands (text, CDATA or attribute value). A run holds no `<`, `>` or quote and no `&` but of a
 * well-formed reference, so it never spans markup and neither the validator nor the parser
 * reads anything in it (references are decoded after the run is put back), and some
 * non-whitespace, so a token is whitespace exactly when the run was. The token's NUL cannot occur
 * in the document: a document containing one is read as it is.
 */
const LONG_TEXT = 1024;
const TOKEN = /\0(\d+)\0/g;
// A quote, or an `&` not starting a reference the validator accepts too (decoded and range-checked later).
const UNSAFE_IN_RUN = /["']|&(?!#[0-9]+;|#x[0-9a-fA-F]+;|(?:lt|gt|amp|quot|apos);)/;
const asItIs = (xml: string) => ({ xml, restore: (value: string) => value });

function shortenLongText(xml: string): { xml: string; restore: (value: string) => string } {
  const runs: string[] = [];
  if (xml.includes('\0')) return asItIs(xml);
  const parts: string[] = [];
  let kept = 0;
  for (let lt = xml.indexOf('<'); lt >= 0;) {
    const next = xml.indexOf('<', lt + 1);
    if (next < 0) break;
    if (next - lt > LONG_TEXT) {
      // The run is what follows the last `>` before the next `<`.
      const gt = xml.lastIndexOf('>', next);
      const run = gt > lt && next - gt - 1 >= LONG_TEXT ? xml.slice(gt + 1, next) : '';
      if (run && !UNSAFE_IN_RUN.test(run) && /\S/.test(run)) {
        parts.push(xml.slice(kept, gt + 1), `\0${runs.push(run) - 1}\0`);
        kept = next;
      }
    }
    lt = next;
  }
  if (runs.length === 0) return asItIs(xml);
  parts.push(xml.slice(kept));
  const restore = (value: string): string =>
    value.includes('\0') ? value.replace(TOKEN, (_, i: string) => runs[Number(i)]!) : value;
  return { xml: parts.join(''), restore };
}

/** Parses an E2B document into an element tree, refusing anything unsafe or over the limits. */
export function parseXml(input: string | Uint8Array, limits: Partial<XmlLimits> = {}): XmlElement {
  const bounds = { ...defaultXmlLimits, ...limits };
  if (typeof input !== 'string' && input.byteLength > bounds.maxBytes)
    throw new InterchangeError('xml.tooLarge', { limit: bounds.maxBytes });
  let xml = typeof input === 'string' ? input : decodeXmlBytes(input);
  if (xml.charCodeAt(0) === 0xfeff) xml = xml.slice(1);
  preScan(xml, bounds);
  if (!/^\s*</.test(xml)) throw new InterchangeError('xml.malformed', { detail: 'not XML' });
  const asCame = xml;
  // The parser turns every CR LF and lone CR into LF (XML 1.0 section 2.11); so must the runs it is spared.
  if (xml.includes('\r')) xml = xml.replace(/\r\n?/g, '\n');
  let short = shortenLongText(xml);
  // The parser itself tolerates mismatched tags; a document must be well-formed to be trusted.
  let wellFormed = XMLValidator.validate(short.xml);
  if (wellFormed !== true && short.xml !== asCame) {
    // Judged, and a refusal's line named, on the document as it came.
    short = asItIs(xml);
    wellFormed = XMLValidator.validate(asCame);
  }
  if (wellFormed !== true)
    throw new InterchangeError('xml.malformed', {
      detail: `${wellFormed.err.msg} (line ${wellFormed.err.line})`,
    });
  let ordered: OrderedNode[];
  try {
    ordered = parser.parse(short.xml) as OrderedNode[];
  } catch (e) {
    throw new InterchangeError('xml.malformed', {
      detail: e instanceof Error ? e.message.slice(0, 200) : String(e),
    });
  }
  let count = 0;
  const convert = (node: OrderedNode, depth: number): XmlElement | undefined => {
    let name: string | undefined;
    for (const key in node) if (key !== ':@') name = key;
    if (name === undefined || name === '#text' || name[0] === '?' || name[0] === '!') return undefined;
    if (depth > bounds.maxDepth) throw new InterchangeError('xml.tooDeep', { limit: bounds.maxDepth });
    if (++count > bounds.maxElements)
      throw new InterchangeError('xml.tooManyElements', { limit: bounds.maxElements });
    const rawAttrs = (node[':@'] ?? {}) as Record<string, string>;
    const attrs: Record<string, string> = {};
    let attrCount = 0;
    for (const key in rawAttrs) {
      if (++attrCount > bounds.maxAttributes)
        throw new InterchangeError('xml.tooManyAttributes', { element: name, limit: bounds.maxAttributes });
      attrs[key] = decodeEntities(short.restore(rawAttrs[key] as string));
    }
    const children: XmlElement[] = [];
    let text: string | undefined;
    for (const child of node[name] as OrderedNode[]) {
      if ('#text' in child) {
        const value = short.restore(String(child['#text']));
        text = text === undefined ? value : text + value;
        continue;
      }
      const converted = convert(child, depth + 1);
      if (converted) children.push(converted);
    }
    const result: XmlElement = { name, attrs, children };
    if (text !== undefined) {
      // Whitespace between child elements is layout, not data.
      if (children.length === 0 || text.trim() !== '') result.text = decodeEntities(text);
    }
    return result;
  };
  const roots = ordered.map((n) => convert(n, 1)).filter((n): n is XmlElement => n !== undefined);
  if (roots.length !== 1)
    throw new InterchangeError('xml.malformed', { detail: `${roots.length} root elements` });
  return roots[0] as XmlElement;
}
