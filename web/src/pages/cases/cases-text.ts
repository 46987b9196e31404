/**
 * Case-page labels kept with the case messages: the `ui*` keys of schemas/i18n/cases/{zh,en}.json
 * (freeze), and the server's refusals by key, in the display language; bilingual shows both.
 */
import { useCallback } from 'react';
import zh from '../../../../schemas/i18n/cases/zh.json';
import en from '../../../../schemas/i18n/cases/en.json';
import { pickLabel } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';

export type CasesKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;

/** `ct(key)`: a case-page label in the display language. */
export function useCasesText() {
  const { language } = useLanguage();
  const ct = useCallback((key: CasesKey) => pickLabel(language, { zh: zh[key], en: en[key] }), [language]);
  return { ct };
}
