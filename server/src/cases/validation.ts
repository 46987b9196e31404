/**
 * The one place case management reaches the rules engine. The same compiled validators check a
 * case in the browser, on save and check, and before submission (DESIGN 4).
 *
 * Cases are checked with their project's published PRO configuration (the configuration module's
 * numbered versions: tenant layer under the project's own), and record the version they were
 * checked with. Nothing published, or no configuration module mounted: the base configuration,
 * version 0. A configurator may try the project's UAT drafts on a case (`environment` 'UAT'): such
 * a check only reports; nothing is stored with it, and saving and submitting stay on PRO.
 */
import {
  baseConfiguration,
  resolveConfiguration,
  validateCase,
  summarise,
  caseTabs,
  tabOfPointer,
} from '@pv/engine';
import type { ResolvedConfiguration, Finding, ValidationResult } from '@pv/engine';
import { noClock } from '../clock';
import { ConfigurationService } from '../configuration/index';
import type { Environment } from '../configuration/index';
import type { TenantHandle } from '../store';
import { InvalidStoreRequestError } from '../store';
import { mountedRegistry } from '../http';

export type { Finding, ValidationResult };

let base: ResolvedConfiguration | null = null;

/** Resolved PRO configurations by published version and project: versions are immutable, so never stale. */
const resolved = new Map<string, ResolvedConfiguration>();
const RESOLVED_LIMIT = 200;

export interface CaseConfiguration {
  configuration: ResolvedConfiguration;
  /** The PRO version number; 0 = the base configuration. */
  version: number;
}

/**
 * The configuration a project's cases are checked with now (PRO), or its UAT drafts when a
 * configurator tries them (drafts change at any time: resolved afresh, never cached).
 */
export async function configurationFor(
  handle: TenantHandle,
  projectId: string | null,
  environment: Environment = 'PRO',
): Promise<CaseConfiguration> {
  // Resolving a configuration reads no time.
  const service = new ConfigurationService(handle, noClock);
  let latest;
  try {
    if (environment === 'UAT') return await service.resolve(projectId, 'UAT');
    latest = await service.latestStored();
  } catch (error) {
    // Without the configuration module there is nothing but the base.
    if (!(error instanceof InvalidStoreRequestError)) throw error;
    latest = null;
  }
  if (!latest) {
    base ??= resolveConfiguration(baseConfiguration());
    return { configuration: base, version: 0 };
  }
  // The stored version's id, not tenant and number: those repeat across stores (test rigs in one
  // process, a restored database under a running one).
  const key = `${latest.id}|${projectId ?? ''}`;
  let configuration = resolved.get(key);
  if (!configuration) {
    configuration = resolveConfiguration(baseConfiguration(), {
      tenant: latest.version.tenant,
      project: projectId ? (latest.version.projects[projectId] ?? []) : [],
    });
    if (resolved.size >= RESOLVED_LIMIT) resolved.delete(resolved.keys().next().value!);
    resolved.set(key, configuration);
  }
  return { configuration, version: latest.version.version };
}

export interface CaseCheck extends ValidationResult {
  /** The configuration the check used: PRO, or the UAT drafts being tried (never stored). */
  environment: Environment;
  /** The PRO configuration version the case was checked with (0: base); in UAT, the version the drafts build on. */
  configurationVersion: number;
  configurationHash: string;
  /** Error findings that are missing mandatory values. */
  missingCount: number;
  /** Error findings of any other kind (wrong format, wrong type, broken rule). */
  invalidCount: number;
}

/**
 * A finding is "missing" when the value it names is absent or empty, or when it is about a whole
 * repeating section (counts, at least one ...): saving then only needs the user's confirmation.
 * Any other error is a wrong value, which is never saved.
 */
export function isMissing(finding: Finding, doc: unknown): boolean {
  let value: unknown = doc;
  for (const token of finding.path.split('/').slice(1)) {
    value =
      value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[token] : undefined;
  }
  return value === undefined || value === null || value === '' || Array.isArray(value);
}

/**
 * Findings another module adds to every case check (the dictionaries module: SPEC 5's MedDRA
 * coding rules, which need its releases). The module provides them when it is mounted, so the case
 * module neither imports it nor runs without it.
 */
export type CaseCheckSource = (
  handle: TenantHandle,
  doc: unknown,
  projectId: string | null,
) => Promise<Finding[]>;

const checkSources = mountedRegistry<CaseCheckSource>();

/** Adds (or replaces, by module name) a source of case check findings. */
export function provideCaseCheckFindings(module: string, source: CaseCheckSource): void {
  checkSources.set(module, source);
}

export async function checkCase(
  handle: TenantHandle,
  doc: unknown,
  projectId: string | null,
  now: Date,
  environment: Environment = 'PRO',
): Promise<CaseCheck> {
  const { configuration, version } = await configurationFor(handle, projectId, environment);
  const own = validateCase(configuration, doc, { now });
  const added = await Promise.all([...checkSources.values()].map((source) => source(handle, doc, projectId)));
  const result = added.length ? summarise([...own.findings, ...added.flat()]) : own;
  let missingCount = 0;
  for (const finding of result.findings)
    if (finding.severity === 'error' && isMissing(finding, doc)) missingCount++;
  return {
    ...result,
    environment,
    configurationVersion: version,
    configurationHash: configuration.hash,
    missingCount,
    invalidCount: result.errorCount - missingCount,
  };
}

/** The tab a finding's field lives in, so the check report can group findings and jump to them. */
export function tabOf(pointer: string): string {
  return tabOfPointer(caseTabs, pointer);
}

/** The check report: findings grouped by tab, in tab order. */
export function groupByTab(findings: Finding[]): { tab: string; findings: Finding[] }[] {
  const order = caseTabs.tabs.map((tab) => tab.id);
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const tab = tabOf(finding.path);
    groups.set(tab, [...(groups.get(tab) ?? []), finding]);
  }
  return [...groups.entries()]
    .sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
    .map(([tab, list]) => ({ tab, findings: list }));
}
