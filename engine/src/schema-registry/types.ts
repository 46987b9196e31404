/** Shapes shared by the schema registry, the validators and the rule interpreter. */

/** A JSON Schema node as stored in schemas/ (JSON Schema 2020-12 plus our x- keywords). */
export type JsonSchema = { [keyword: string]: unknown };

/** Schema documents keyed by their `$id`. */
export type SchemaSet = Record<string, JsonSchema>;

export interface BilingualText {
  zh: string;
  en: string;
}

export interface CodelistValue {
  code: string;
  zh: string;
  en: string;
}

/** schemas/codelists/<name>.json */
export interface Codelist {
  name: string;
  e2b?: string | string[];
  oid?: string;
  labels?: BilingualText;
  values: CodelistValue[];
}

export const NULL_FLAVORS = ['NI', 'MSK', 'UNK', 'NA', 'ASKU', 'NASK', 'NINF', 'PINF'] as const;
export type NullFlavor = (typeof NULL_FLAVORS)[number];

/** Where a schema node lives: the document `$id` and the JSON pointer tokens inside it. */
export interface SchemaLocation {
  fileId: string;
  tokens: string[];
}

/** One field of the case document found by walking the schema. */
export interface FieldInfo {
  /** Dotted data path, arrays as `[*]`: `drugs[*].dosages[*].doseValue`. */
  path: string;
  e2b?: string;
  label?: BilingualText;
  /** Where the property node (as written in its parent's `properties`) lives. */
  location: SchemaLocation;
  /** The property node after following `$ref`s. */
  schema: JsonSchema;
  kind: 'object' | 'array' | 'value';
  /** True when the property is in its parent's `required` list. */
  required: boolean;
  hidden: boolean;
}
