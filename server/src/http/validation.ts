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

export function compileValidator(schema: JsonSchema, kind: 'body' | 'text'): Validator {
  const validate: ValidateFunction = (kind === 'body' ? bodyAjv : textAjv).compile(schema);
  return (value) => {
    if (validate(value)) return;
    const details = { errors: toFieldErrors(validate.errors) };
    // A shared format (schemas/entities/formats.json) names its message: "phone number invalid".
    const declared = validate.errors
      ?.map((error) => (error.parentSchema as Record<string, unknown> | undefined)?.['x-message'])
      .find((key): key is string => typeof key === 'string');
    if (declared) throw new AppError(Code.badRequest, declared, {}, 400, { data: details });
    throw errors.validation(details);
  };
}
