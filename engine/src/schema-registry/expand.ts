/**
 * Turns the authoring keywords of the case schema into plain JSON Schema for validation:
 * `x-codelist` becomes `x-codes` (the list of codes, a Set lookup: validation/codelist-keyword.ts), `x-nullFlavors` lets the property hold `{"nullFlavor": "UNK"}`.
 * `x-e2b-date` stays: it is an AJV keyword (validation/e2b-date.ts).
 */
import type { Codelist, CodelistValue, JsonSchema, SchemaSet } from './types';

/** Keyword holding a per-configuration restriction of a code list (changeOptions edit). */
export const CODELIST_SUBSET = 'x-codelistSubset';
/** Keyword holding values a configuration adds to a code list (changeOptions edit). */
export const CODELIST_ADDED = 'x-codelistAdded';

export function nullFlavorSchema(allowed: readonly string[]): JsonSchema {
  return {
    type: 'object',
    properties: { nullFlavor: { enum: [...allowed] } },
    required: ['nullFlavor'],
    additionalProperties: false,
  };
}

/** The codes a property accepts after subset and added values. */
export function allowedCodes(
  node: JsonSchema,
  codelists: Record<string, Codelist>,
): CodelistValue[] | undefined {
  const name = node['x-codelist'];
  if (typeof name !== 'string') return undefined;
  const list = codelists[name];
  if (!list) throw new Error(`unknown code list "${name}"`);
  const subset = node[CODELIST_SUBSET] as string[] | undefined;
  const added = (node[CODELIST_ADDED] as CodelistValue[] | undefined) ?? [];
  const base = subset ? list.values.filter((value) => subset.includes(value.code)) : list.values;
  return [...base, ...added];
}

function typedCode(code: string, type: unknown): string | number {
  return (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(code) ? Number(code) : code;
}

function expandNode(node: unknown, codelists: Record<string, Codelist>): unknown {
  if (Array.isArray(node)) return node.map((item) => expandNode(item, codelists));
  if (node === null || typeof node !== 'object') return node;
  const source = node as JsonSchema;
  let out: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    // enum/const/default/examples hold data, not schemas.
    out[key] =
      key === 'enum' || key === 'const' || key === 'default' || key === 'examples'
        ? value
        : expandNode(value, codelists);
  }
  if (typeof out.maxLength === 'number') {
    out['x-maxLength'] = out.maxLength;
    delete out.maxLength;
  }
  const codes = allowedCodes(source, codelists);
  if (codes && out.enum === undefined)
    out['x-codes'] = codes.map((value) => typedCode(value.code, source.type));
  const flavors = source['x-nullFlavors'];
  if (Array.isArray(flavors) && flavors.length > 0) {
    // if/then/else instead of anyOf: same accepted values, one branch evaluated, errors from that branch only.
    const annotations: JsonSchema = {};
    const value: JsonSchema = {};
    for (const [key, keywordValue] of Object.entries(out)) {
      if (
        key === 'x-e2b' ||
        key === 'x-label' ||
        key === 'x-nullFlavors' ||
        key === 'title' ||
        key === 'description'
      ) {
        annotations[key] = keywordValue;
      } else value[key] = keywordValue;
    }
    out = {
      ...annotations,
      if: { type: 'object', required: ['nullFlavor'] },
      then: nullFlavorSchema(flavors as string[]),
      else: value,
    };
  }
  return out;
}

/** A deep copy of the schema set ready for AJV. */
export function expandForValidation(schemas: SchemaSet, codelists: Record<string, Codelist>): SchemaSet {
  const out: SchemaSet = {};
  for (const [id, schema] of Object.entries(schemas)) out[id] = expandNode(schema, codelists) as JsonSchema;
  return out;
}

/** Every `x-*` keyword used anywhere in the set, so AJV can accept them as annotations in strict mode. */
export function annotationKeywords(schemas: SchemaSet): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('x-')) found.add(key);
        if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') visit(value);
      }
    }
  };
  Object.values(schemas).forEach(visit);
  return [...found].sort();
}
