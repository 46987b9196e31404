/** The engine's public surface: pure TypeScript, no I/O. */
export * from './case-model';

// Schema registry: layered configuration (base -> tenant -> project) with a content hash.
export type { JsonSchema, SchemaSet, FieldInfo, NullFlavor } from './schema-registry/types';
export { NULL_FLAVORS } from './schema-registry/types';
export {
  CASE_ROOT_ID,
  walkFields,
  locateProperty,
  parseDataPath,
  formatDataPath,
  pointerToFieldPath,
} from './schema-registry/schema-set';
export { expandForValidation, allowedCodes, nullFlavorSchema } from './schema-registry/expand';
export type { ConfigEdit, ConfigLayerName, EditProblem } from './schema-registry/edits';
export { layerConfiguration, resolveConfiguration, ConfigurationError } from './schema-registry/resolve';
export type {
  BaseConfiguration,
  ConfigurationLayers,
  ResolvedConfiguration,
} from './schema-registry/resolve';
export { stableStringify, hashContent } from './schema-registry/stable-hash';
export {
  configuredTabs,
  fieldOrigins,
  fitsGroup,
  pointerOfPath,
  pathOfPointer,
} from './schema-registry/layout';
export type { FieldLayer, FieldOrigin } from './schema-registry/layout';
export { baseConfiguration } from './configuration/base';
export { diffConfigurations } from './configuration/diff';
export type { ConfigurationChange } from './configuration/diff';

// Validation: AJV validators per configuration, findings in zh and en.
export type { Finding, Severity, ValidationResult } from './validation/finding';
export { summarise } from './validation/finding';
export { validateCase, validateField, IncrementalCaseCheck } from './validation/validate-case';
export type { ValidateOptions, StandaloneValidators } from './validation/validate-case';
export {
  compiledConfiguration,
  compileConfigurationUncached,
  compiledRulesOf,
  CUSTOM_PROFILE,
} from './validation/compile';
export type { CompiledConfiguration, CompiledRuleSets } from './validation/compile';
export { standaloneValidatorsModule } from './validation/standalone';
export { e2bDateProblem } from './validation/e2b-date';
export { validationMessages } from './validation/messages';

// Rules as data.
export type { Rule, RuleSet, Condition, FieldCondition, Assertion, FieldRef, Scalar } from './rules/types';
export { checkRule } from './rules/check';
export { ruleSets, RULE_PROFILES, profilesFor, mandatoryE2bIds } from './rules/profiles';
export type { RuleProfile } from './rules/profiles';
export { checkMessage, compiledPack, packRuleCount, presendPacks } from './rules/presend';
export type { PresendContext, PresendFinding, PresendPack, PresendResult } from './rules/presend';

// E2B interchange: R3/R2 XML, acknowledgements, hardened parsing, zip checks (engine/src/interchange).
export * from './interchange';

// Workflow machine (case, E2B transmission) and expedited-reporting deadlines (schemas/workflows).
export * from './workflow';

// Reporting rules per authority (schemas/rules/reporting): plan proposals with due dates and explanations.
export * from './reporting-rules';

// Report-code generators (country-organisation-period+number).
export * from './report-codes';

// Report outputs: CIOMS I form and case report layout, blinding (schemas/reports, templates/cioms).
export * from './reports';

// MedDRA and WHODrug: release parsing, search, case coding and recoding (engine/src/dictionaries).
export * from './dictionaries';

// Pooled analysis: disproportionality (PRR, ROR, IC) and drug-event pair counts (engine/src/analytics).
export * from './analytics';

// Project configurator: feature switches, list overrides, workflow overrides.
export * from './configurator';

// Entity schemas (schemas/entities): $ref resolution and field picking for forms and routes.
export * from './entities/resolve';

// Test fixtures: a complete valid case of any size (engine, server and script tests, benchmarks).
export { completeCase, largeCase } from './validation/fixtures/complete-case';
export type { CaseSize } from './validation/fixtures/complete-case';

// The list APIs' largest page (server page queries, the web's paged exports).
export { PAGE_SIZE_MAX } from './paging';

// The states of a background task and of a download task (the server's jobs, the browser's task views).
export { DOWNLOAD_TASK_STATUSES, JOB_STATUSES, jobEnded } from './jobs';
export type { DownloadTaskStatus, JobStatus } from './jobs';

// SPEC 4's states of an E2B import record (the server's import, the browser's import list).
export { IMPORT_REPORT_STATUSES, PARSE_STATUSES, PROCESSING_STATUSES } from './import-states';
export type { ImportReportStatus, ParseStatus, ProcessingStatus } from './import-states';

// Import templates: line-listing and Excel rows into case documents (the server's sheet import).
export * from './intake';

// Probabilistic duplicate matching of case reports (the server's duplicate check at intake, the labelled-set test).
export {
  compareAge,
  compareDrugs,
  compareName,
  compareOnsets,
  compareReactions,
  compareSex,
  compareText,
  DUPLICATE_SCORE_THRESHOLD,
  MATCH_WEIGHTS,
  matchCases,
  nameBlockKey,
  nameForms,
  normaliseDrugName,
  ONSET_NEAR_DAYS,
} from './duplicates/match';
export type {
  FieldComparison,
  FieldOutcome,
  MatchField,
  MatchReaction,
  MatchRecord,
  MatchResult,
} from './duplicates/match';
