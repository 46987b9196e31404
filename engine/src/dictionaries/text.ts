/**
 * Text rules shared by the dictionaries: how a query and a term are normalised for search and for
 * coding suggestions, and which language a query is written in.
 */

export type TermLanguage = 'zh' | 'en';

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;
const LATIN_LETTER = /[A-Za-z\u00c0-\u024f]/u;
const DIGITS_ONLY = /^[0-9]+$/;

/** Search key: Unicode compatibility form (full-width letters and digits fold), lower case, one space. */
export function searchKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * Matching key for coding suggestions: the search key without punctuation and with spaces
 * removed between words, so "Headache." , "head-ache" and "HEAD ACHE" meet "Headache".
 */
export function matchKey(text: string): string {
  return searchKey(text)
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/gu, '');
}

export type QueryScript = 'code' | 'zh' | 'en' | 'other';

/**
 * The language a query is written in: digits only are a code; any Han character makes it Chinese
 * (Chinese terms often carry Latin abbreviations such as "HIV", so mixed text is Chinese); Latin
 * letters without Han are English.
 */
export function queryScript(query: string): QueryScript {
  const text = query.normalize('NFKC').trim();
  if (DIGITS_ONLY.test(text)) return 'code';
  if (HAN.test(text)) return 'zh';
  if (LATIN_LETTER.test(text)) return 'en';
  return 'other';
}

/** True when a query may be searched against terms in `language` (SPEC 5: the languages must match). */
export function queryMatchesLanguage(query: string, language: TermLanguage): boolean {
  const script = queryScript(query);
  return script === 'code' || script === 'other' || script === language;
}

/** Number of characters as a user counts them (code points, not UTF-16 units). */
export function characterCount(text: string): number {
  return [...text.normalize('NFKC').trim()].length;
}

export function containsHan(text: string): boolean {
  return HAN.test(text);
}
