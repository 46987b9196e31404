/**
 * The download tasks' labels: the `ui*` keys of schemas/i18n/downloads/{zh,en}.json (the namespace
 * also holds the server's messages), in the display language; bilingual shows both.
 */
import { useCallback } from 'react';
import zh from '../../../../schemas/i18n/downloads/zh.json';
import en from '../../../../schemas/i18n/downloads/en.json';
import { pickLabel } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';

export type DownloadsKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;

const fill = (template: string, params: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));

/** `dt(key, params)`: a download-task label in the display language. */
export function useDownloadsText() {
  const { language } = useLanguage();
  const dt = useCallback(
    (key: DownloadsKey, params: Record<string, string | number> = {}) =>
      pickLabel(language, { zh: fill(zh[key], params), en: fill(en[key], params) }),
    [language],
  );
  return { dt, language };
}
