/**
 * Case values for reports: E2B ids resolved to document pointers through the case schema, values read
 * at those pointers (wildcards expanded under the repeat being printed) and formatted for a language
 * mode: code lists by their zh/en names, E2B dates as dates, booleans and null flavors in words.
 */
import { codelists, walkCaseSchema } from '../case-model';
import type { CaseJsonSchema } from '../case-model';
import en from '../../../schemas/i18n/reports/en.json';
import zh from '../../../schemas/i18n/reports/zh.json';

/** zh, en, or bilingual (each label in both languages, zh first). */
export type ReportLanguage = 'zh' | 'en' | 'both';
export const REPORT_LANGUAGES: readonly ReportLanguage[] = ['zh', 'en', 'both'];

export interface Bilingual {
  zh: string;
  en: string;
}

export const reportCatalogues: Record<'zh' | 'en', Record<string, string>> = { zh, en };

/** Marks a value the blinding replaced (see blinding.ts): printed as "Blinded" in the chosen language. */
export const BLINDED = Object.freeze({ blinded: true as const });
/** Stands in free text where the blinding took out a study drug's name; printed as "[Blinded]". */
export const BLINDED_IN_TEXT = '\uE000';

function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** A catalogue message in the mode's language(s); bilingual joins zh and en with " / ". */
export function reportText(
  lang: ReportLanguage,
  key: string,
  params: Record<string, string | number> = {},
): string {
  const one = (l: 'zh' | 'en'): string => fill(reportCatalogues[l][key] ?? key, params);
  return lang === 'both' ? joinBilingual(one('zh'), one('en')) : one(lang);
}

export function joinBilingual(zhText: string, enText: string): string {
  return zhText === enText ? zhText : `${zhText} / ${enText}`;
}

export function pick(text: Bilingual, lang: ReportLanguage): string {
  return lang === 'both' ? joinBilingual(text.zh, text.en) : text[lang];
}

interface Located {
  pointer: string;
  schema: CaseJsonSchema;
}

let index: Map<string, Located> | undefined;
const schemaByPointer = new Map<string, CaseJsonSchema>();

/** E2B id (x-e2b or x-e2b-section) -> the property's document pointer. */
function e2bIndex(): Map<string, Located> {
  if (index) return index;
  index = new Map();
  const built = index;
  walkCaseSchema((property) => {
    schemaByPointer.set(property.pointer, property.schema);
    for (const key of ['x-e2b', 'x-e2b-section']) {
      const id = property.schema[key];
      if (typeof id === 'string' && !built.has(id))
        built.set(id, { pointer: property.pointer, schema: property.schema });
    }
  });
  return built;
}

/** The pointer a field reference names: an E2B id (`G.k.2.2`) or a pointer (`/state/versionType`). */
export function pointerOf(ref: string): string {
  if (ref.startsWith('/')) {
    e2bIndex();
    if (!schemaByPointer.has(ref))
      throw new Error(`Report mapping names ${ref}, which the case schema does not have`);
    return ref;
  }
  const found = e2bIndex().get(ref);
  if (!found) throw new Error(`Report mapping names E2B id ${ref}, which no case field carries`);
  return found.pointer;
}

export function schemaAt(pointer: string): CaseJsonSchema | undefined {
  e2bIndex();
  return schemaByPointer.get(pointer);
}

/** A wildcard pointer bound to concrete indexes: `/drugs/*` -> `/drugs/3` for the drug being printed. */
export type Binding = ReadonlyMap<string, string>;

function bind(pattern: string, binding: Binding): string {
  let best = '';
  for (const prefix of binding.keys())
    if ((pattern === prefix || pattern.startsWith(`${prefix}/`)) && prefix.length > best.length)
      best = prefix;
  return best ? `${binding.get(best)}${pattern.slice(best.length)}` : pattern;
}

/** Every value at a pattern (wildcards expanded), with the concrete pointer it was found at. */
export function valuesAt(
  document: unknown,
  pattern: string,
  binding: Binding = new Map(),
): { pointer: string; value: unknown }[] {
  const tokens = bind(pattern, binding).split('/').slice(1);
  const out: { pointer: string; value: unknown }[] = [];
  const walk = (node: unknown, at: number, path: string): void => {
    if (node === undefined || node === null) return;
    if (at === tokens.length) {
      if (
        Array.isArray(node) &&
        !(schemaAt(pattern)?.['type'] === 'array' && node.every((v) => typeof v !== 'object'))
      )
        node.forEach((item, i) => walk(item, at, `${path}/${i}`));
      else out.push({ pointer: path, value: node });
      return;
    }
    const token = tokens[at] as string;
    if (token === '*') {
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, at + 1, `${path}/${i}`));
      return;
    }
    if (typeof node === 'object') walk((node as Record<string, unknown>)[token], at + 1, `${path}/${token}`);
  };
  walk(document, 0, '');
  return out;
}

/** Items of a repeating section: concrete pointers of each element of the array at `pattern`. */
export function itemsAt(document: unknown, pattern: string, binding: Binding = new Map()): string[] {
  return valuesAt(document, pattern, binding).map(({ pointer }) => pointer);
}

const E2B_DATE = /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:\.\d+)?([+-]\d{2}(?:\d{2})?)?$/;

export function formatE2bDate(value: string): string {
  const m = E2B_DATE.exec(value);
  if (!m) return value;
  const [, y, mo, d, h, mi] = m;
  let out = [y, mo, d].filter(Boolean).join('-');
  if (h) out += ` ${h}:${mi ?? '00'}`;
  return out;
}

function codeName(list: string, code: string, lang: ReportLanguage): string {
  const entry = codelists[list]?.values.find((v) => v.code === code);
  return entry ? pick(entry, lang) : code;
}

/** One value as printed; '' when there is nothing to print. */
export function formatValue(
  value: unknown,
  schema: CaseJsonSchema | undefined,
  lang: ReportLanguage,
): string {
  if (value === undefined || value === null || value === '') return '';
  if (value === BLINDED || (typeof value === 'object' && (value as { blinded?: unknown }).blinded === true))
    return reportText(lang, 'blindedValue');
  if (typeof value === 'object' && !Array.isArray(value)) {
    const flavor = (value as { nullFlavor?: unknown }).nullFlavor;
    return typeof flavor === 'string' ? reportText(lang, `nullFlavor.${flavor}`) : '';
  }
  if (Array.isArray(value))
    return value
      .map((v) => formatValue(v, schema?.['items'] as CaseJsonSchema | undefined, lang))
      .filter(Boolean)
      .join(', ');
  if (typeof value === 'boolean') return reportText(lang, value ? 'yes' : 'no');
  const text =
    typeof value === 'string'
      ? value.replaceAll(BLINDED_IN_TEXT, `[${reportText(lang, 'blindedValue')}]`)
      : String(value);
  const list = schema?.['x-codelist'] ?? schema?.['x-suggest-codelist'];
  if (typeof list === 'string') return codeName(list, text, lang);
  if (schema?.['x-e2b-date'] !== undefined) return formatE2bDate(text);
  return text;
}
