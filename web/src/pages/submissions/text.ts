/**
 * Labels of the batch submission-plan screens: schemas/i18n/submissionBatches/{zh,en}.json, in the
 * display language (bilingual shows both); plan field labels and code lists from the case model.
 */
import { useCallback } from 'react';
import { codelists } from '@pv/engine';
import zh from '../../../../schemas/i18n/submissionBatches/zh.json';
import en from '../../../../schemas/i18n/submissionBatches/en.json';
import planSchema from '../../../../schemas/case/submission-plans.schema.json';
import { useLanguage } from '../../i18n/LanguageContext';
import type { LocalisedText } from '../../i18n';

export type PlanKey = keyof typeof zh & keyof typeof en;

/** `st(key, params)`: a submission-screen label in the display language. */
export function usePlanText(): (key: PlanKey, params?: Record<string, string | number>) => string {
  const { pick } = useLanguage();
  return useCallback(
    (key: PlanKey, params: Record<string, string | number> = {}) =>
      pick({ zh: zh[key], en: en[key] }).replace(/\{(\w+)\}/g, (_, name: string) =>
        String(params[name] ?? ''),
      ),
    [pick],
  );
}

const planProperties = planSchema.items.properties as Record<
  string,
  { 'x-label'?: LocalisedText; 'x-codelist'?: string }
>;

/** A plan field's label as the case model declares it. */
export const planFieldLabel = (field: string): LocalisedText =>
  planProperties[field]?.['x-label'] ?? { zh: field, en: field };

/** The code list entries of a plan field (submitTimeLimitType, transmissionMode, clinicDrugType). */
export function planFieldCodes(field: string): { code: string; label: LocalisedText }[] {
  const list = planProperties[field]?.['x-codelist'];
  const values = list ? (codelists[list]?.values ?? []) : [];
  return values.map((value) => ({ code: value.code, label: value }));
}
