/**
 * The forms' JSON Schema validator for RJSF, without generated code. AJV compiles every schema
 * into a function with `new Function`, which the page's Content-Security-Policy (script-src 'self',
 * no 'unsafe-eval') forbids; @cfworker/json-schema interprets the schema instead. Its errors are
 * turned into RJSF's (name = keyword, property = .a.0.b, params.limit / params.missingProperty) so
 * the forms translate them as before. The server validates every write again with AJV.
 */
import { Validator } from '@cfworker/json-schema';
import type { OutputUnit, Schema } from '@cfworker/json-schema';
import type {
  CustomValidator,
  ErrorTransformer,
  RJSFSchema,
  RJSFValidationError,
  UiSchema,
  ValidationData,
  ValidatorType,
} from '@rjsf/utils';
import {
  createErrorHandler,
  getDefaultFormState,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
} from '@rjsf/utils';

/** Keywords that only report that something below them failed: the leaf errors say what. */
const CONTAINERS = new Set([
  '$ref',
  '$recursiveRef',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'allOf',
  'dependentSchemas',
  'dependencies',
  'if',
]);
const LIMITS = new Set([
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

type Data = unknown;

/** One validator per schema object (RJSF hands the same objects again while the form lives). */
const compiled = new WeakMap<object, WeakMap<object, Validator>>();

function validatorFor(schema: RJSFSchema, rootSchema: RJSFSchema): Validator {
  let byRoot = compiled.get(schema);
  if (!byRoot) compiled.set(schema, (byRoot = new WeakMap()));
  let validator = byRoot.get(rootSchema);
  if (!validator) {
    // A sub-schema's '#/...' references point into the root schema's definitions.
    const { $schema: _ignored, ...own } = schema as Record<string, unknown>;
    const root = rootSchema as Record<string, unknown>;
    const merged = {
      ...own,
      ...(root.$defs && !own.$defs ? { $defs: root.$defs } : {}),
      ...(root.definitions && !own.definitions ? { definitions: root.definitions } : {}),
    };
    validator = new Validator(merged as Schema, '2020-12', false);
    byRoot.set(rootSchema, validator);
  }
  return validator;
}

function decodePointer(location: string): string[] {
  return location
    .replace(/^#\/?/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** RJSF's error for one leaf output unit. */
function toRjsfError(unit: OutputUnit): RJSFValidationError {
  const path = decodePointer(unit.instanceLocation);
  const params: Record<string, unknown> = {};
  if (unit.keyword === 'required') {
    const missing = /required property "(.*)"/.exec(unit.error)?.[1];
    if (missing !== undefined) {
      params.missingProperty = missing;
      path.push(missing);
    }
  }
  if (LIMITS.has(unit.keyword)) {
    const numbers = unit.error.match(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi);
    if (numbers?.length) params.limit = Number(numbers[numbers.length - 1]);
  }
  const property = path.length ? `.${path.join('.')}` : '';
  return {
    name: unit.keyword,
    property,
    message: unit.error,
    params,
    stack: `${property} ${unit.error}`.trim(),
    schemaPath: unit.keywordLocation,
  };
}

function leafErrors(units: OutputUnit[]): OutputUnit[] {
  const leaves = units.filter((unit) => !CONTAINERS.has(unit.keyword));
  return leaves.length ? leaves : units;
}

export class CspValidator implements ValidatorType<Data> {
  rawValidation<Result = OutputUnit>(schema: RJSFSchema, formData?: Data) {
    try {
      const result = validatorFor(schema, schema).validate(formData);
      return { errors: result.valid ? undefined : (leafErrors(result.errors) as Result[]) };
    } catch (error) {
      return { validationError: error as Error };
    }
  }

  validateFormData(
    formData: Data,
    schema: RJSFSchema,
    customValidate?: CustomValidator<Data>,
    transformErrors?: ErrorTransformer<Data>,
    uiSchema?: UiSchema<Data>,
  ): ValidationData<Data> {
    const raw = this.rawValidation<OutputUnit>(schema, formData);
    let errors: RJSFValidationError[] = (raw.errors ?? []).map(toRjsfError);
    if (raw.validationError) errors = [...errors, { stack: raw.validationError.message }];
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const errorSchema = toErrorSchema<Data>(errors);
    if (!customValidate) return { errors, errorSchema };
    const filled = getDefaultFormState<Data>(this, schema, formData, schema, true);
    const handler = customValidate(filled, createErrorHandler<Data>(filled), uiSchema, errorSchema);
    return validationDataMerge<Data>({ errors, errorSchema }, unwrapErrorHandler<Data>(handler));
  }

  isValid(schema: RJSFSchema, formData: Data, rootSchema: RJSFSchema): boolean {
    try {
      return validatorFor(schema, rootSchema).validate(formData).valid;
    } catch {
      return false;
    }
  }
}

/** Shared by every form: validators are cached per schema object. */
export const cspValidator: ValidatorType = new CspValidator();
