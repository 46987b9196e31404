/**
 * The RJSF schema and uiSchema of one layout group (schemas/ui/case-tabs.json), built once per
 * group and kept: forms receive the same objects on every render (stable schema objects), and each
 * field's widget is chosen here, not while the user types.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { getCaseProperty } from '@pv/engine';
import type { CaseTabGroup } from '@pv/engine';
import type { CaseFieldMeta } from './CaseField';
import { formKey, relative } from './pointer';
import { selectWidget } from './registry';
import './widgets';

export interface GroupSchema {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  /** Form key -> field meta, in layout order. */
  fields: Map<string, CaseFieldMeta>;
  /** Layout pattern of the object the form edits: `/drugs/*` for a repeating group, '' otherwise. */
  base: string;
}

const cache = new Map<CaseTabGroup, GroupSchema>();

export function groupSchema(group: CaseTabGroup, caseField: unknown): GroupSchema {
  const cached = cache.get(group);
  if (cached) return cached;
  const base = group.array ? `${group.array}/*` : '';
  const properties: Record<string, RJSFSchema> = {};
  const uiSchema: UiSchema = {
    'ui:submitButtonOptions': { norender: true },
    'ui:options': { columns: group.columns ?? 3 },
  };
  const fields = new Map<string, CaseFieldMeta>();
  for (const pointer of group.fields) {
    // A configured layout carries its resolved field schemas (custom fields, project labels).
    const schema = group.properties?.[pointer] ?? getCaseProperty(pointer);
    if (!schema) continue;
    const descriptor = {
      pointer,
      schema,
      ...(group.widgets?.[pointer] ? { hint: group.widgets[pointer] } : {}),
    };
    const registration = selectWidget(descriptor);
    if (!registration) continue;
    const key = formKey(relative(base, pointer));
    const meta: CaseFieldMeta = {
      descriptor,
      registration,
      label: (schema['x-label'] as CaseFieldMeta['label']) ?? { zh: key, en: key },
      ...(typeof schema['x-e2b'] === 'string' ? { e2b: schema['x-e2b'] } : {}),
      nullFlavors: (schema['x-nullFlavors'] as string[] | undefined) ?? [],
      required: false,
    };
    fields.set(key, meta);
    // Not empty (RJSF renders nothing for {}); the value's shape is the widget's business.
    properties[key] = { $comment: pointer };
    uiSchema[key] = { 'ui:field': caseField, 'ui:options': { label: false, case: meta } } as UiSchema;
  }
  const built: GroupSchema = { schema: { type: 'object', properties }, uiSchema, fields, base };
  cache.set(group, built);
  return built;
}
