/**
 * A form over an array of closed objects (a line-listing template's columns): `annotate` reaches a
 * property of the objects (`fields.fieldKey`), its choices are loaded and filled there, and a row's
 * undeclared item properties (the column's resolved reference) are not sent back.
 */
import { describe, expect, it } from 'vitest';
import page from '../../../../schemas/ui/admin/line-listing-templates.json';
import type { PageDefinition } from '../definition';
import { resolvePage } from './entity-form';
import { pickDeclared } from './localise';
import { optionSources, withOptions } from './options';

type Schema = Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };

describe('forms over arrays of objects', () => {
  const form = resolvePage(page as unknown as PageDefinition).lists[0]!.form!;
  const schema = form.schema as Schema;
  const items = () => schema.properties.fields!.items as Schema;

  it('annotates, loads and fills the choices of a property of the array items', () => {
    expect(items().properties.fieldKey!['x-options']).toMatchObject({
      path: '/downloads/line-listing-fields',
    });
    expect(optionSources(schema).map((s) => s.path)).toEqual([
      '/imports/template-projects',
      '/downloads/line-listing-fields',
    ]);
    const filled = withOptions(
      schema,
      {
        '/downloads/line-listing-fields': [{ const: 'pt', title: { zh: '首选术语', en: 'Preferred term' } }],
      },
      (t) => t.en,
    ) as Schema;
    const fieldKey = ((filled.properties.fields!.items as Schema).properties.fieldKey ?? {}) as Record<
      string,
      unknown
    >;
    expect(fieldKey.oneOf).toEqual([{ const: 'pt', title: 'Preferred term' }]);
    expect(fieldKey['x-options']).toBeUndefined();
  });

  it('sends back only the declared properties of each item', () => {
    const row = {
      id: 't1',
      builtIn: false,
      name: 'SUSAR',
      fields: [{ fieldKey: 'pt', nameCn: '首选术语', nameEn: 'PT', ref: '/reactions/*/meddraPtName' }],
    };
    expect(pickDeclared(schema, row)).toEqual({
      name: 'SUSAR',
      fields: [{ fieldKey: 'pt', nameCn: '首选术语', nameEn: 'PT' }],
    });
  });
});
