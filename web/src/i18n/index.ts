/**
 * The web catalogues (schemas/i18n/web/{zh,en}.json, flat key -> text with `{name}` placeholders)
 * and the three display languages: Chinese (default), English, and bilingual, where every label
 * shows both texts ("中文 / English").
 */
import i18next from 'i18next';
import zh from '../../../schemas/i18n/web/zh.json';
import en from '../../../schemas/i18n/web/en.json';

export type DisplayLanguage = 'zh' | 'en' | 'both';
export const DISPLAY_LANGUAGES: readonly DisplayLanguage[] = ['zh', 'en', 'both'];
export type Params = Record<string, string | number>;
/** A label the server sends in both languages (menus, code lists). */
export interface LocalisedText {
  zh: string;
  en: string;
}

/** Keys looked up but missing from a catalogue: the catalogue walk in the browser tests reads this. */
export const missingKeys = new Set<string>();

const i18n = i18next.createInstance();
void i18n.init({
  resources: { zh: { web: zh }, en: { web: en } },
  lng: 'zh',
  fallbackLng: false,
  ns: ['web'],
  defaultNS: 'web',
  keySeparator: false,
  nsSeparator: false,
  initAsync: false,
  saveMissing: true,
  missingKeyHandler: (_lngs, _ns, key) => {
    missingKeys.add(key);
  },
  interpolation: { prefix: '{', suffix: '}', escapeValue: false },
});

if (typeof window !== 'undefined') {
  (window as unknown as { __pvMissingKeys: Set<string> }).__pvMissingKeys = missingKeys;
}

export function hasKey(key: string): boolean {
  return key in zh && key in en;
}

/** The text of `key` in one language. */
export function translateIn(lang: 'zh' | 'en', key: string, params?: Params): string {
  return i18n.t(key, { lng: lang, ...params });
}

/** The text of `key` for a display language; bilingual joins both. */
export function translate(language: DisplayLanguage, key: string, params?: Params): string {
  if (language !== 'both') return translateIn(language, key, params);
  return joinBilingual(translateIn('zh', key, params), translateIn('en', key, params));
}

/** A server-sent label for a display language. */
export function pickLabel(language: DisplayLanguage, text: LocalisedText): string {
  if (language === 'zh') return text.zh || text.en;
  if (language === 'en') return text.en || text.zh;
  return joinBilingual(text.zh, text.en);
}

function joinBilingual(zhText: string, enText: string): string {
  return zhText === enText || !enText ? zhText : !zhText ? enText : `${zhText} / ${enText}`;
}

/** The Lang-Type header the server expects: cn for Chinese and bilingual, en for English. */
export function langType(language: DisplayLanguage): 'cn' | 'en' {
  return language === 'en' ? 'en' : 'cn';
}

export const catalogues = { zh: zh as Record<string, string>, en: en as Record<string, string> };
