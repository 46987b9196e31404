/**
 * The case form's own messages (schemas/i18n/caseForm/{zh,en}.json, flat keys without dots) in the
 * display language; bilingual shows both.
 */
import { useCallback } from 'react';
import zh from '../../../schemas/i18n/caseForm/zh.json';
import en from '../../../schemas/i18n/caseForm/en.json';
import { pickLabel } from '../i18n';
import type { DisplayLanguage, LocalisedText } from '../i18n';
import { useLanguage } from '../i18n/LanguageContext';

export type CaseFormKey = keyof typeof zh & keyof typeof en;
export const caseFormCatalogues = { zh: zh as Record<string, string>, en: en as Record<string, string> };

function fill(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export function caseFormText(
  language: DisplayLanguage,
  key: CaseFormKey,
  params?: Record<string, string | number>,
): string {
  return pickLabel(language, { zh: fill(zh[key], params), en: fill(en[key], params) });
}

/** `tx(key, params)`: a case-form message in the display language. */
export function useCaseFormText() {
  const { language, pick } = useLanguage();
  const tx = useCallback(
    (key: CaseFormKey, params?: Record<string, string | number>) => caseFormText(language, key, params),
    [language],
  );
  const label = useCallback((text: LocalisedText | undefined) => (text ? pick(text) : ''), [pick]);
  return { tx, label, language };
}
