/**
 * The dictionary screens' labels: the `ui*` keys of schemas/i18n/dictionaries/{zh,en}.json (the
 * namespace also holds the server's messages), in the display language; bilingual shows both.
 */
import { useCallback } from 'react';
import zh from '../../../../schemas/i18n/dictionaries/zh.json';
import en from '../../../../schemas/i18n/dictionaries/en.json';
import { pickLabel } from '../../i18n';
import type { DisplayLanguage } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';

export type DictionaryKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;

function fill(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export function dictionaryText(
  language: DisplayLanguage,
  key: DictionaryKey,
  params?: Record<string, string | number>,
): string {
  return pickLabel(language, { zh: fill(zh[key], params), en: fill(en[key], params) });
}

/** `dt(key, params)`: a dictionary-screen label in the display language. */
export function useDictionaryText() {
  const { language } = useLanguage();
  const dt = useCallback(
    (key: DictionaryKey, params?: Record<string, string | number>) => dictionaryText(language, key, params),
    [language],
  );
  return { dt, language };
}
