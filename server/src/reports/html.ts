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
export function ciomsHtml(form: CiomsForm): string {
  const pages = form.pageCount;
  const pageLabel = (page: number): string => reportText(form.lang, 'cioms.pageOf', { page, pages });
  const view = {
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
  return template('cioms/cioms.hbs')({ form: view });
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
