/**
 * The forms of schemas/ui/admin name their fields, not their rules: `entity` (a file of
 * schemas/entities, or a pointer into one such as `tenant#/$defs/decision`) and `fields` (which of
 * its properties, in display order). The JSON Schema the form renders and validates is the
 * entity's own declaration of those fields with the shared formats inlined — the same schema the
 * server derives its request body from — plus what only the form decides: `required` (fields the
 * form asks for beyond the entity's), and `annotate` (a default, or `x-options` choices loaded from
 * the server). A list's enum columns and select filters take their value labels from the same entity.
 */
import { pickEntity, resolveEntity } from '@pv/engine';
import type { EntityFiles, SchemaObject } from '@pv/engine';
import type { LocalisedText } from '../../i18n';
import type { FormDefinition, ListDefinition, PageDefinition } from '../definition';

const bundled = import.meta.glob<SchemaObject>('../../../../schemas/entities/*.json', {
  eager: true,
  import: 'default',
});

/** schemas/entities by file name (formats included), as the browser bundles them. */
export const entityFiles: EntityFiles = Object.fromEntries(
  Object.entries(bundled).map(([path, schema]) => [path.replace(/^.*\/|\.json$/g, ''), schema]),
);

/** Keys `annotate` may give a field: neither changes what the field accepts. */
export const ANNOTATIONS = ['default', 'x-options'] as const;

/** The JSON Schema of a form that references an entity (a form with its own `schema` is returned as is). */
export function formSchema(form: FormDefinition, files: EntityFiles = entityFiles): SchemaObject {
  if (!form.entity) return form.schema;
  const picked = pickEntity(resolveEntity(files, form.entity), form.fields ?? []);
  const properties = { ...(picked.properties as Record<string, SchemaObject>) };
  for (const [key, extra] of Object.entries(form.annotate ?? {})) {
    // `columns.field`: a property of the objects an array field holds.
    const [field = key, inner] = key.split('.');
    const property = properties[field];
    if (!property) throw new Error(`${form.entity}: annotate names "${field}", which the form does not show`);
    if (inner) {
      properties[field] = annotateItemProperty(property, inner, extra, form.entity);
      continue;
    }
    const { 'x-options': options, ...rest } = extra;
    const annotated: SchemaObject = { ...property, ...rest };
    // Choices of an array's items go on the items (options.ts fills them there).
    if (options && annotated.items)
      annotated.items = { ...(annotated.items as SchemaObject), 'x-options': options };
    else if (options) annotated['x-options'] = options;
    properties[field] = annotated;
  }
  const required = [...(picked.required as string[])];
  for (const field of form.required ?? []) if (!required.includes(field)) required.push(field);
  return { ...picked, required, properties };
}

function annotateItemProperty(
  property: SchemaObject,
  inner: string,
  extra: Record<string, unknown>,
  entity: string,
): SchemaObject {
  const items = property.items as SchemaObject | undefined;
  const innerProperties = items?.properties as Record<string, SchemaObject> | undefined;
  if (!items || !innerProperties?.[inner])
    throw new Error(`${entity}: annotate names "${inner}", which the field's items do not have`);
  return {
    ...property,
    items: { ...items, properties: { ...innerProperties, [inner]: { ...innerProperties[inner], ...extra } } },
  };
}

function withSchema(form: FormDefinition): FormDefinition {
  return { ...form, schema: formSchema(form) };
}

type EnumLabels = Record<string, LocalisedText>;

/**
 * A list's enum columns and select filters without their own options show the entity's value
 * labels (`x-enum-labels` of the property they name), the entity being the list form's.
 */
function withEntityOptions(list: ListDefinition): ListDefinition {
  const name = list.form?.entity?.split('#')[0];
  if (!name) return list;
  const properties = resolveEntity(entityFiles, name).properties;
  const labelsOf = (field: string) => properties[field]?.['x-enum-labels'] as EnumLabels | undefined;
  return {
    ...list,
    columns: list.columns.map((column) =>
      column.type === 'enum' && !column.options
        ? { ...column, options: labelsOf(column.field ?? column.key) }
        : column,
    ),
    ...(list.filters
      ? {
          filters: list.filters.map((filter) =>
            filter.type === 'select' && !filter.options
              ? { ...filter, options: labelsOf(filter.param) }
              : filter,
          ),
        }
      : {}),
  };
}

/** A page definition with every form's schema (and enum column's labels) resolved from schemas/entities. */
export function resolvePage(page: PageDefinition): PageDefinition {
  return {
    ...page,
    lists: page.lists.map(withEntityOptions).map((list) => ({
      ...list,
      ...(list.form ? { form: withSchema(list.form) } : {}),
      ...(list.rowActions
        ? {
            rowActions: list.rowActions.map((action) =>
              action.form ? { ...action, form: withSchema(action.form) } : action,
            ),
          }
        : {}),
      ...(list.batchActions
        ? {
            batchActions: list.batchActions.map((action) =>
              action.form ? { ...action, form: withSchema(action.form) } : action,
            ),
          }
        : {}),
    })),
    ...(page.records
      ? { records: page.records.map((record) => ({ ...record, form: withSchema(record.form) })) }
      : {}),
  };
}
