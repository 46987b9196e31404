/** The case document as stored: E2B sections plus the internal state, nothing else. */
import { caseSchemas } from '@pv/engine';
import type { CaseState as GeneratedCaseState } from '../../../schemas/generated/case';

export type CaseState = GeneratedCaseState;

/** A case document: the sections of schemas/case/case.schema.json; drafts may lack any of them. */
export type CaseDocument = Record<string, unknown> & { state: CaseState };

/** Top-level sections of the case document, in schema order. */
export const CASE_SECTIONS: readonly string[] = Object.keys(
  (caseSchemas[0] as { properties: Record<string, unknown> }).properties,
);

/** State fields only the server sets: a save keeps the stored values whatever the client sends. */
export const SERVER_STATE_FIELDS = [
  'workflowNode',
  'handlerId',
  'handlerName',
  'isCompleted',
  'validity',
  'isLocked',
  'isFrozen',
  'version',
  'versionType',
  'followUpNumber',
  'followUpReason',
  'configurationVersion',
  'createdBy',
  'createdAt',
  'updatedAt',
] as const;

/** The case sections of a stored document (store fields and anything else dropped). */
export function caseContent(stored: Record<string, unknown>): CaseDocument {
  const doc: Record<string, unknown> = {};
  for (const key of CASE_SECTIONS) if (stored[key] !== undefined) doc[key] = stored[key];
  return doc as CaseDocument;
}

/** An instant as an E2B date-time `CCYYMMDDhhmmss` (UTC). */
export function e2bNow(now: Date): string {
  return now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** The same day as an E2B date `CCYYMMDD`. */
export function e2bDay(now: Date): string {
  return e2bNow(now).slice(0, 8);
}
