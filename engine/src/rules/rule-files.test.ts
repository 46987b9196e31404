/** The rule files of schemas/rules, their messages and the catalogues of the rules and validation namespaces. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import rulesEn from '../../../schemas/i18n/rules/en.json';
import rulesZh from '../../../schemas/i18n/rules/zh.json';
import { baseConfiguration } from '../configuration/base';
import { parseCsv } from '../case-model';
import { resolveConfiguration } from '../schema-registry/resolve';
import { compiledConfiguration, CUSTOM_PROFILE } from '../validation/compile';
import { validationMessages } from '../validation/messages';
import { mandatoryE2bIds, RULE_PROFILES, ruleSets } from './profiles';
import { ASSERTION_KEYS, CONDITION_OPERATORS } from './types';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('rule files', () => {
  it('every rule compiles against the case model, with a unique id and a zh and en message', () => {
    const compiled = compiledConfiguration(resolveConfiguration(baseConfiguration()));
    for (const profile of RULE_PROFILES) expect(compiled.rules.get(profile)?.problems, profile).toEqual([]);
    const ids = ruleSets.flatMap((set) => set.rules.map((rule) => rule.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const set of ruleSets) {
      expect(set.rules.length, set.profile).toBeGreaterThan(0);
      for (const rule of set.rules) {
        expect(rule.id.startsWith(`${set.profile}.`), rule.id).toBe(true);
        expect(rule.message.zh.trim(), rule.id).not.toBe('');
        expect(rule.message.en.trim(), rule.id).not.toBe('');
        expect(/[\u4e00-\u9fff]/.test(rule.message.zh), `${rule.id} zh message is Chinese`).toBe(true);
      }
    }
  });

  it('FDA rules keep the FDA error ids of the rejection table', () => {
    const table = readFileSync(
      new URL('../../../schemas/e2b/elements/fda-rejection-warning-rules.csv', import.meta.url),
      'utf8',
    );
    const known = new Set(parseCsv(table).map((row) => row[5]?.trim()));
    const fda = ruleSets.find((set) => set.profile === 'fda')!;
    for (const rule of fda.rules) expect(known.has(rule.id.replace(/^fda\./, '')), rule.id).toBe(true);
  });

  it('the E2B-mandatory list matches the ICH table', () => {
    const table = readFileSync(
      new URL('../../../schemas/e2b/elements/ich-core-data-elements-v1.csv', import.meta.url),
      'utf8',
    );
    const expected = parseCsv(table)
      .slice(2)
      .filter(
        (row) =>
          ['Mandatory', 'Required'].includes(row[7]?.trim() ?? '') &&
          row[2] &&
          !row[2].trim().startsWith('N.') &&
          row[2].trim() !== '-',
      )
      .map((row) => row[2]!.trim());
    expect([...mandatoryE2bIds]).toEqual(expected);
  });
});

describe('message catalogues', () => {
  it('validation messages exist in zh and en with the same placeholders', () => {
    expect(Object.keys(validationMessages.zh).sort()).toEqual(Object.keys(validationMessages.en).sort());
    for (const key of Object.keys(validationMessages.en))
      expect(placeholders(validationMessages.zh[key]!), key).toEqual(
        placeholders(validationMessages.en[key]!),
      );
  });

  it('rule editor labels exist in zh and en for every profile, condition and assertion', () => {
    expect(Object.keys(rulesZh).sort()).toEqual(Object.keys(rulesEn).sort());
    const keys = new Set(Object.keys(rulesEn));
    for (const profile of [...RULE_PROFILES, CUSTOM_PROFILE])
      expect(keys.has(`profile.${profile}`), profile).toBe(true);
    for (const operator of [...CONDITION_OPERATORS, 'all', 'any', 'none'])
      expect(keys.has(`condition.${operator}`), operator).toBe(true);
    for (const assertion of ASSERTION_KEYS) expect(keys.has(`assertion.${assertion}`), assertion).toBe(true);
  });

  it('every message key a finding can carry is in the validation catalogue', async () => {
    const sources = ['findings.ts', 'messages.ts']
      .map((file) => readFileSync(new URL(`../validation/${file}`, import.meta.url), 'utf8'))
      .join('\n');
    const literal = [...sources.matchAll(/'(validation\.[A-Za-z.]+)'/g)].map((match) => match[1]!);
    const e2bDate = ['format', 'calendar', 'timezone', 'precisionMin', 'precisionMax', 'future'].map(
      (problem) => `validation.e2bDate.${problem}`,
    );
    const plain = [
      'type',
      'enum',
      'const',
      'pattern',
      'format',
      'required',
      'additionalProperties',
      'maxLength',
      'minLength',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
      'minItems',
      'maxItems',
    ].map((keyword) => `validation.${keyword}`);
    for (const key of [...literal, ...e2bDate, ...plain])
      expect(validationMessages.en[key.replace(/^validation\./, '')], key).toBeDefined();
    const edits = readFileSync(new URL('../schema-registry/edits.ts', import.meta.url), 'utf8');
    const editKeys = [...edits.matchAll(/'validation\.(configEdit\.[A-Za-z]+)'/g)].map((match) => match[1]!);
    expect(editKeys.length).toBeGreaterThan(10);
    for (const key of editKeys) expect(validationMessages.zh[key], key).toBeDefined();
  });
});
