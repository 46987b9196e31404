/**
 * The one place case management reaches the rules engine. The same compiled validators check a
 * case in the browser, on save and check, and before submission (DESIGN 4).
 *
 * The configuration is the base configuration (case model + rule profiles); tenant and project
 * layers come from the configuration service once it publishes them - switching is this file only.
 */
import { baseConfiguration } from '../../../engine/src/configuration/base';
import { resolveConfiguration } from '../../../engine/src/schema-registry/resolve';
import type { ResolvedConfiguration } from '../../../engine/src/schema-registry/resolve';
import { validateCase } from '../../../engine/src/validation/validate-case';
import type { Finding, ValidationResult } from '../../../engine/src/validation/finding';
import { caseTabs } from '../../../engine/src/case-model/index';

export type { Finding, ValidationResult };

let base: ResolvedConfiguration | null = null;

function configurationFor(_projectId: string | null): ResolvedConfiguration {
  base ??= resolveConfiguration(baseConfiguration());
  return base;
}

export interface CaseCheck extends ValidationResult {
  configurationVersion: string;
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

export function checkCase(doc: unknown, projectId: string | null, now: Date): CaseCheck {
  const configuration = configurationFor(projectId);
  const result = validateCase(configuration, doc, { now });
  let missingCount = 0;
  for (const finding of result.findings)
    if (finding.severity === 'error' && isMissing(finding, doc)) missingCount++;
  return {
    ...result,
    configurationVersion: configuration.hash,
    missingCount,
    invalidCount: result.errorCount - missingCount,
  };
}

/** Pointer prefix -> tab id, from schemas/ui/case-tabs.json (the longest declared prefix wins). */
const tabPrefixes: [string, string][] = caseTabs.tabs
  .flatMap((tab) =>
    tab.groups.flatMap((group) =>
      [group.array, ...group.fields]
        .filter((f): f is string => !!f)
        .map((f) => [f, tab.id] as [string, string]),
    ),
  )
  .map(([field, tab]) => [field.replace(/\*/g, '\\d+'), tab] as [string, string])
  .sort((a, b) => b[0].length - a[0].length);

/** The tab a finding's field lives in, so the check report can group findings and jump to them. */
export function tabOf(pointer: string): string {
  for (const [prefix, tab] of tabPrefixes) {
    if (new RegExp(`^${prefix}(/|$)`).test(pointer)) return tab;
  }
  const section = pointer.split('/')[1] ?? '';
  for (const [prefix, tab] of tabPrefixes) if (prefix.startsWith(`/${section}`)) return tab;
  return 'overview';
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
