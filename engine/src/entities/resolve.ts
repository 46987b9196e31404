/**
 * Entity schemas (schemas/entities/*.json) with their references inlined. An entity names a shared
 * format or another entity's property with `$ref` (`formats.json#/$defs/phone`,
 * `user.json#/properties/account`, `#/properties/name` inside the same file); the server's request
 * bodies and the browser's forms both read the inlined result, so the rule is declared once and
 * both sides check the same thing. Pure: the caller hands in the files (the server reads them from
 * disk, the browser bundles them).
 */

export type SchemaObject = Record<string, unknown>;

/** File name without `.json` (e.g. `user`, `formats`) -> its parsed JSON. */
export type EntityFiles = Readonly<Record<string, SchemaObject>>;

/** An entity schema after inlining: an object schema with its properties. */
export type ResolvedEntity = SchemaObject & {
  properties: Record<string, SchemaObject>;
  required?: string[];
  'x-label'?: { zh: string; en: string };
};

function pointerGet(root: unknown, pointer: string, where: string): unknown {
  let node = root;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    if (raw === '') continue;
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !(key in node))
      throw new Error(`${where}: nothing at #${pointer}`);
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The schema a reference names, from the file `base` (the referring file's name). */
export function lookupRef(files: EntityFiles, ref: string, base: string): { schema: unknown; file: string } {
  const [target = '', pointer = ''] = ref.split('#');
  const file = target ? target.replace(/^\.\//, '').replace(/\.json$/, '') : base;
  const document = files[file];
  if (!document) throw new Error(`${base}.json: $ref ${ref} names an unknown entity file`);
  return { schema: pointerGet(document, pointer, `${base}.json $ref ${ref}`), file };
}

function inline(files: EntityFiles, node: unknown, base: string, seen: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => inline(files, item, base, seen));
  if (!node || typeof node !== 'object') return node;
  const { $ref, ...siblings } = node as SchemaObject;
  let result: SchemaObject = {};
  if (typeof $ref === 'string') {
    const { schema, file } = lookupRef(files, $ref, base);
    const key = `${file}#${$ref.split('#')[1] ?? ''}`;
    if (seen.includes(key)) throw new Error(`${base}.json: $ref cycle through ${key}`);
    // Siblings of a $ref only annotate (x-label) or narrow (a shorter maxLength) in these files.
    result = { ...(inline(files, schema, file, [...seen, key]) as SchemaObject) };
  }
  for (const [name, value] of Object.entries(siblings)) result[name] = inline(files, value, base, seen);
  return result;
}

/** A whole entity file, or the object schema at `name#/pointer`, with every `$ref` inlined. */
export function resolveEntity(files: EntityFiles, name: string): ResolvedEntity {
  const [file = '', pointer] = name.split('#');
  const document = files[file];
  if (!document) throw new Error(`unknown entity schema "${file}"`);
  const node = pointer === undefined ? document : pointerGet(document, pointer, name);
  const resolved = inline(files, node, file, []) as SchemaObject;
  if (!resolved.properties || typeof resolved.properties !== 'object')
    throw new Error(`entity schema "${name}" declares no properties`);
  return resolved as ResolvedEntity;
}

/** The keywords that say what a value may be (as opposed to labels and UI hints). */
export const VALIDATION_KEYWORDS: readonly string[] = [
  '$ref',
  'type',
  'format',
  'pattern',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'items',
  'prefixItems',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'dependentRequired',
  'minProperties',
  'maxProperties',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
];

/**
 * An object schema made of some of an entity's properties (a form, a request body): the entity's
 * own declarations of those fields, required where the entity requires them, and the entity's
 * conditions when every field they name is picked.
 */
export function pickEntity(entity: ResolvedEntity, fields: readonly string[]): SchemaObject {
  const properties: Record<string, SchemaObject> = {};
  for (const field of fields) {
    const property = entity.properties[field];
    if (!property) throw new Error(`entity "${String(entity.title ?? '')}" has no property "${field}"`);
    properties[field] = property;
  }
  const picked: SchemaObject = {
    type: 'object',
    required: (entity.required ?? []).filter((field) => fields.includes(field)),
    properties,
  };
  const conditions = Object.fromEntries(
    ['allOf', 'if', 'then', 'else', 'dependentRequired']
      .filter((keyword) => entity[keyword] !== undefined)
      .map((keyword) => [keyword, entity[keyword]]),
  );
  // Quoted words of the conditions that are property names: the fields they constrain.
  const mentioned = (JSON.stringify(conditions).match(/"([A-Za-z0-9_]+)"/g) ?? [])
    .map((quoted) => quoted.slice(1, -1))
    .filter((word) => word in entity.properties && !VALIDATION_KEYWORDS.includes(word));
  if (mentioned.every((field) => fields.includes(field))) Object.assign(picked, conditions);
  return picked;
}
