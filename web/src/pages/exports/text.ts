/**
 * The export screens' labels: the `ui*` keys of schemas/i18n/exports/{zh,en}.json (the namespace
 * also holds the server's messages), and a transmission state's label from the code list
 * transmissionState, in the display language; bilingual shows both.
 */
import { useCallback } from 'react';
import { codelists } from '@pv/engine';
import zh from '../../../../schemas/i18n/exports/zh.json';
import en from '../../../../schemas/i18n/exports/en.json';
import { pickLabel } from '../../i18n';
import { useLanguage } from '../../i18n/LanguageContext';

export type ExportKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;

function fill(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

/** `et(key, params)`: an export-screen label in the display language. */
export function useExportText() {
  const { language } = useLanguage();
  const et = useCallback(
    (key: ExportKey, params?: Record<string, string | number>) =>
      pickLabel(language, { zh: fill(zh[key], params), en: fill(en[key], params) }),
    [language],
  );
  /** A transmission state's label (code list transmissionState); an unknown state shows its code. */
  const stateLabel = useCallback(
    (state: string) => {
      const entry = codelists.transmissionState?.values.find((value) => value.code === state);
      return entry ? pickLabel(language, entry) : state;
    },
    [language],
  );
  return { et, stateLabel, language };
}
