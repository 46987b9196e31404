import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_CASE_TYPES, renderCaseTypes } from '../../../scripts/generate-types';

describe('generated case types', () => {
  it('schemas/generated/case.d.ts matches the schemas (run `npm run generate:types` when this fails)', async () => {
    const committed = readFileSync(GENERATED_CASE_TYPES, 'utf8');
    expect(committed).toBe(await renderCaseTypes());
  });

  it('types null-flavored and coded elements the way the validators accept them', async () => {
    const text = await renderCaseTypes();
    // D.5 sex: a code of the sex list or one of its four null flavors.
    expect(text).toMatch(
      /gender\?:\s*\|?\s*\('1' \| '2'\)\s*\|\s*\{\s*nullFlavor: 'MSK' \| 'UNK' \| 'ASKU' \| 'NASK';\s*\};/,
    );
    expect(text).toContain('export interface Drug {');
    expect(text).toContain('export interface MessageHeader {');
  });
});
