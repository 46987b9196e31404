/**
 * A form definition's JSON Schema in the display language: titles from the zh/en labels, enum
 * values as oneOf with titled constants; and validation errors as catalogue messages.
 */
import type { LocalisedText } from '../../i18n';

type Schema = Record<string, unknown>;

export function localiseSchema(
  schema: Schema,
  labels: Record<string, LocalisedText>,
  pick: (t: LocalisedText) => string,
  path = '',
): Schema {
  const copy: Schema = { ...schema };
  const label = path ? labels[path] : undefined;
  if (label) copy.title = pick(label);
  if (Array.isArray(schema.enum) && !schema.oneOf) {
    copy.oneOf = (schema.enum as unknown[]).map((value) => {
      const text = labels[`${path}.${String(value)}`];
      return { const: value, title: text ? pick(text) : String(value) };
    });
    delete copy.enum;
  }
  if (schema.properties && typeof schema.properties === 'object') {
    copy.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, Schema>).map(([name, child]) => [
        name,
        localiseSchema(child, labels, pick, path ? `${path}.${name}` : name),
      ]),
    );
  }
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
    copy.items = localiseSchema(schema.items as Schema, labels, pick, path);
  }
  return copy;
}

/** Catalogue key of a validation error, by the AJV keyword. */
export function errorKey(name: string | undefined): string {
  switch (name) {
    case 'required':
      return 'form.error.required';
    case 'pattern':
      return 'form.error.pattern';
    case 'format':
      return 'form.error.format';
    case 'minLength':
      return 'form.error.minLength';
    case 'maxLength':
      return 'form.error.maxLength';
    case 'minimum':
    case 'exclusiveMinimum':
      return 'form.error.minimum';
    case 'maximum':
    case 'exclusiveMaximum':
      return 'form.error.maximum';
    case 'minItems':
      return 'form.error.minItems';
    default:
      return 'form.error.invalid';
  }
}

/** Keeps only the fields the schema declares (a list row carries more than the form sends). */
export function pickDeclared(
  schema: Schema,
  data: Record<string, unknown>,
  omit: string[] = [],
): Record<string, unknown> {
  const properties = (schema.properties as Record<string, Schema>) ?? {};
  return Object.fromEntries(
    Object.keys(properties)
      .filter((k) => !omit.includes(k) && data[k] !== undefined && data[k] !== null)
      .map((k) => [k, closedItems(properties[k]!, data[k])]),
  );
}

/**
 * An array of closed objects (`additionalProperties: false`) keeps only each object's declared
 * properties: a row may carry more than its form saves (a template column's resolved reference).
 */
function closedItems(property: Schema, value: unknown): unknown {
  const items = property.items as Schema | undefined;
  if (!Array.isArray(value) || items?.additionalProperties !== false || !items.properties) return value;
  return value.map((entry) =>
    entry && typeof entry === 'object' ? pickDeclared(items, entry as Record<string, unknown>) : entry,
  );
}
