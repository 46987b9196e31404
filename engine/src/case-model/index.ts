/**
 * The case model: the E2B(R3) case document declared in schemas/case, its code lists, its tab layout
 * and the case-list definition, imported statically so the engine and the browser load them without I/O.
 */
import type { CaseJsonSchema, CaseListDefinition, CaseTabs } from './types';
import { findCaseProperty, walkSchemaTree } from './walk';
import type { CaseSchemaVisitor } from './walk';
import caseRoot from '../../../schemas/case/case.schema.json';
import caseState from '../../../schemas/case/case-state.schema.json';
import report from '../../../schemas/case/report.schema.json';
import reporters from '../../../schemas/case/reporters.schema.json';
import sender from '../../../schemas/case/sender.schema.json';
import literature from '../../../schemas/case/literature.schema.json';
import study from '../../../schemas/case/study.schema.json';
import patient from '../../../schemas/case/patient.schema.json';
import pregnancy from '../../../schemas/case/pregnancy.schema.json';
import newborn from '../../../schemas/case/newborn.schema.json';
import reactions from '../../../schemas/case/reactions.schema.json';
import tests from '../../../schemas/case/tests.schema.json';
import drugs from '../../../schemas/case/drugs.schema.json';
import narrative from '../../../schemas/case/narrative.schema.json';
import attachments from '../../../schemas/case/attachments.schema.json';
import submissionPlans from '../../../schemas/case/submission-plans.schema.json';
import messageHeader from '../../../schemas/case/message-header.schema.json';
import tabs from '../../../schemas/ui/case-tabs.json';
import list from '../../../schemas/ui/case-list.json';

export type * from './types';
export type { CaseProperty, CaseSchemaVisitor } from './walk';
export { codelists } from './codelists';
export { parseCsv } from './csv';
export { NAME_BATCH_MAX, NAME_KINDS, e2bDateText, isE2bDate } from './display';
export type { DisplayName, NameKind } from './display';
export { tabOfPointer } from './tab-of';

export const CASE_SCHEMA_ID = 'https://schemas.pv.local/case/case.schema.json';
export const MESSAGE_HEADER_SCHEMA_ID = 'https://schemas.pv.local/case/message-header.schema.json';

/** Every schema of the case document, root first. */
export const caseSchemas: CaseJsonSchema[] = [
  caseRoot,
  caseState,
  report,
  reporters,
  sender,
  literature,
  study,
  patient,
  pregnancy,
  newborn,
  reactions,
  tests,
  drugs,
  narrative,
  attachments,
  submissionPlans,
];

/** Batch (N.1) and message (N.2.r) headers: the interchange layer's, not part of the case document. */
export const messageHeaderSchema: CaseJsonSchema = messageHeader;

export const caseTabs: CaseTabs = tabs as CaseTabs;
export const caseListDefinition: CaseListDefinition = list as CaseListDefinition;

const caseSchemasById: ReadonlyMap<string, CaseJsonSchema> = new Map(
  caseSchemas.map((schema) => [String(schema['$id']), schema]),
);

/** Visits every property of the case document with its pointer, keywords and whether it repeats. */
export function walkCaseSchema(visitor: CaseSchemaVisitor): void {
  walkSchemaTree(caseRoot, caseSchemasById, visitor);
}

/** Visits every property of the batch and message headers. */
export function walkMessageHeaderSchema(visitor: CaseSchemaVisitor): void {
  walkSchemaTree(messageHeader, new Map([[MESSAGE_HEADER_SCHEMA_ID, messageHeader]]), visitor);
}

/** The property schema a document pointer (`/drugs/*\/drugName`) names, `$ref`s followed; undefined if none. */
export function getCaseProperty(pointer: string): CaseJsonSchema | undefined {
  return findCaseProperty(caseRoot, caseSchemasById, pointer);
}
