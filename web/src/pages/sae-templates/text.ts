/**
 * The project SAE template screens' labels: the `ui*` keys of schemas/i18n/saeTemplates/{zh,en}.json
 * (the namespace also holds the server's messages), in the display language; bilingual shows both.
 */
import { useCallback } from 'react';
import zh from '../../../../schemas/i18n/saeTemplates/zh.json';
import en from '../../../../schemas/i18n/saeTemplates/en.json';
import { pickLabel } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';

export type SaeKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;
export type SaeText = (key: SaeKey, params?: Record<string, string | number>) => string;

const fill = (template: string, params: Record<string, string | number> = {}) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));

/** `st(key, params)`: a project SAE template label in the display language. */
export function useSaeText() {
  const { language } = useLanguage();
  const st = useCallback<SaeText>(
    (key, params) => pickLabel(language, { zh: fill(zh[key], params), en: fill(en[key], params) }),
    [language],
  );
  return { st, language };
}
