/**
 * The project administration screens' labels: the `ui*` keys of schemas/i18n/projects/{zh,en}.json
 * (the namespace also holds the server's messages), in the display language; bilingual shows both.
 */
import { useCallback } from 'react';
import zh from '../../../../schemas/i18n/projects/zh.json';
import en from '../../../../schemas/i18n/projects/en.json';
import { pickLabel } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';

export type ProjectsKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;

const fill = (template: string, params: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));

/** `pt(key, params)`: a project administration label in the display language. */
export function useProjectsText() {
  const { language } = useLanguage();
  const pt = useCallback(
    (key: ProjectsKey, params: Record<string, string | number> = {}) =>
      pickLabel(language, { zh: fill(zh[key], params), en: fill(en[key], params) }),
    [language],
  );
  return { pt, language };
}
