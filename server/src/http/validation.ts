/**
 * JSON Schema 2020-12 validation of request bodies, queries and path parameters (ajv). Schemas
 * are compiled once, when the route is declared.
 */
import { Ajv2020 } from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { AppError, errors } from './errors';
import { Code } from './envelope';

export type JsonSchema = Record<string, unknown> | boolean;

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

function makeAjv(coerceTypes: boolean | 'array'): Ajv2020 {
  // verbose: an error carries the schema it broke, so a format's own message (x-message) can be answered.
  const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes, useDefaults: true, verbose: true });
  addFormats(ajv);
  // Schemas in schemas/ annotate E2B ids and UI hints; they are data for other layers.
  ajv.addVocabulary(['x-e2b', 'x-permission', 'x-ui']);
  return ajv;
}

/** Bodies are JSON: no coercion. Queries and path parameters are text: coerce to the schema's types. */
const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

export interface FieldError {
  /** JSON pointer of the offending value ('' for the whole body). */
  path: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

export function toFieldErrors(list: ErrorObject[] | null | undefined): FieldError[] {
  return (list ?? []).map((error) => ({
    path:
      error.keyword === 'required'
        ? `${error.instancePath}/${String((error.params as { missingProperty?: string }).missingProperty)}`
        : error.instancePath,
    keyword: error.keyword,
    params: error.params as Record<string, unknown>,
    message: error.message ?? error.keyword,
  }));
}

export type Validator = (value: unknown) => void;

type Accepts = (value: unknown) => boolean;

const ANNOTATIONS = new Set(['description', 'title']);
const onlyKeys = (schema: Record<string, unknown>, allowed: readonly string[]): boolean =>
  Object.keys(schema).every((key) => allowed.includes(key) || ANNOTATIONS.has(key));

/**
 * For an object of plain string properties (type, pattern, minLength, maxLength; `required`): a
 * test that accepts only what ajv accepts, without ajv (path parameters are checked on every
 * request, and ajv's generated code costs ~1.5 us there). Anything it does not accept goes to
 * ajv, which answers or refuses it as before. Null for any other schema.
 */
function plainStringsTest(schema: JsonSchema): Accepts | null {
  if (typeof schema !== 'object' || schema.type !== 'object') return null;
  if (!onlyKeys(schema, ['type', 'properties', 'required'])) return null;
  const required = schema.required ?? [];
  const properties = schema.properties ?? {};
  if (!Array.isArray(required) || typeof properties !== 'object' || properties === null) return null;
  const checks: { name: string; required: boolean; test: (text: string) => boolean }[] = [];
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (typeof property !== 'object' || property === null) return null;
    const declared = property as Record<string, unknown>;
    if (declared.type !== 'string' || !onlyKeys(declared, ['type', 'pattern', 'minLength', 'maxLength']))
      return null;
    const { pattern, minLength, maxLength } = declared;
    if (pattern !== undefined && typeof pattern !== 'string') return null;
    if (minLength !== undefined && typeof minLength !== 'number') return null;
    if (maxLength !== undefined && typeof maxLength !== 'number') return null;
    // As ajv builds it (unicodeRegExp); lengths count code points there: a string's code points
    // number between half its UTF-16 length and that length, so only what is sure either way passes.
    const regExp = pattern === undefined ? null : new RegExp(pattern, 'u');
    checks.push({
      name,
      required: required.includes(name),
      test: (text) =>
        (minLength === undefined || Math.ceil(text.length / 2) >= minLength) &&
        (maxLength === undefined || text.length <= maxLength) &&
        (regExp === null || regExp.test(text)),
    });
  }
  if (required.some((name) => !checks.some((check) => check.name === name))) return null;
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    for (const check of checks) {
      const text = (value as Record<string, unknown>)[check.name];
      if (text === undefined ? check.required : typeof text !== 'string' || !check.test(text)) return false;
    }
    return true;
  };
}

export function compileValidator(schema: JsonSchema, kind: 'body' | 'text'): Validator {
  const validate: ValidateFunction = (kind === 'body' ? bodyAjv : textAjv).compile(schema);
  const accepts = kind === 'text' ? plainStringsTest(schema) : null;
  return (value) => {
    if (accepts?.(value) || validate(value)) return;
    const details = { errors: toFieldErrors(validate.errors) };
    // A shared format (schemas/entities/formats.json) names its message: "phone number invalid".
    const declared = validate.errors
      ?.map((error) => (error.parentSchema as Record<string, unknown> | undefined)?.['x-message'])
      .find((key): key is string => typeof key === 'string');
    if (declared) throw new AppError(Code.badRequest, declared, {}, 400, { data: details });
    throw errors.validation(details);
  };
}
