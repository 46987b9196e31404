/**
 * Choices a form field takes from the server: a property (or an array's items, or a property of the
 * objects an array holds) with `x-options: {path, value, label, labelEn?, tree?}` becomes a oneOf of
 * titled constants.
 */
import { api } from '../../app/api';
import type { LocalisedText } from '../../i18n';
import { flattenTree } from '../definition';

export interface OptionSource {
  path: string;
  value: string;
  label: string;
  labelEn?: string;
  tree?: boolean;
}

type Schema = Record<string, unknown>;

function sourceOf(schema: Schema): OptionSource | undefined {
  return schema['x-options'] as OptionSource | undefined;
}

/** Every distinct source path the schema's properties use. */
export function optionSources(schema: Schema): OptionSource[] {
  const found: OptionSource[] = [];
  for (const child of Object.values((schema.properties as Record<string, Schema>) ?? {})) {
    const items = child.items as Schema | undefined;
    const sources = [
      sourceOf(child),
      items ? sourceOf(items) : undefined,
      ...Object.values((items?.properties as Record<string, Schema>) ?? {}).map(sourceOf),
    ];
    for (const source of sources)
      if (source && !found.some((s) => s.path === source.path)) found.push(source);
  }
  return found;
}

export type LoadedOptions = Record<string, { const: string; title: LocalisedText }[]>;

export async function loadOptions(schema: Schema): Promise<LoadedOptions> {
  const loaded: LoadedOptions = {};
  for (const source of optionSources(schema)) {
    const answer = await api.request<Record<string, unknown>[] | { items: Record<string, unknown>[] }>(
      source.path,
      {
        params: source.tree ? {} : { page: 1, size: 200 },
      },
    );
    const rows = Array.isArray(answer) ? answer : answer.items;
    const flat = source.tree ? flattenTree(rows) : rows;
    loaded[source.path] = flat.map((row) => {
      const indent = '\u3000'.repeat(Number(row.__depth ?? 0));
      const zh = String(row[source.label] ?? '');
      const en = source.labelEn ? String(row[source.labelEn] ?? '') || zh : zh;
      return { const: String(row[source.value]), title: { zh: indent + zh, en: indent + en } };
    });
  }
  return loaded;
}

/** The schema with each sourced field's choices filled in, titled in the display language. */
export function withOptions(
  schema: Schema,
  loaded: LoadedOptions,
  pick: (text: LocalisedText) => string,
): Schema {
  const fill = (child: Schema): Schema => {
    const source = sourceOf(child);
    if (!source) return child;
    const { 'x-options': _source, ...rest } = child;
    const choices = loaded[source.path] ?? [];
    // No choices yet (e.g. an empty catalogue): an empty oneOf is not a valid schema.
    if (!choices.length) return rest;
    return { ...rest, oneOf: choices.map((c) => ({ const: c.const, title: pick(c.title) })) };
  };
  const fillProperties = (properties: Record<string, Schema>, deeper: boolean): Record<string, Schema> =>
    Object.fromEntries(
      Object.entries(properties).map(([name, child]) => {
        const items = child.items as Schema | undefined;
        if (!items) return [name, fill(child)];
        // One level down: the properties of the objects an array holds (a template's columns).
        const inner = deeper ? (items.properties as Record<string, Schema> | undefined) : undefined;
        return [
          name,
          {
            ...child,
            items: inner ? { ...items, properties: fillProperties(inner, false) } : fill(items),
          },
        ];
      }),
    );
  return { ...schema, properties: fillProperties((schema.properties as Record<string, Schema>) ?? {}, true) };
}
