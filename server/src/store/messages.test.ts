import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const catalogue = (lang: string) =>
  JSON.parse(readFileSync(join(root, 'schemas/i18n/store', `${lang}.json`), 'utf8')) as Record<
    string,
    string
  >;

/** Message keys the store and file store raise, read from their sources. */
function raisedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const dir of ['server/src/store', 'server/src/files']) {
    for (const file of readdirSync(join(root, dir)).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    )) {
      const text = readFileSync(join(root, dir, file), 'utf8');
      // ForbiddenQueryError's argument names the refused operator, not a message key.
      for (const m of text.matchAll(/(?<!ForbiddenQuery)(?:Error|super)\('([a-zA-Z]+)'/g)) keys.add(m[1]!);
    }
  }
  return keys;
}

describe('store messages', () => {
  it('has every raised key in zh and en with the same placeholders', () => {
    const zh = catalogue('zh');
    const en = catalogue('en');
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    const keys = raisedKeys();
    expect(keys.size).toBeGreaterThan(15);
    for (const key of keys) {
      expect(zh[key], key).toBeTypeOf('string');
      expect(en[key], key).toBeTypeOf('string');
    }
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en)) expect(placeholders(zh[key]!), key).toEqual(placeholders(en[key]!));
  });
});
