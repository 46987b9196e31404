/**
 * Validators for one resolved configuration, compiled once and cached by its hash:
 * the whole-case AJV validator, per-field validators (lazy) and the compiled rules per profile.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { Options, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { compileRules } from '../rules/compile';
import type { CompiledRules } from '../rules/compile';
import { buildFieldIndex } from '../rules/field-index';
import type { FieldIndex } from '../rules/field-index';
import { annotationKeywords, expandForValidation } from '../schema-registry/expand';
import type { ResolvedConfiguration } from '../schema-registry/resolve';
import { tokensToPointer, walkFields } from '../schema-registry/schema-set';
import type { FieldInfo, SchemaSet } from '../schema-registry/types';
import { codesKeyword } from './codelist-keyword';
import { e2bDateKeyword } from './e2b-date';
import { maxLengthKeyword } from './max-length-keyword';

/** Rules added by configuration edits run under this profile name, with every selection. */
export const CUSTOM_PROFILE = 'custom';

export interface CompiledConfiguration {
  configuration: ResolvedConfiguration;
  ajv: Ajv2020;
  validateCaseSchema: ValidateFunction;
  fields: FieldInfo[];
  fieldIndex: FieldIndex;
  /** Compiled rules by profile (the profiles of the configuration plus `custom`). */
  rules: Map<string, CompiledRules>;
  /** Validator of one field's value (the schema of that property alone), compiled on first use. */
  fieldValidator(path: string): ValidateFunction | undefined;
}

/** Keywords with validation code; every other x- keyword is an annotation. */
const CODE_KEYWORDS = new Set(['x-e2b-date', 'x-codes', 'x-maxLength']);

const ALWAYS_ANNOTATIONS = [
  'x-e2b',
  'x-label',
  'x-nullFlavors',
  'x-codelist',
  'x-hidden',
  'x-custom',
  'x-codelistSubset',
  'x-codelistAdded',
];

export function createAjv(
  schemas: SchemaSet,
  options: Pick<Options, 'code' | 'inlineRefs' | 'validateSchema'> = {},
): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    passContext: true,
    strictSchema: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    ...options,
  });
  // ajv-formats ships its own copy of the Ajv types; the instance is the same Ajv 8 class at runtime.
  (addFormats as unknown as (instance: Ajv2020) => void)(ajv);
  ajv.addKeyword(e2bDateKeyword);
  ajv.addKeyword(codesKeyword);
  ajv.addKeyword(maxLengthKeyword);
  for (const keyword of new Set([...ALWAYS_ANNOTATIONS, ...annotationKeywords(schemas)])) {
    if (!CODE_KEYWORDS.has(keyword)) ajv.addKeyword({ keyword });
  }
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  return ajv;
}

function compileConfiguration(configuration: ResolvedConfiguration): CompiledConfiguration {
  const expanded = expandForValidation(configuration.schemas, configuration.codelists);
  // Compile speed matters (one compile per configuration version): no meta-schema pass (the schemas are
  // checked against the meta-schema in tests, custom fields are restricted to plain types), no
  // inlining of shared definitions, no codegen optimisation pass. Validation speed is unchanged.
  const ajv = createAjv(expanded, { validateSchema: false, inlineRefs: false, code: { optimize: false } });
  const validateCaseSchema = ajv.getSchema(configuration.rootId);
  if (!validateCaseSchema) throw new Error(`root schema ${configuration.rootId} missing`);
  const fields = walkFields(configuration.schemas, configuration.rootId);
  const fieldIndex = buildFieldIndex(fields);
  const disabled = new Set(configuration.disabledRules);
  const rules = new Map<string, CompiledRules>();
  for (const set of configuration.ruleSets)
    rules.set(set.profile, compileRules(set.rules, fieldIndex, disabled));
  rules.set(CUSTOM_PROFILE, compileRules(configuration.customRules, fieldIndex, disabled));
  const fieldValidators = new Map<string, ValidateFunction | undefined>();
  return {
    configuration,
    ajv,
    validateCaseSchema,
    fields,
    fieldIndex,
    rules,
    fieldValidator(path) {
      if (fieldValidators.has(path)) return fieldValidators.get(path);
      const field = fieldIndex.byPath.get(path);
      const validator = field
        ? ajv.compile({ $ref: `${field.location.fileId}#${tokensToPointer(field.location.tokens)}` })
        : undefined;
      fieldValidators.set(path, validator);
      return validator;
    },
  };
}

const CACHE_LIMIT = 16;
const cache = new Map<string, CompiledConfiguration>();

/** The compiled validators of a configuration; compiled on first use, then served from the cache. */
export function compiledConfiguration(configuration: ResolvedConfiguration): CompiledConfiguration {
  const hit = cache.get(configuration.hash);
  if (hit) {
    cache.delete(configuration.hash);
    cache.set(configuration.hash, hit);
    return hit;
  }
  const compiled = compileConfiguration(configuration);
  cache.set(configuration.hash, compiled);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  return compiled;
}

/** For benchmarks: compile without touching the cache. */
export function compileConfigurationUncached(configuration: ResolvedConfiguration): CompiledConfiguration {
  return compileConfiguration(configuration);
}
