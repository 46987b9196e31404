/**
 * Server message catalogues: every namespace under schemas/i18n/<namespace>/{zh,en}.json, flat
 * key -> string with `{name}` placeholders. Keys are addressed as `<namespace>.<key>`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];
export type MessageParams = Record<string, string | number | boolean | null | undefined>;

/** schemas/i18n at the repository root. */
export const I18N_DIR = fileURLToPath(new URL('../../../schemas/i18n/', import.meta.url));

/** `Lang-Type: en` selects English; `cn`, anything else or nothing selects Chinese (the default). */
export function langFromHeader(value: string | null | undefined): Lang {
  return value?.trim().toLowerCase() === 'en' ? 'en' : 'zh';
}

export interface Catalogues {
  readonly namespaces: string[];
  /** Fully qualified key (`namespace.key`) -> message, per language. */
  readonly messages: Record<Lang, Map<string, string>>;
}

export function loadCatalogues(dir: string = I18N_DIR): Catalogues {
  const messages: Record<Lang, Map<string, string>> = { zh: new Map(), en: new Map() };
  const namespaces = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    : [];
  for (const namespace of namespaces) {
    for (const lang of LANGS) {
      const file = join(dir, namespace, `${lang}.json`);
      if (!existsSync(file)) continue;
      const entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      for (const [key, text] of Object.entries(entries)) {
        if (typeof text === 'string') messages[lang].set(`${namespace}.${key}`, text);
      }
    }
  }
  return { namespaces, messages };
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** Names of the `{name}` placeholders in a message, sorted and unique. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))].sort();
}

export function interpolate(text: string, params: MessageParams = {}): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = params[name];
    return value === undefined || value === null ? whole : String(value);
  });
}

export interface Translator {
  t(lang: Lang, key: string, params?: MessageParams): string;
  has(key: string): boolean;
}

export function createTranslator(catalogues: Catalogues = loadCatalogues()): Translator {
  return {
    // A key missing in one language falls back to the other, then to the key itself, so a gap
    // shows up as readable text rather than an empty toast (the catalogue test catches the gap).
    t(lang, key, params) {
      const other: Lang = lang === 'zh' ? 'en' : 'zh';
      const text = catalogues.messages[lang].get(key) ?? catalogues.messages[other].get(key) ?? key;
      return interpolate(text, params);
    },
    has(key) {
      return catalogues.messages.zh.has(key) || catalogues.messages.en.has(key);
    },
  };
}
