/** Navigation over a set of schema documents linked by relative `$ref`s. */
import type { FieldInfo, JsonSchema, SchemaLocation, SchemaSet } from './types';

export const CASE_ROOT_ID = 'https://schemas.pv.local/case/case.schema.json';

function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function pointerTokens(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer.replace(/^\//, '').split('/').map(decodeToken);
}

export function tokensToPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

export function getAt(schemas: SchemaSet, location: SchemaLocation): JsonSchema | undefined {
  let node: unknown = schemas[location.fileId];
  for (const token of location.tokens) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node !== null && typeof node === 'object' ? (node as JsonSchema) : undefined;
}

/** Resolves `$ref` (relative to the document `$id`) to the location of its target. */
export function resolveRef(ref: string, fromFileId: string): SchemaLocation {
  const hashIndex = ref.indexOf('#');
  const filePart = hashIndex >= 0 ? ref.slice(0, hashIndex) : ref;
  const fragment = hashIndex >= 0 ? ref.slice(hashIndex + 1) : '';
  const fileId = filePart === '' ? fromFileId : new URL(filePart, fromFileId).href;
  return { fileId, tokens: pointerTokens(decodeURIComponent(fragment)) };
}

/** Follows `$ref` chains; sibling keywords of a `$ref` node stay on the node itself. */
export function deref(
  schemas: SchemaSet,
  location: SchemaLocation,
): { location: SchemaLocation; schema: JsonSchema } {
  let current = location;
  for (let hops = 0; hops < 32; hops++) {
    const node = getAt(schemas, current);
    if (!node) throw new Error(`schema not found: ${current.fileId}#${tokensToPointer(current.tokens)}`);
    if (typeof node.$ref !== 'string') return { location: current, schema: node };
    current = resolveRef(node.$ref, current.fileId);
  }
  throw new Error(`$ref chain too long at ${location.fileId}`);
}

/** Reads a keyword of a property node, looking through its `$ref` target when the node does not carry it. */
export function keywordOf(schemas: SchemaSet, location: SchemaLocation, keyword: string): unknown {
  let current: SchemaLocation | undefined = location;
  for (let hops = 0; current && hops < 32; hops++) {
    const node = getAt(schemas, current);
    if (!node) return undefined;
    if (node[keyword] !== undefined) return node[keyword];
    current = typeof node.$ref === 'string' ? resolveRef(node.$ref, current.fileId) : undefined;
  }
  return undefined;
}

/**
 * `drugs[*].dosages[*].doseValue` -> ['drugs', '*', 'dosages', '*', 'doseValue'].
 * A fixed item is written `reporters[0]` and parsed to the segment '0'.
 */
export function parseDataPath(path: string): string[] {
  const segments: string[] = [];
  for (const part of path.split('.')) {
    const match = /^([^[\]]*)((?:\[(?:\*|\d+)\])*)$/.exec(part);
    if (!match || (match[1] === '' && segments.length === 0))
      throw new Error(`bad path segment "${part}" in "${path}"`);
    if (match[1]) segments.push(match[1]);
    for (const index of match[2]!.matchAll(/\[(\*|\d+)\]/g)) segments.push(index[1]!);
  }
  if (segments.length === 0) throw new Error(`empty path "${path}"`);
  return segments;
}

export function isIndexSegment(segment: string): boolean {
  return segment === '*' || /^\d+$/.test(segment);
}

export function formatDataPath(segments: readonly string[]): string {
  let out = '';
  for (const segment of segments)
    out += isIndexSegment(segment) ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out;
}

/** Instance JSON pointer `/drugs/3/dosages/0/doseValue` -> field path `drugs[*].dosages[*].doseValue`. */
export function pointerToFieldPath(pointer: string): string {
  return formatDataPath(pointerTokens(pointer).map((token) => (/^\d+$/.test(token) ? '*' : token)));
}

export interface PropertyTarget {
  /** The object schema holding the property in its `properties` (after deref). */
  parent: { location: SchemaLocation; schema: JsonSchema };
  name: string;
  /** The property node as written in `properties[name]`. */
  property: SchemaLocation;
}

/** Finds the property at a data path; undefined when the path does not exist in the schema. */
export function locateProperty(schemas: SchemaSet, rootId: string, path: string): PropertyTarget | undefined {
  const segments = parseDataPath(path);
  let current = { location: { fileId: rootId, tokens: [] as string[] }, schema: schemas[rootId]! };
  if (!current.schema) return undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === '*') {
      if (!current.schema.items) return undefined;
      current = deref(schemas, {
        fileId: current.location.fileId,
        tokens: [...current.location.tokens, 'items'],
      });
      continue;
    }
    const properties = current.schema.properties as Record<string, JsonSchema> | undefined;
    if (!properties || !properties[segment]) return undefined;
    const property = {
      fileId: current.location.fileId,
      tokens: [...current.location.tokens, 'properties', segment],
    };
    if (i === segments.length - 1) return { parent: current, name: segment, property };
    current = deref(schemas, property);
  }
  return undefined;
}

function kindOf(schema: JsonSchema): FieldInfo['kind'] {
  if (schema.type === 'array' || schema.items) return 'array';
  if (schema.type === 'object' || schema.properties) return 'object';
  return 'value';
}

/** Every property of the document, depth first, with its E2B id and label. */
export function walkFields(schemas: SchemaSet, rootId: string): FieldInfo[] {
  const fields: FieldInfo[] = [];
  const visit = (
    node: { location: SchemaLocation; schema: JsonSchema },
    prefix: string[],
    stack: string[],
  ): void => {
    const key = `${node.location.fileId}#${tokensToPointer(node.location.tokens)}`;
    if (stack.includes(key)) return;
    const nextStack = [...stack, key];
    if (node.schema.items) {
      const item = deref(schemas, {
        fileId: node.location.fileId,
        tokens: [...node.location.tokens, 'items'],
      });
      visit(item, [...prefix, '*'], nextStack);
      return;
    }
    const properties = node.schema.properties as Record<string, JsonSchema> | undefined;
    if (!properties) return;
    const required = Array.isArray(node.schema.required) ? (node.schema.required as string[]) : [];
    for (const name of Object.keys(properties)) {
      const location = {
        fileId: node.location.fileId,
        tokens: [...node.location.tokens, 'properties', name],
      };
      const target = deref(schemas, location);
      const e2b = keywordOf(schemas, location, 'x-e2b');
      const label = keywordOf(schemas, location, 'x-label');
      const path = [...prefix, name];
      fields.push({
        path: formatDataPath(path),
        ...(typeof e2b === 'string' ? { e2b } : {}),
        ...(label && typeof label === 'object' ? { label: label as FieldInfo['label'] } : {}),
        location,
        schema: target.schema,
        kind: kindOf(target.schema),
        required: required.includes(name),
        hidden: keywordOf(schemas, location, 'x-hidden') === true,
      });
      visit(target, path, nextStack);
    }
  };
  const root = schemas[rootId];
  if (root) visit({ location: { fileId: rootId, tokens: [] }, schema: root }, [], []);
  return fields;
}
