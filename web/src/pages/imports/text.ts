/**
 * The import screens' labels: the `ui*` keys of schemas/i18n/imports/{zh,en}.json (the namespace
 * also holds the server's messages), in the display language; bilingual shows both.
 */
import { useCallback } from 'react';
import zh from '../../../../schemas/i18n/imports/zh.json';
import en from '../../../../schemas/i18n/imports/en.json';
import { pickLabel } from '../../i18n';
import type { DisplayLanguage } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';

export type ImportKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;

function fill(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export function importText(
  language: DisplayLanguage,
  key: ImportKey,
  params?: Record<string, string | number>,
): string {
  return pickLabel(language, { zh: fill(zh[key], params), en: fill(en[key], params) });
}

/** `it(key, params)`: an import-screen label in the display language. */
export function useImportText() {
  const { language, pick } = useLanguage();
  const it = useCallback(
    (key: ImportKey, params?: Record<string, string | number>) => importText(language, key, params),
    [language],
  );
  return { it, pick, language };
}
