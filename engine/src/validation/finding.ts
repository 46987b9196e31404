import type { BilingualText } from '../schema-registry/types';

export type Severity = 'error' | 'warning';

/** One problem found in a case: what the check report lists and the form shows beside the field. */
export interface Finding {
  /** JSON pointer into the case document: `/drugs/2/dosages/0/startDate`. */
  path: string;
  e2b?: string;
  /** `schema.<keyword>` for structural checks, the rule id for rules (e.g. `ich.C.5.4`, `fda.R0008`). */
  ruleId: string;
  severity: Severity;
  messageKey: string;
  params: Record<string, string | number>;
  message: BilingualText;
}

export interface ValidationResult {
  findings: Finding[];
  errorCount: number;
  warningCount: number;
}

export function summarise(findings: Finding[]): ValidationResult {
  let errorCount = 0;
  for (const finding of findings) if (finding.severity === 'error') errorCount++;
  return { findings, errorCount, warningCount: findings.length - errorCount };
}

/** Replaces `{name}` placeholders; unknown names stay visible rather than vanish. */
export function fillMessage(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}
