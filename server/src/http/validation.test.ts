/**
 * Path parameters and queries of plain string properties are checked without ajv on the busy path
 * (validation.ts plainStringsTest): it must accept nothing ajv refuses, with ajv's own rules
 * (patterns as unicode regular expressions, lengths in code points, required properties).
 */
import { describe, expect, it } from 'vitest';
import { compileValidator } from './validation';
import type { JsonSchema } from './validation';

const fileIdParams = {
  type: 'object',
  properties: { fileId: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
};
const bounded = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 3 },
    one: { type: 'string', pattern: '^.$' },
    two: { type: 'string', pattern: '^..$' },
  },
};

const accepted = (schema: JsonSchema, value: unknown): boolean => {
  try {
    compileValidator(schema, 'text')(value);
    return true;
  } catch {
    return false;
  }
};

describe('text validation of plain string properties', () => {
  it('accepts what the schema allows', () => {
    expect(accepted(fileIdParams, { fileId: 'a'.repeat(64) })).toBe(true);
    expect(accepted(fileIdParams, {})).toBe(true);
    expect(accepted(bounded, { name: 'ab', one: 'x' })).toBe(true);
    // Code points, as ajv counts them: two astral characters are two, a pattern's dot matches one.
    expect(accepted(bounded, { name: '😀😀😀' })).toBe(true);
    expect(accepted(bounded, { name: 'ab', one: '😀' })).toBe(true);
  });

  it('refuses what ajv refuses', () => {
    expect(accepted(fileIdParams, { fileId: 'A'.repeat(64) })).toBe(false);
    expect(accepted(fileIdParams, { fileId: 'a'.repeat(65) })).toBe(false);
    expect(accepted(fileIdParams, { fileId: `${'a'.repeat(64)}\n` })).toBe(false);
    expect(accepted(bounded, {})).toBe(false);
    expect(accepted(bounded, { name: 'a' })).toBe(false);
    expect(accepted(bounded, { name: '😀' })).toBe(false);
    expect(accepted(bounded, { name: 'abcd' })).toBe(false);
    expect(accepted(bounded, { name: 'ab', one: 'xy' })).toBe(false);
    // One astral character is one code point to ajv's unicode pattern, two UTF-16 units otherwise.
    expect(accepted(bounded, { name: 'abc', two: '😀' })).toBe(false);
    expect(accepted(bounded, null)).toBe(false);
    expect(accepted(bounded, ['ab'])).toBe(false);
  });
});
