/**
 * `x-maxLength`: maxLength counted in Unicode code points, like `maxLength`, but the common case
 * (UTF-16 length already within the limit) costs one comparison instead of a walk over the string.
 * Expansion writes it in place of `maxLength` on case fields (large cases hold ~400 KB of text).
 */
import { _ } from 'ajv/dist/compile/codegen';
import { _Code } from 'ajv/dist/compile/codegen/code';
import type { KeywordCxt, KeywordDefinition } from 'ajv';

/** Self-contained (embedded as source in standalone code). */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      i + 1 < text.length &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    )
      i++;
    length++;
  }
  return length;
}

export const maxLengthKeyword: KeywordDefinition = {
  keyword: 'x-maxLength',
  type: 'string',
  schemaType: 'number',
  errors: true,
  error: {
    message: ({ schemaCode }) => _`"must NOT have more than " + ${schemaCode} + " characters"`,
    params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schemaCode } = cxt;
    const length = gen.scopeValue('func', {
      ref: codePointLength,
      code: new _Code(`(${codePointLength.toString()})`),
    });
    cxt.fail(_`${data}.length > ${schemaCode} && ${length}(${data}) > ${schemaCode}`);
  },
};
