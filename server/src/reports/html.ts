/**
 * HTML of report outputs from the templates in templates/cioms and templates/reports (Handlebars,
 * HTML-escaped): the page Chromium prints and the browser previews.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { reportText } from '@pv/engine';
import type { CaseReport, CiomsForm, ReportLanguage } from '@pv/engine';

const TEMPLATES = fileURLToPath(new URL('../../../templates/', import.meta.url));

const compiled = new Map<string, Handlebars.TemplateDelegate>();

function template(name: string): Handlebars.TemplateDelegate {
  let found = compiled.get(name);
  if (!found) {
    // A private environment: templates see no helpers registered elsewhere in the process.
    found = Handlebars.create().compile(readFileSync(`${TEMPLATES}${name}`, 'utf8'), { strict: false });
    compiled.set(name, found);
  }
  return found;
}

/** Any template of templates/ (`query-letters/letter.hbs`) filled with its view, HTML-escaped. */
export const templateHtml = (name: string, view: Record<string, unknown>): string => template(name)(view);

const htmlLang = (lang: ReportLanguage): string => (lang === 'en' ? 'en' : 'zh-CN');

/** The CIOMS I form as one HTML document: the form page, then its continuation pages. */
export const ciomsHtml = (form: CiomsForm): string => ciomsHtmlMany([form]);

/**
 * Several CIOMS I forms as one HTML document, each starting on a new page and taking exactly its
 * `pageCount` pages (the form page, then one page per continuation page).
 */
export function ciomsHtmlMany(forms: CiomsForm[]): string {
  const first = forms[0];
  if (!first) throw new Error('no CIOMS form to lay out');
  return template('cioms/cioms.hbs')({
    htmlLang: htmlLang(first.lang),
    title: forms.length === 1 ? `CIOMS I ${first.reportCode}` : 'CIOMS I',
    forms: forms.map(ciomsView),
  });
}

function ciomsView(form: CiomsForm): Record<string, unknown> {
  const pages = form.pageCount;
  const pageLabel = (page: number): string => reportText(form.lang, 'cioms.pageOf', { page, pages });
  return {
    ...form,
    htmlLang: htmlLang(form.lang),
    reportCodeLine: reportText(form.lang, 'cioms.reportCode', { code: form.reportCode }),
    sectionLabels: Object.fromEntries(form.sections.map((s) => [s.id, s.label])),
    pageLabels: [pageLabel(1)],
    continuation: form.continuation.map((page) => ({
      ...page,
      title: reportText(form.lang, 'cioms.continuationTitle', { page: page.number }),
      pageLabel: pageLabel(page.number),
    })),
  };
}

/** The case report as one HTML document (Chromium paginates it). */
export function caseReportHtml(report: CaseReport): string {
  return template('reports/case-report.hbs')({
    report,
    htmlLang: htmlLang(report.lang),
    codeLine: reportText(report.lang, 'cioms.reportCode', { code: report.reportCode }),
    columns: {
      field: reportText(report.lang, 'caseReport.field'),
      e2b: reportText(report.lang, 'caseReport.e2b'),
      value: reportText(report.lang, 'caseReport.value'),
      empty: reportText(report.lang, 'caseReport.empty'),
    },
  });
}
