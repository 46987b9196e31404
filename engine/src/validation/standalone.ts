/**
 * Standalone validator code for the browser: the same AJV validators as the server, generated as
 * one ES module (AJV standalone code) so that the browser needs neither AJV nor `new Function`
 * (a strict Content Security Policy holds). The custom keywords generate self-contained code:
 * x-e2b-date embeds the source of `e2bDateProblem`, x-codes a Set literal.
 *
 * The module exports `validateCase` (the whole document), `fieldValidators` (JSON-pointer-free field
 * path -> validator of that field's value; left out with `fieldValidators: false`, which halves the
 * module: the browser's case form checks the whole document) and `configurationHash`. The AJV
 * runtime helpers are inlined; the format checks are imported from ajv-formats (the server bundles
 * them into the module it serves, server/src/cases/validators.ts). Call validators as
 * `validate.call({ now }, value)` with `now` in epoch ms from the caller's clock (a validator
 * called without it throws: the engine reads no clock); errors are AJV errors, turned into findings by
 * `findingsFromErrors` (engine) with the same field index.
 */
import standaloneCode from 'ajv/dist/standalone';
import { _ } from 'ajv/dist/compile/codegen';
import type { ResolvedConfiguration } from '../schema-registry/resolve';
import { expandForValidation } from '../schema-registry/expand';
import { tokensToPointer, walkFields } from '../schema-registry/schema-set';
import type { SchemaSet } from '../schema-registry/types';
import { createAjv } from './compile';

/** The small AJV runtime helpers, inlined so the module imports nothing but the format checks. */
const RUNTIME: Record<string, string> = {
  'ajv/dist/runtime/ucs2length': `(function ucs2length(str) {
  let length = 0, pos = 0, value;
  while (pos < str.length) { length++; value = str.charCodeAt(pos++); if (value >= 0xd800 && value <= 0xdbff && pos < str.length) { value = str.charCodeAt(pos); if ((value & 0xfc00) === 0xdc00) pos++; } }
  return length;
})`,
  'ajv/dist/runtime/equal': `(function equal(a, b) {
  if (a === b) return true;
  if (a && b && typeof a == "object" && typeof b == "object") {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !equal(a[k], b[k])) return false;
    return true;
  }
  return a !== a && b !== b;
})`,
};

const KEEP_X = new Set(['x-e2b-date', 'x-codes', 'x-maxLength']);
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_ONE = new Set([
  'items',
  'additionalProperties',
  'if',
  'then',
  'else',
  'not',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
]);

/**
 * The schema without its annotations (labels, E2B ids, titles): AJV embeds some schema objects in
 * the generated code (property tables of additionalProperties), and the labels would more than
 * double them. Errors and their schema paths are unchanged: only sibling annotation keys go.
 */
function withoutAnnotations(node: unknown): unknown {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key) || (key.startsWith('x-') && !KEEP_X.has(key))) continue;
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object')
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, withoutAnnotations(sub)]),
      );
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(withoutAnnotations);
    else if (SCHEMA_ONE.has(key)) out[key] = withoutAnnotations(value);
    else out[key] = value;
  }
  return out;
}

/** AJV's error push, one per error site; the short form behaves the same (vErrors is null or an array). */
const ERROR_PUSH = /if\(vErrors === null\)\{vErrors = \[(err\d+)\];\}else \{vErrors\.push\(\1\);\}/g;

/**
 * AJV's error object, built by one small function instead of an object literal at each of the
 * thousand error sites (a third of the module). Same keys, same order.
 */
const ERROR_OBJECT =
  /const (err\d+) = \{instancePath(?::(.*?))?,schemaPath:("[^"]*"),keyword:("[^"]*"),params:(\{.*?\})\};\(vErrors \?\?= \[\]\)\.push\(\1\);/g;
const ERROR_FUNCTION =
  'function __error(instancePath, schemaPath, keyword, params) { return { instancePath, schemaPath, keyword, params }; }';

export interface StandaloneOptions {
  /** Also export one validator per field (`fieldValidators`); default true. */
  fieldValidators?: boolean;
}

export function standaloneValidatorsModule(
  configuration: ResolvedConfiguration,
  options: StandaloneOptions = {},
): string {
  const expanded = expandForValidation(configuration.schemas, configuration.codelists);
  const stripped: SchemaSet = {};
  for (const [id, schema] of Object.entries(expanded))
    stripped[id] = withoutAnnotations(schema) as SchemaSet[string];
  // No messages (findings take their text from the engine's catalogue), shared functions for $refs.
  const ajv = createAjv(stripped, {
    inlineRefs: false,
    messages: false,
    code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  const exports: Record<string, string> = { validateCase: configuration.rootId };
  const fieldExports: Record<string, string> = {};
  if (options.fieldValidators !== false) {
    walkFields(configuration.schemas, configuration.rootId)
      .filter((field) => field.kind === 'value')
      .forEach((field, i) => {
        const id = `urn:pv:field:${i}`;
        ajv.addSchema({
          $id: id,
          $ref: `${field.location.fileId}#${tokensToPointer(field.location.tokens)}`,
        });
        exports[`field${i}`] = id;
        fieldExports[field.path] = `field${i}`;
      });
  }
  let code = standaloneCode(ajv, exports);
  const imports: string[] = [];
  code = code.replace(
    /require\("([^"]+)"\)(\.default|\.fullFormats)?/g,
    (whole, module: string, member: string | undefined) => {
      if (RUNTIME[module]) return RUNTIME[module]!;
      if (module === 'ajv-formats/dist/formats' && member === '.fullFormats') {
        if (!imports.length)
          imports.push('import { fullFormats as __formats } from "ajv-formats/dist/formats.js";');
        return '__formats';
      }
      throw new Error(`standalone validators: unexpected runtime dependency ${whole}`);
    },
  );
  code = code
    .replace(ERROR_PUSH, '(vErrors ??= []).push($1);')
    .replace(
      ERROR_OBJECT,
      (
        _whole,
        _name: string,
        path: string | undefined,
        schemaPath: string,
        keyword: string,
        params: string,
      ) => `(vErrors ??= []).push(__error(${path ?? 'instancePath'},${schemaPath},${keyword},${params}));`,
    );
  const table = Object.entries(fieldExports)
    .map(([path, name]) => `  ${JSON.stringify(path)}: ${name},`)
    .join('\n');
  return [
    '// Generated from the case schema and its configuration (engine/src/validation/standalone.ts). Do not edit.',
    ...imports,
    code,
    ERROR_FUNCTION,
    `export const configurationHash = ${JSON.stringify(configuration.hash)};`,
    `export const fieldValidators = {\n${table}\n};`,
    '',
  ].join('\n');
}
