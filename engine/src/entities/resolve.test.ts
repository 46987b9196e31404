import { describe, expect, it } from 'vitest';
import { pickEntity, resolveEntity } from './resolve';
import type { EntityFiles } from './resolve';

const files: EntityFiles = {
  formats: { $defs: { phone: { type: 'string', maxLength: 32, pattern: '^1[0-9]{10}$' } } },
  user: {
    type: 'object',
    required: ['account', 'phone'],
    properties: {
      account: { type: 'string', pattern: '^[a-z]+$' },
      phone: { $ref: 'formats.json#/$defs/phone', 'x-label': { zh: '电话', en: 'Phone' } },
      kind: { type: 'string', enum: ['a', 'b'] },
      holder: { type: 'string' },
    },
    if: { properties: { kind: { const: 'a' } }, required: ['kind'] },
    then: { required: ['holder'] },
    $defs: { invite: { type: 'object', properties: { account: { $ref: '#/properties/account' } } } },
  },
  loop: { type: 'object', properties: { a: { $ref: '#/properties/b' }, b: { $ref: '#/properties/a' } } },
};

describe('entity schemas with their references inlined', () => {
  it('inlines a shared format, keeping the referring property’s own annotations', () => {
    const user = resolveEntity(files, 'user');
    expect(user.properties.phone).toEqual({
      type: 'string',
      maxLength: 32,
      pattern: '^1[0-9]{10}$',
      'x-label': { zh: '电话', en: 'Phone' },
    });
  });

  it('resolves a pointer into a file and references inside the same file', () => {
    expect(resolveEntity(files, 'user#/$defs/invite').properties.account).toEqual({
      type: 'string',
      pattern: '^[a-z]+$',
    });
  });

  it('refuses an unknown file, a missing pointer and a reference cycle', () => {
    expect(() => resolveEntity(files, 'nobody')).toThrow(/unknown entity/);
    expect(() => resolveEntity(files, 'user#/$defs/none')).toThrow(/nothing at/);
    expect(() => resolveEntity(files, 'loop')).toThrow(/cycle/);
  });

  it('picks fields with the entity’s required list and its conditions only when their fields are all picked', () => {
    const user = resolveEntity(files, 'user');
    const all = pickEntity(user, ['account', 'kind', 'holder']);
    expect(all.required).toEqual(['account']);
    expect(all.if).toBeDefined();
    expect(all.then).toEqual({ required: ['holder'] });
    const some = pickEntity(user, ['account', 'kind']);
    expect(some.if).toBeUndefined();
    expect(some.then).toBeUndefined();
    expect(() => pickEntity(user, ['nothing'])).toThrow(/no property/);
  });
});
