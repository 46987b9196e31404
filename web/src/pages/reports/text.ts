/**
 * Report-screen labels: the `ui*` keys of schemas/i18n/reports/{zh,en}.json (the namespace also holds
 * the report outputs' own texts and the server's messages), in the display language; bilingual shows both.
 */
import { useCallback } from 'react';
import zh from '../../../../schemas/i18n/reports/zh.json';
import en from '../../../../schemas/i18n/reports/en.json';
import { pickLabel } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';

export type ReportKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}` | `lang.${string}`>;

function fill(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export function useReportText() {
  const { language } = useLanguage();
  const rt = useCallback(
    (key: ReportKey, params?: Record<string, string | number>) =>
      pickLabel(language, { zh: fill(zh[key], params), en: fill(en[key], params) }),
    [language],
  );
  return { rt, language };
}
