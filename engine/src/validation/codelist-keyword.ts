/**
 * The `x-codes` keyword: the value is one of a code list's codes. Expansion writes it in place of
 * `enum` because a Set lookup stays constant time on long lists (250 countries) where `enum` loops.
 */
import { _, stringify } from 'ajv/dist/compile/codegen';
import { _Code } from 'ajv/dist/compile/codegen/code';
import type { KeywordCxt, KeywordDefinition } from 'ajv';

export const codesKeyword: KeywordDefinition = {
  keyword: 'x-codes',
  schemaType: 'array',
  errors: true,
  error: {
    message: 'must be a code of the code list',
    params: ({ schema }) => _`{allowedValues: ${stringify(schema)}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    const codes = schema as (string | number)[];
    // The Set is rebuilt from its literal in standalone code, so the browser module needs no runtime.
    const set = gen.scopeValue('obj', {
      ref: new Set(codes),
      code: new _Code(`new Set(${JSON.stringify(codes)})`),
    });
    cxt.fail(_`!${set}.has(${data})`);
  },
};
