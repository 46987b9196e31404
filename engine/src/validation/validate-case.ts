/** The check of a case: schema validation plus the rules of the chosen profiles. */
import { parseDataPath, pointerTokens, pointerToFieldPath } from '../schema-registry/schema-set';
import type { ResolvedConfiguration } from '../schema-registry/resolve';
import type { Finding, ValidationResult } from './finding';
import { summarise } from './finding';
import { compiledConfiguration, compiledRulesOf, CUSTOM_PROFILE } from './compile';
import type { CompiledRuleSets } from './compile';
import type { ErrorObject } from 'ajv';
import { planRules, runPlan, runPlanPerRule } from '../rules/compile';
import type { CompiledRule, RulePlan } from '../rules/compile';
import type { CompiledConfiguration } from './compile';
import { findingsFromErrors } from './findings';

export interface ValidateOptions {
  /** Rule profiles to run (`product`, `ich`, `fda`, `nmpa`, `ema`); default: all of the configuration. */
  profiles?: readonly string[];
  /** Reference time for "not in the future" (Date or epoch ms): the caller's clock (the engine reads none). */
  now: Date | number;
  /**
   * In the browser: the generated standalone validators of this configuration
   * (scripts/generate-validators.ts or the server's validators module). The schema checks then run
   * without AJV compiling code at run time; the rules run from the engine as everywhere.
   */
  standalone?: StandaloneValidators;
}

type SchemaValidator = ((this: { now: number }, data: unknown) => boolean) & {
  errors?: ErrorObject[] | null;
};

/** The exports of a generated validators module (see validation/standalone.ts). */
export interface StandaloneValidators {
  validateCase: SchemaValidator;
  fieldValidators: Record<string, SchemaValidator>;
  configurationHash: string;
}

function checkStandalone(configuration: ResolvedConfiguration, standalone: StandaloneValidators): void {
  if (standalone.configurationHash !== configuration.hash) {
    throw new Error(
      `standalone validators are for configuration ${standalone.configurationHash}, not ${configuration.hash}`,
    );
  }
}

function nowMs(now: ValidateOptions['now']): number {
  return typeof now === 'number' ? now : now.getTime();
}

function selectedProfiles(
  configuration: ResolvedConfiguration,
  profiles: ValidateOptions['profiles'],
): string[] {
  const chosen = profiles ?? configuration.ruleSets.map((set) => set.profile);
  return [...chosen, CUSTOM_PROFILE];
}

const plans = new WeakMap<CompiledRuleSets, Map<string, RulePlan>>();

/** The rules of the chosen profiles grouped for one walk per section, prepared once per selection. */
function planFor(compiled: CompiledRuleSets, profiles: readonly string[]): RulePlan {
  let byKey = plans.get(compiled);
  if (!byKey) plans.set(compiled, (byKey = new Map()));
  const key = profiles.join(',');
  let plan = byKey.get(key);
  if (!plan) {
    const rules = profiles.flatMap((profile) => {
      const compiledRules = compiled.rules.get(profile);
      if (!compiledRules) throw new Error(`unknown rule profile "${profile}"`);
      return compiledRules.rules;
    });
    plan = planRules(rules);
    byKey.set(key, plan);
  }
  return plan;
}

const SEVERITY_ORDER = { error: 0, warning: 1 } as const;

function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

export function validateCase(
  configuration: ResolvedConfiguration,
  caseDoc: unknown,
  options: ValidateOptions,
): ValidationResult {
  const findings: Finding[] = [];
  let compiled: CompiledRuleSets;
  if (options.standalone) {
    checkStandalone(configuration, options.standalone);
    compiled = compiledRulesOf(configuration);
    const validate = options.standalone.validateCase;
    validate.call({ now: nowMs(options.now) }, caseDoc);
    findings.push(...findingsFromErrors(validate.errors, compiled.fieldIndex));
  } else {
    const full = compiledConfiguration(configuration);
    compiled = full;
    full.validateCaseSchema.call({ now: nowMs(options.now) }, caseDoc);
    findings.push(...findingsFromErrors(full.validateCaseSchema.errors, full.fieldIndex));
  }
  runPlan(planFor(compiled, selectedProfiles(configuration, options.profiles)), caseDoc, findings);
  return summarise(sortFindings(findings));
}

/**
 * Checks one changed field: its own schema, then every rule that reads it, for the items it belongs to.
 * `pointer` is the field's JSON pointer in `caseDoc` (which already holds the new value).
 */
