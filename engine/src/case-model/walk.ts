import type { CaseJsonSchema } from './types';

/** One property of the case document, as walkCaseSchema reports it. */
export interface CaseProperty {
  /** Property name in its parent object. */
  name: string;
  /** Document pointer, `*` standing for any array index: `/drugs/*\/dosages/*\/dose`. */
  pointer: string;
  /** The same location as a dotted path with `[*]`: `drugs[*].dosages[*].dose`. */
  path: string;
  /** The property's keywords, `$ref` followed (keywords at the reference site win). */
  schema: CaseJsonSchema;
  /** True when any ancestor is an array (the property repeats). */
  inArray: boolean;
  /** True when the parent object lists the property in `required`. */
  required: boolean;
  /** `$id` of the schema file that declares the property. */
  file: string;
}

export type CaseSchemaVisitor = (property: CaseProperty) => void;

const DOCUMENT_KEYWORDS = new Set(['$id', '$schema', 'title']);

/** Follows a relative `$ref` to a sibling file; keywords written beside the `$ref` override the target's. */
export function derefCaseSchema(
  node: CaseJsonSchema,
  byId: ReadonlyMap<string, CaseJsonSchema>,
  baseId: string,
): { schema: CaseJsonSchema; file: string } {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return { schema: node, file: baseId };
  const targetId = new URL(ref, baseId).href;
  const target = byId.get(targetId);
  if (!target) throw new Error(`Case schema reference ${ref} from ${baseId} does not resolve`);
  const merged: CaseJsonSchema = {};
  for (const [key, value] of Object.entries(target)) if (!DOCUMENT_KEYWORDS.has(key)) merged[key] = value;
  for (const [key, value] of Object.entries(node)) if (key !== '$ref') merged[key] = value;
  return { schema: merged, file: targetId };
}

function objectProperties(schema: CaseJsonSchema): Record<string, CaseJsonSchema> {
  const properties = schema['properties'];
  return properties && typeof properties === 'object' ? (properties as Record<string, CaseJsonSchema>) : {};
}

/** Visits every property of the case document depth-first, in declaration order. */
export function walkSchemaTree(
  root: CaseJsonSchema,
  byId: ReadonlyMap<string, CaseJsonSchema>,
  visit: CaseSchemaVisitor,
): void {
  const rootId = String(root['$id']);
  const walkObject = (
    schema: CaseJsonSchema,
    file: string,
    pointer: string,
    path: string,
    inArray: boolean,
  ): void => {
    const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
    for (const [name, raw] of Object.entries(objectProperties(schema))) {
      const { schema: property, file: propertyFile } = derefCaseSchema(raw, byId, file);
      const propertyPointer = `${pointer}/${name}`;
      const propertyPath = path ? `${path}.${name}` : name;
      visit({
        name,
        pointer: propertyPointer,
        path: propertyPath,
        schema: property,
        inArray,
        required: required.has(name),
        file,
      });
      walkChildren(property, propertyFile, propertyPointer, propertyPath, inArray);
    }
  };
  const walkChildren = (
    schema: CaseJsonSchema,
    file: string,
    pointer: string,
    path: string,
    inArray: boolean,
  ): void => {
    if (schema['type'] === 'object') walkObject(schema, file, pointer, path, inArray);
    if (schema['type'] === 'array' && schema['items'] && typeof schema['items'] === 'object') {
      const items = derefCaseSchema(schema['items'] as CaseJsonSchema, byId, file);
      if (items.schema['type'] === 'object')
        walkObject(items.schema, items.file, `${pointer}/*`, `${path}[*]`, true);
    }
  };
  walkObject(root, rootId, '', '', false);
}

/** Finds the property a document pointer (with `*` for array indexes) names, or undefined. */
export function findCaseProperty(
  root: CaseJsonSchema,
  byId: ReadonlyMap<string, CaseJsonSchema>,
  pointer: string,
): CaseJsonSchema | undefined {
  if (!pointer.startsWith('/')) return undefined;
  let current: CaseJsonSchema = root;
  let file = String(root['$id']);
  for (const token of pointer.slice(1).split('/')) {
    if (token === '*') {
      if (current['type'] !== 'array' || !current['items']) return undefined;
      ({ schema: current, file } = derefCaseSchema(current['items'] as CaseJsonSchema, byId, file));
      continue;
    }
    const raw = objectProperties(current)[token];
    if (!raw) return undefined;
    ({ schema: current, file } = derefCaseSchema(raw, byId, file));
  }
  return current;
}
