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
import { hashText, stableStringify } from '../schema-registry/stable-hash';
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
  options: Pick<Options, 'code' | 'inlineRefs' | 'validateSchema' | 'messages'> = {},
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

// Compile speed matters (one compile per configuration version): no meta-schema pass (the schemas are
// checked against the meta-schema in tests, custom fields are restricted to plain types), no
// inlining of shared definitions, no codegen optimisation pass. Validation speed is unchanged.
const COMPILE_OPTIONS = { validateSchema: false, inlineRefs: false, code: { optimize: false } } as const;

/**
 * One AJV instance for every configuration. Each schema file is added under an id carrying its
 * content hash (`…/report.schema.json?v=<hash>`), so a project configuration that changes one
 * section compiles that section and the root only; unchanged sections reuse their validators.
 */
let shared: Ajv2020 | undefined;
/** How many cached configurations use each content-addressed schema id (unused ones are removed). */
const sharedUsers = new Map<string, number>();

function sharedAjv(schemas: SchemaSet): Ajv2020 {
  shared ??= createAjv({}, COMPILE_OPTIONS);
  for (const keyword of annotationKeywords(schemas)) {
    if (!CODE_KEYWORDS.has(keyword) && !shared.getKeyword(keyword)) shared.addKeyword({ keyword });
  }
  return shared;
}

function rewriteRefs(node: unknown, fromId: string, ids: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, fromId, ids));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
      const [file, fragment] = value.split('#') as [string, string | undefined];
      const target = ids.get(new URL(file, fromId).href);
      out[key] = target ? `${target}${fragment !== undefined ? `#${fragment}` : ''}` : value;
    } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') out[key] = value;
    else out[key] = rewriteRefs(value, fromId, ids);
  }
  return out;
}

/** Adds the configuration's schemas under content-addressed ids; returns original id -> added id. */
function addContentAddressed(ajv: Ajv2020, expanded: SchemaSet): Map<string, string> {
  const own = new Map(
    Object.entries(expanded).map(([id, schema]) => [id, hashText(stableStringify(schema))]),
  );
  const all = hashText([...own].map(([id, hash]) => `${id}=${hash}`).join('|'));
  const hasFileRefs = (schema: unknown): boolean => /"\$ref":"(?!#)/.test(JSON.stringify(schema));
  // A file that refers to other files is identified by the whole set, the others by their own content.
  const ids = new Map(
    [...own].map(([id, hash]) => [id, `${id}?v=${hasFileRefs(expanded[id]) ? all : hash}`]),
  );
  for (const [id, schema] of Object.entries(expanded)) {
    const addressed = ids.get(id)!;
    if (!ajv.schemas[addressed]) {
      ajv.addSchema({ ...(rewriteRefs(schema, id, ids) as SchemaSet[string]), $id: addressed });
    }
  }
  return ids;
}

function compileConfiguration(
  configuration: ResolvedConfiguration,
): CompiledConfiguration & { schemaIds: string[] } {
  const expanded = expandForValidation(configuration.schemas, configuration.codelists);
  const ajv = sharedAjv(expanded);
  const ids = addContentAddressed(ajv, expanded);
  const validateCaseSchema = ajv.getSchema(ids.get(configuration.rootId)!);
  if (!validateCaseSchema) throw new Error(`root schema ${configuration.rootId} missing`);
  const { fields, fieldIndex, rules } = compiledRulesOf(configuration);
  const fieldValidators = new Map<string, ValidateFunction | undefined>();
  return {
    configuration,
    ajv,
    validateCaseSchema,
    fields,
    fieldIndex,
    rules,
    schemaIds: [...ids.values()],
    fieldValidator(path) {
      if (fieldValidators.has(path)) return fieldValidators.get(path);
      const field = fieldIndex.byPath.get(path);
      const validator = field
        ? ajv.compile({ $ref: `${ids.get(field.location.fileId)}#${tokensToPointer(field.location.tokens)}` })
        : undefined;
      fieldValidators.set(path, validator);
      return validator;
    },
  };
}

const CACHE_LIMIT = 16;
const cache = new Map<string, CompiledConfiguration & { schemaIds: string[] }>();

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
  for (const id of compiled.schemaIds) sharedUsers.set(id, (sharedUsers.get(id) ?? 0) + 1);
  if (cache.size > CACHE_LIMIT) {
    const oldest = cache.keys().next().value as string;
    const evicted = cache.get(oldest)!;
    cache.delete(oldest);
    for (const id of evicted.schemaIds) {
      const users = (sharedUsers.get(id) ?? 1) - 1;
      if (users > 0) sharedUsers.set(id, users);
      else {
        sharedUsers.delete(id);
        shared?.removeSchema(id);
      }
    }
  }
  return compiled;
}

export interface CompiledRuleSets {
  fields: FieldInfo[];
  fieldIndex: FieldIndex;
  /** Compiled rules by profile (the profiles of the configuration plus `custom`). */
  rules: Map<string, CompiledRules>;
}

const ruleCache = new Map<string, CompiledRuleSets>();

/**
 * The field index and compiled rules of a configuration, without AJV: what the browser needs next
 * to the standalone validators (no code generation, so a strict Content Security Policy holds).
 */
export function compiledRulesOf(configuration: ResolvedConfiguration): CompiledRuleSets {
  const hit = ruleCache.get(configuration.hash);
  if (hit) return hit;
  const fields = walkFields(configuration.schemas, configuration.rootId);
  const fieldIndex = buildFieldIndex(fields);
  const disabled = new Set(configuration.disabledRules);
  const rules = new Map<string, CompiledRules>();
  for (const set of configuration.ruleSets)
    rules.set(set.profile, compileRules(set.rules, fieldIndex, disabled));
  rules.set(CUSTOM_PROFILE, compileRules(configuration.customRules, fieldIndex, disabled));
  const compiled = { fields, fieldIndex, rules };
  ruleCache.set(configuration.hash, compiled);
  if (ruleCache.size > CACHE_LIMIT) ruleCache.delete(ruleCache.keys().next().value as string);
  return compiled;
}

/** For benchmarks: compile a configuration that is not in the cache (unchanged sections are still shared). */
export function compileConfigurationUncached(configuration: ResolvedConfiguration): CompiledConfiguration {
  return compileConfiguration(configuration);
}
