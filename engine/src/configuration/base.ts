/** The base configuration of the product: the case model, its code lists and the rule profiles. */
import { CASE_SCHEMA_ID, caseSchemas, caseTabs, codelists } from '../case-model';
import { mandatoryE2bIds, ruleSets } from '../rules/profiles';
import type { BaseConfiguration } from '../schema-registry/resolve';
import type { SchemaSet } from '../schema-registry/types';

let base: BaseConfiguration | undefined;

export function baseConfiguration(): BaseConfiguration {
  if (!base) {
    const schemas: SchemaSet = {};
    for (const schema of caseSchemas) schemas[String(schema.$id)] = schema;
    base = { rootId: CASE_SCHEMA_ID, schemas, codelists, ruleSets, mandatoryE2bIds, layout: caseTabs };
  }
  return base;
}
