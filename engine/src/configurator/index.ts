/** The configurator's pure checks: feature switches, list overrides, workflow overrides. */
export type { FeatureSwitches, FeatureSwitchName, ConfiguratorProblem, CaseEditAttempt } from './features';
export {
  FEATURE_SWITCH_NAMES,
  DEFAULT_FEATURES,
  MAX_EDIT_TIME_LIMIT_HOURS,
  checkFeatureSwitches,
  resolveFeatures,
  caseEditRefusal,
  queryRefusal,
} from './features';
export type { ListOverride } from './list';
export { checkListOverride, applyListOverride } from './list';
export { mergeDiff, workflowOverrideOf, checkWorkflowOverride } from './workflow';
