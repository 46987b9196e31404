/**
 * Line-listing templates (issue 20 item 5): a type, a name and an ordered list of fields, each with
 * its zh and en column name and the value it reads (an E2B id or a case pointer). Built-in templates
 * come from schemas/reports/line-listing-templates.json; a project's own are stored by the server.
 * This file checks a template's fields and reads one case's row of cells.
 */
import builtIn from '../../../schemas/reports/line-listing-templates.json';
import { formatValue, pointerOf, schemaAt, valuesAt } from './values';

export const LINE_LISTING_TYPES = ['case', 'dsurSeriousAdr', 'susar', 'custom'] as const;
export type LineListingType = (typeof LINE_LISTING_TYPES)[number];

export interface LineListingTemplateField {
  /** The catalogue's key (masterdata line-listing fields) or the built-in template's. */
  fieldKey: string;
  nameCn: string;
  nameEn: string;
  /** E2B id (`G.k.2.2`) or case pointer (`/reactions/*\/meddraPtName`). */
  ref: string;
}

export interface BuiltInLineListingTemplate {
  id: string;
  type: LineListingType;
  name: { zh: string; en: string };
  fields: LineListingTemplateField[];
}

export const BUILT_IN_LINE_LISTING_TEMPLATES = builtIn.templates as BuiltInLineListingTemplate[];

/** The first problem of a template's fields, as a message key and its params; null when sound. */
export function lineListingFieldProblem(
  fields: readonly LineListingTemplateField[],
): { key: string; params: Record<string, string> } | null {
  const seen = { nameCn: new Set<string>(), nameEn: new Set<string>(), fieldKey: new Set<string>() };
  for (const field of fields) {
    for (const name of ['nameCn', 'nameEn', 'fieldKey'] as const) {
      const value = field[name].trim();
      if (seen[name].has(value.toLowerCase()))
        return { key: `downloads.template.duplicate.${name}`, params: { name: value } };
      seen[name].add(value.toLowerCase());
    }
    try {
      pointerOf(field.ref);
    } catch {
      return { key: 'downloads.template.unknownField', params: { name: field.fieldKey, ref: field.ref } };
    }
  }
  return null;
}

/** One case's cells in field order: every value the field reads, formatted, joined by '; '. */
export function lineListingCells(
  document: unknown,
  fields: readonly LineListingTemplateField[],
  lang: 'zh' | 'en',
): string[] {
  return fields.map((field) => {
    const pointer = pointerOf(field.ref);
    const schema = schemaAt(pointer);
    return valuesAt(document, pointer)
      .map(({ value }) => formatValue(value, schema, lang))
      .filter(Boolean)
      .join('; ');
  });
}
