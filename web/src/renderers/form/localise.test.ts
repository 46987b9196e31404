import { describe, expect, it } from 'vitest';
import { errorKey, localiseSchema, pickDeclared } from './localise';

describe('form localisation', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      kind: { enum: ['organisation', 'institution'] },
      contact: { type: 'object', properties: { email: { type: 'string' } } },
    },
  };
  const labels = {
    name: { zh: '名称', en: 'Name' },
    kind: { zh: '类型', en: 'Kind' },
    'kind.organisation': { zh: '组织', en: 'Organisation' },
    'contact.email': { zh: '邮箱', en: 'Email' },
  };

  it('titles fields and enum values in the display language', () => {
    const en = localiseSchema(schema, labels, (t) => t.en) as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(en.properties.name!.title).toBe('Name');
    expect(en.properties.kind!.oneOf).toEqual([
      { const: 'organisation', title: 'Organisation' },
      { const: 'institution', title: 'institution' },
    ]);
    expect((en.properties.contact!.properties as Record<string, { title: string }>).email.title).toBe(
      'Email',
    );
    const zh = localiseSchema(schema, labels, (t) => t.zh) as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(zh.properties.name!.title).toBe('名称');
  });

  it('maps validation keywords to catalogue keys and keeps declared fields only', () => {
    expect(errorKey('required')).toBe('form.error.required');
    expect(errorKey('whatever')).toBe('form.error.invalid');
    expect(pickDeclared(schema, { name: 'a', rev: 3, extra: 1, kind: null }, ['kind'])).toEqual({
      name: 'a',
    });
  });
});