export function validateField(
  configuration: ResolvedConfiguration,
  caseDoc: unknown,
  pointer: string,
  options: ValidateOptions,
): ValidationResult {
  if (options.standalone) checkStandalone(configuration, options.standalone);
  const compiled = options.standalone ? compiledRulesOf(configuration) : compiledConfiguration(configuration);
  const fieldPath = pointerToFieldPath(pointer);
  const tokens = pointerTokens(pointer);
  const binding = tokens.filter((token) => /^\d+$/.test(token)).map(Number);
  let value: unknown = caseDoc;
  for (const token of tokens)
    value =
      value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[token] : undefined;
  const findings: Finding[] = [];
  const validator = options.standalone
    ? options.standalone.fieldValidators[fieldPath]
    : (compiled as CompiledConfiguration).fieldValidator(fieldPath);
  if (validator && value !== undefined) {
    validator.call({ now: nowMs(options.now) }, value);
    findings.push(...findingsFromErrors(validator.errors, compiled.fieldIndex, pointer));
  }
  const fieldSegments = parseDataPath(fieldPath);
  for (const profile of selectedProfiles(configuration, options.profiles)) {
    for (const rule of compiled.rules.get(profile)?.byField.get(fieldPath) ?? []) {
      rule.runWithin(caseDoc, fieldSegments, binding, findings);
    }
  }
  return summarise(sortFindings(findings));
}

/** True when every object and list above `pointer` exists in `doc`. */
function parentsExist(doc: unknown, tokens: readonly string[]): boolean {
  let value: unknown = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<string, unknown>)[tokens[i]!];
  }
  return value !== null && typeof value === 'object';
}

/**
 * The check of a document being edited (the browser's case form), kept up to date write by write
 * with the same result as `validateCase` (the same findings; their order within one field and
 * severity may differ). The schema runs whole (the standalone validators are fast, and `required`
 * belongs to the parent); the rules are kept per rule, and a write of one value runs again only
 * the rules that read that field - every other rule read nothing that changed. A write that adds
 * or removes an object or list item checks everything.
 */
export class IncrementalCaseCheck {
  private readonly compiled: CompiledRuleSets;
  private readonly plan: RulePlan;
  private readonly readers = new Map<string, CompiledRule[]>();
  private ruleFindings = new Map<CompiledRule, Finding[]>();

  constructor(
    private readonly configuration: ResolvedConfiguration,
    private readonly standalone: StandaloneValidators,
    profiles?: readonly string[],
  ) {
    checkStandalone(configuration, standalone);
    this.compiled = compiledRulesOf(configuration);
    const selected = selectedProfiles(configuration, profiles);
    this.plan = planFor(this.compiled, selected);
    for (const profile of selected)
      for (const [path, rules] of this.compiled.rules.get(profile)?.byField ?? [])
        this.readers.set(path, [...(this.readers.get(path) ?? []), ...rules]);
  }

  /** Checks the whole document. */
  check(doc: unknown, now: number): ValidationResult {
    const kept = new Map<CompiledRule, Finding[]>();
    runPlanPerRule(this.plan, doc, (rule) => {
      let list = kept.get(rule);
      if (!list) kept.set(rule, (list = []));
      return list;
    });
    this.ruleFindings = kept;
    return this.result(doc, now);
  }

  /** After `before` became `after` by one write at `pointer` (the document's last check was of `before`). */
  checkWrite(before: unknown, after: unknown, pointer: string, now: number): ValidationResult {
    const tokens = pointerTokens(pointer);
    const fieldPath = pointerToFieldPath(pointer);
    const field = this.compiled.fieldIndex.byPath.get(fieldPath);
    if (!field || field.kind !== 'value' || !parentsExist(before, tokens) || !parentsExist(after, tokens))
      return this.check(after, now);
    const readers = this.readers.get(fieldPath) ?? [];
    if (readers.length) {
      for (const rule of readers) this.ruleFindings.set(rule, []);
      runPlanPerRule(planRules(readers), after, (rule) => this.ruleFindings.get(rule)!);
    }
    return this.result(after, now);
  }

  private result(doc: unknown, now: number): ValidationResult {
    const validate = this.standalone.validateCase;
    validate.call({ now }, doc);
    const findings = findingsFromErrors(validate.errors, this.compiled.fieldIndex);
    for (const group of this.plan.groups)
      for (const { rule } of group.members) {
        const list = this.ruleFindings.get(rule);
        if (list) findings.push(...list);
      }
    return summarise(sortFindings(findings));
  }
}
