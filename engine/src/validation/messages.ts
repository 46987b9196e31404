/** The validation message catalogue (schemas/i18n/validation) and how findings get their text. */
import en from '../../../schemas/i18n/validation/en.json';
import zh from '../../../schemas/i18n/validation/zh.json';
import type { BilingualText } from '../schema-registry/types';
import { fillMessage } from './finding';

export const validationMessages: { zh: Record<string, string>; en: Record<string, string> } = { zh, en };

/**
 * Both languages of a catalogue message. `label` is the field label in each language
 * (falls back to the E2B id or path); the other params are language neutral.
 */
export function catalogueMessage(
  messageKey: string,
  params: Record<string, string | number>,
  label?: BilingualText,
): BilingualText {
  // Message keys are `<namespace>.<key>` as the server translator addresses them; the file holds `<key>`.
  const key = messageKey.replace(/^validation\./, '');
  const fallback = String(params.e2b ?? params.field ?? '');
  return {
    zh: fillMessage(validationMessages.zh[key] ?? messageKey, { ...params, label: label?.zh || fallback }),
    en: fillMessage(validationMessages.en[key] ?? messageKey, { ...params, label: label?.en || fallback }),
  };
}
