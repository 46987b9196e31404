/**
 * Labels of the unblinding screens: the `ui*` keys of schemas/i18n/unblinding/{zh,en}.json (the
 * namespace also holds the server's messages), in the display language.
 */
import { useCallback } from 'react';
import { unblindingWorkflow } from '@pv/engine';
import zh from '../../../../schemas/i18n/unblinding/zh.json';
import en from '../../../../schemas/i18n/unblinding/en.json';
import { useLanguage } from '../../i18n/LanguageContext';
import type { LocalisedText } from '../../i18n';

export type UnblindingKey = Extract<keyof typeof zh & keyof typeof en, `ui${string}`>;

/** `ut(key, params)`: an unblinding-screen label in the display language. */
export function useUnblindingText(): (
  key: UnblindingKey,
  params?: Record<string, string | number>,
) => string {
  const { pick } = useLanguage();
  return useCallback(
    (key: UnblindingKey, params: Record<string, string | number> = {}) =>
      pick({ zh: zh[key], en: en[key] }).replace(/\{(\w+)\}/g, (_, name: string) =>
        String(params[name] ?? ''),
      ),
    [pick],
  );
}

/** A state's label, as schemas/workflows/unblinding.json declares it. */
export const stateLabel = (state: string): LocalisedText =>
  unblindingWorkflow.nodes[state]?.label ?? { zh: state, en: state };

/** The case history's line of an unblinding step (`unblindingApply` -> the workflow's `apply`). */
export function unblindingActionLabel(action: string): LocalisedText | null {
  if (!action.startsWith('unblinding')) return null;
  const id = action.slice('unblinding'.length);
  const declared = unblindingWorkflow.actions[id.charAt(0).toLowerCase() + id.slice(1)];
  return declared?.label ?? null;
}
