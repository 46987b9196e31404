/**
 * Labels of the bulk-reporting page: the `ui*` keys of schemas/i18n/submissions/{zh,en}.json (the
 * namespace also holds the server's messages), in the display language.
 */
import { useCallback } from 'react';
import zh from '../../../../schemas/i18n/submissions/zh.json';
import en from '../../../../schemas/i18n/submissions/en.json';
import { useLanguage } from '../../i18n/LanguageContext';

export type BulkKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;

/** `bt(key, params)`: a bulk-reporting label in the display language. */
export function useBulkText(): (key: BulkKey, params?: Record<string, string | number>) => string {
  const { pick } = useLanguage();
  return useCallback(
    (key: BulkKey, params: Record<string, string | number> = {}) =>
      pick({ zh: zh[key], en: en[key] }).replace(/\{(\w+)\}/g, (_, name: string) =>
        String(params[name] ?? ''),
      ),
    [pick],
  );
}
