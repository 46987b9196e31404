/** Base schemas -> tenant edits -> project edits = one resolved configuration with a content hash. */
import type { CaseTabs } from '../case-model/types';
import type { Rule, RuleSet } from '../rules/types';
import { applyEdits, baseRequiredPaths } from './edits';
import type { ConfigEdit, ConfigLayerName, EditProblem } from './edits';
import { stableStringify, hashText } from './stable-hash';
import type { Codelist, SchemaSet } from './types';

export interface BaseConfiguration {
  rootId: string;
  schemas: SchemaSet;
  codelists: Record<string, Codelist>;
  ruleSets: RuleSet[];
  /** E2B ids the ICH table marks Mandatory: they cannot be hidden or made optional. */
  mandatoryE2bIds: readonly string[];
  /** The case form layout (schemas/ui/case-tabs.json); absent = no form layout to configure. */
  layout?: CaseTabs;
}

export interface ConfigurationLayers {
  tenant?: readonly ConfigEdit[];
  project?: readonly ConfigEdit[];
}

export interface ResolvedConfiguration {
  /** Content hash of everything that changes validation: validators are cached under it. */
  hash: string;
  rootId: string;
  schemas: SchemaSet;
  codelists: Record<string, Codelist>;
  ruleSets: RuleSet[];
  /** Rules added by tenant and project edits; they run with every profile. */
  customRules: Rule[];
  disabledRules: string[];
  /** The case form layout after the layers' addField, hideField and moveField edits. */
  layout: CaseTabs;
}

const baseHashes = new WeakMap<BaseConfiguration, string>();
const baseRequired = new WeakMap<BaseConfiguration, Set<string>>();

function baseRequiredOf(base: BaseConfiguration): Set<string> {
  let paths = baseRequired.get(base);
  if (!paths) {
    paths = baseRequiredPaths(base.schemas, base.rootId);
    baseRequired.set(base, paths);
  }
  return paths;
}

function baseHash(base: BaseConfiguration): string {
  let hash = baseHashes.get(base);
  if (!hash) {
    hash = hashText(stableStringify(base));
    baseHashes.set(base, hash);
  }
  return hash;
}

export class ConfigurationError extends Error {
  constructor(readonly problems: EditProblem[]) {
    super(
      `configuration edits refused: ${problems.map((problem) => `${problem.layer}#${problem.index} ${problem.op} ${problem.messageKey} ${JSON.stringify(problem.params)}`).join('; ')}`,
    );
    this.name = 'ConfigurationError';
  }
}

/** Applies the layers; returns the configuration and the refused edits (which changed nothing). */
export function layerConfiguration(
  base: BaseConfiguration,
  layers: ConfigurationLayers = {},
): { configuration: ResolvedConfiguration; problems: EditProblem[] } {
  // Edits mutate the schemas: copy them only when there are edits (the base is never changed).
  const hasEdits = (layers.tenant?.length ?? 0) + (layers.project?.length ?? 0) > 0;
  const state = {
    schemas: hasEdits ? structuredClone(base.schemas) : base.schemas,
    customRules: [] as Rule[],
    disabledRules: new Set<string>(),
    layout: structuredClone(base.layout ?? { tabs: [], notInTabs: [] }),
  };
  const context = {
    rootId: base.rootId,
    codelists: base.codelists,
    mandatoryE2bIds: new Set(base.mandatoryE2bIds),
    baseRequired: baseRequiredOf(base),
    ruleIds: new Set(base.ruleSets.flatMap((set) => set.rules.map((rule) => rule.id))),
  };
  const problems = [
    ...applyEdits(state, layers.tenant ?? [], 'tenant', context),
    ...applyEdits(state, layers.project ?? [], 'project', context),
  ];
  const content = {
    rootId: base.rootId,
    schemas: state.schemas,
    codelists: base.codelists,
    ruleSets: base.ruleSets,
    customRules: state.customRules,
    disabledRules: [...state.disabledRules].sort(),
    layout: state.layout,
  };
  // The configuration is a pure function of the base and the accepted edits, so hashing those
  // identifies it; the base is hashed once per base object.
  const accepted = (layer: ConfigLayerName, edits: readonly ConfigEdit[] = []) =>
    edits.filter(
      (_, index) => !problems.some((problem) => problem.layer === layer && problem.index === index),
    );
  const hash = hashText(
    `${baseHash(base)}|${stableStringify({ tenant: accepted('tenant', layers.tenant), project: accepted('project', layers.project) })}`,
  );
  return { configuration: { hash, ...content }, problems };
}

/** Like layerConfiguration, but any refused edit is an error. */
export function resolveConfiguration(
  base: BaseConfiguration,
  layers: ConfigurationLayers = {},
): ResolvedConfiguration {
  const { configuration, problems } = layerConfiguration(base, layers);
  if (problems.length > 0) throw new ConfigurationError(problems);
  return configuration;
}
