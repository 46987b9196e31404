/**
 * One entry for every report output: a case document in, the bytes of a CIOMS I form or a case report out,
 * as PDF (Chromium), Word (docx) or HTML (the on-screen preview), blinded or not, in zh, en or both.
 */
import { blindCase, buildCaseReport, buildCiomsForm } from '@pv/engine';
import type { ReportLanguage } from '@pv/engine';
import { caseReportDocx, ciomsDocx } from './docx';
import { caseReportHtml, ciomsHtml, ciomsHtmlMany } from './html';
import { printPdf, printPdfParts } from './printer';

export type ReportKind = 'cioms' | 'case';
export type ReportFormat = 'pdf' | 'docx' | 'html';
export const REPORT_KINDS: readonly ReportKind[] = ['cioms', 'case'];
export const REPORT_FORMATS: readonly ReportFormat[] = ['pdf', 'docx', 'html'];

export interface ReportRequest {
  kind: ReportKind;
  format: ReportFormat;
  lang: ReportLanguage;
  blinded: boolean;
}

export interface RenderedReport {
  bytes: Uint8Array;
  contentType: string;
  extension: string;
}

export const CONTENT_TYPES: Record<ReportFormat, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html; charset=utf-8',
};

export async function renderReport(
  document: Record<string, unknown>,
  request: ReportRequest,
): Promise<RenderedReport> {
  const source = request.blinded ? blindCase(document) : document;
  const options = { lang: request.lang, blinded: request.blinded };
  let bytes: Uint8Array;
  if (request.kind === 'cioms') {
    const form = buildCiomsForm(source, options);
    if (request.format === 'docx') bytes = await ciomsDocx(form);
    else {
      const html = ciomsHtml(form);
      bytes = request.format === 'pdf' ? await printPdf(html) : new TextEncoder().encode(html);
    }
  } else {
    const report = buildCaseReport(source, options);
    if (request.format === 'docx') bytes = await caseReportDocx(report);
    else {
      const html = caseReportHtml(report);
      bytes = request.format === 'pdf' ? await printPdf(html) : new TextEncoder().encode(html);
    }
  }
  return { bytes, contentType: CONTENT_TYPES[request.format], extension: request.format };
}

/**
 * Several case documents with one request (a zip): CIOMS PDFs are printed in one pass and split per
 * form (the fonts converted once, not once per form); other outputs one by one.
 */
export async function renderReports(
  documents: Record<string, unknown>[],
  request: ReportRequest,
): Promise<RenderedReport[]> {
  const one = async (): Promise<RenderedReport[]> => {
    const out: RenderedReport[] = [];
    for (const document of documents) out.push(await renderReport(document, request));
    return out;
  };
  if (request.kind !== 'cioms' || request.format !== 'pdf' || documents.length < 2) return one();
  const options = { lang: request.lang, blinded: request.blinded };
  const forms = documents.map((document) =>
    buildCiomsForm(request.blinded ? blindCase(document) : document, options),
  );
  const parts = await printPdfParts(
    ciomsHtmlMany(forms),
    forms.map((form) => ({ pages: form.pageCount, title: `CIOMS I ${form.reportCode}` })),
  );
  if (!parts) return one();
  return parts.map((bytes) => ({ bytes, contentType: CONTENT_TYPES.pdf, extension: 'pdf' }));
}
