/**
 * Labels of the query screens: the `ui*` keys of schemas/i18n/queries/{zh,en}.json (the namespace
 * also holds the server's messages), and the states of schemas/workflows/query.json.
 */
import { useCallback } from 'react';
import zh from '../../../../schemas/i18n/queries/zh.json';
import en from '../../../../schemas/i18n/queries/en.json';
import queryWorkflow from '../../../../schemas/workflows/query.json';
import { useLanguage } from '../../i18n/LanguageContext';
import type { LocalisedText } from '../../i18n';

export type QueriesKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;

/** `qt(key, params)`: a query-screen label in the display language. */
export function useQueriesText(): (key: QueriesKey, params?: Record<string, string | number>) => string {
  const { pick } = useLanguage();
  return useCallback(
    (key: QueriesKey, params: Record<string, string | number> = {}) =>
      pick({ zh: zh[key], en: en[key] }).replace(/\{(\w+)\}/g, (_, name: string) =>
        String(params[name] ?? ''),
      ),
    [pick],
  );
}

const nodes = queryWorkflow.nodes as Record<string, { label: LocalisedText }>;
const actions = queryWorkflow.actions as Record<string, { label: LocalisedText }>;

/** A state's label, as the workflow declares it. */
export const queryStateLabel = (state: string): LocalisedText =>
  nodes[state]?.label ?? { zh: state, en: state };
/** A move's label, as the workflow declares it. */
export const queryActionLabel = (action: string): LocalisedText =>
  actions[action]?.label ?? { zh: action, en: action };
/** First or again. */
export const roundKindLabel = (kind: 'first' | 'again'): LocalisedText => ({ zh: zh[kind], en: en[kind] });
export const receiverLabel = (type: 'internal' | 'external'): LocalisedText => ({
  zh: zh[`receiver.${type}`],
  en: en[`receiver.${type}`],
});
