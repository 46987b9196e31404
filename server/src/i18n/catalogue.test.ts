import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  I18N_DIR,
  createTranslator,
  interpolate,
  langFromHeader,
  loadCatalogues,
  placeholders,
} from './index';

const namespaces = readdirSync(I18N_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function read(namespace: string, lang: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(I18N_DIR, namespace, `${lang}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
}

describe('message catalogues in schemas/i18n', () => {
  it('has the platform namespaces', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'server']));
  });

  describe.each(namespaces)('namespace %s', (namespace) => {
    it('has both zh.json and en.json', () => {
      expect(existsSync(join(I18N_DIR, namespace, 'zh.json'))).toBe(true);
      expect(existsSync(join(I18N_DIR, namespace, 'en.json'))).toBe(true);
    });

    it('has the same keys in zh and en, each a non-empty string', () => {
      const zh = read(namespace, 'zh');
      const en = read(namespace, 'en');
      expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of [...Object.entries(zh), ...Object.entries(en)]) {
        expect(typeof text === 'string' && text.trim() !== '', `${namespace}.${key}`).toBe(true);
      }
    });

    it('has the same placeholders in zh and en for every key', () => {
      const zh = read(namespace, 'zh');
      const en = read(namespace, 'en');
      for (const key of Object.keys(zh)) {
        expect(placeholders(String(en[key] ?? '')), `${namespace}.${key}`).toEqual(
          placeholders(String(zh[key])),
        );
      }
    });
  });
});

describe('translator', () => {
  const translator = createTranslator(loadCatalogues());

  it('selects English only for Lang-Type en; cn and anything else is Chinese', () => {
    expect(langFromHeader('en')).toBe('en');
    expect(langFromHeader(' EN ')).toBe('en');
    expect(langFromHeader('cn')).toBe('zh');
    expect(langFromHeader(undefined)).toBe('zh');
    expect(langFromHeader('fr')).toBe('zh');
  });

  it('translates a key in both languages and fills placeholders', () => {
    expect(translator.t('en', 'common.payloadTooLarge', { limit: '1 MiB' })).toContain('1 MiB');
    expect(translator.t('zh', 'common.payloadTooLarge', { limit: '1 MiB' })).toContain('1 MiB');
    expect(translator.t('zh', 'common.notFound')).not.toBe(translator.t('en', 'common.notFound'));
  });

  it('shows an unknown key as itself and leaves unknown placeholders visible', () => {
    expect(translator.t('en', 'nowhere.nothing')).toBe('nowhere.nothing');
    expect(translator.has('nowhere.nothing')).toBe(false);
    expect(interpolate('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});
