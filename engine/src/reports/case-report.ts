/**
 * Case report ("view report", Word and PDF export): every tab of the case form (schemas/ui/case-tabs.json)
 * with its filled fields, each with its label in the language mode, its E2B id and its value; a
 * repeating group prints one block per item. Tabs and groups with nothing filled are left out.
 */
import { caseTabs } from '../case-model';
import type { ReportLanguage } from './values';
import { formatValue, pick, reportText, schemaAt, valuesAt } from './values';

export interface CaseReportRow {
  label: string;
  e2b: string;
  value: string;
}

export interface CaseReportItem {
  /** `#2` or `#1.3` for an item of a repeating group (nested groups number by each level). */
  heading: string | null;
  rows: CaseReportRow[];
}

export interface CaseReportGroup {
  id: string;
  title: string;
  items: CaseReportItem[];
}

export interface CaseReport {
  lang: ReportLanguage;
  blinded: boolean;
  title: string;
  banner: string;
  reportCode: string;
  tabs: { id: string; label: string; groups: CaseReportGroup[] }[];
}

const labelText = (pointer: string, lang: ReportLanguage): string => {
  const label = schemaAt(pointer)?.['x-label'] as { zh: string; en: string } | undefined;
  return label ? pick(label, lang) : pointer;
};

function rowsFor(
  document: unknown,
  fields: string[],
  binding: Map<string, string>,
  lang: ReportLanguage,
): CaseReportRow[] {
  const rows: CaseReportRow[] = [];
  for (const field of fields) {
    const schema = schemaAt(field);
    const texts = valuesAt(document, field, binding)
      .map(({ value }) => formatValue(value, schema, lang))
      .filter(Boolean);
    if (texts.length === 0) continue;
    const e2b = schema?.['x-e2b'];
    rows.push({
      label: labelText(field, lang),
      e2b: typeof e2b === 'string' ? e2b : '',
      value: texts.join('; '),
    });
  }
  return rows;
}

export function buildCaseReport(
  document: Record<string, unknown>,
  options: { lang: ReportLanguage; blinded: boolean },
): CaseReport {
  const { lang } = options;
  const tabs: CaseReport['tabs'] = [];
  for (const tab of caseTabs.tabs) {
    const groups: CaseReportGroup[] = [];
    for (const group of tab.groups) {
      const items: CaseReportItem[] = [];
      if (!group.array) {
        const rows = rowsFor(document, group.fields, new Map(), lang);
        if (rows.length) items.push({ heading: null, rows });
      } else {
        const pattern = `${group.array}/*`;
        for (const { pointer } of valuesAt(document, group.array)) {
          const binding = new Map([[pattern, pointer]]);
          const rows = rowsFor(document, group.fields, binding, lang);
          const indexes = pointer.match(/\/(\d+)(?=\/|$)/g)?.map((t) => Number(t.slice(1)) + 1) ?? [];
          if (rows.length) items.push({ heading: `#${indexes.join('.')}`, rows });
        }
      }
      if (items.length) groups.push({ id: group.id, title: pick(group.title, lang), items });
    }
    if (groups.length) tabs.push({ id: tab.id, label: pick(tab.label, lang), groups });
  }
  const code = (document['report'] as { reportCode?: unknown } | undefined)?.reportCode;
  return {
    lang,
    blinded: options.blinded,
    title: reportText(lang, 'caseReport.title'),
    banner: reportText(lang, options.blinded ? 'blindedBanner' : 'unblindedBanner'),
    reportCode: typeof code === 'string' ? code : '',
    tabs,
  };
}
