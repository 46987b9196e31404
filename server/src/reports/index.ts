/**
 * Report outputs (issue 20): CIOMS I forms and case reports of a case, as PDF (Chromium), Word (docx)
 * or HTML, in zh, en or both, blinded or unblinded.
 */
export { renderReport, renderReports, REPORT_KINDS, REPORT_FORMATS, CONTENT_TYPES } from './render';
export type { ReportKind, ReportFormat, ReportRequest, RenderedReport } from './render';
export { closePrinter, printPdf } from './printer';
export { ciomsHtml, ciomsHtmlMany, caseReportHtml, templateHtml } from './html';
export { PERMISSIONS as REPORT_PERMISSIONS } from './service';
export { REPORT_ZIP_MAX_CASES, ZIP_KINDS } from './zip';

import { defineModule } from '../http';
import type { CollectionDefinition } from '../store';
import { reportRoutes } from './routes';
import { REPORT_SETTINGS } from './service';
import { reportZipJobs } from './zip';

const reportCollections: CollectionDefinition[] = [{ name: REPORT_SETTINGS, scope: 'tenant', audited: true }];

export const reportsModule = defineModule({
  name: 'reports',
  // Zips of many forms are download tasks: reports declares its kinds there (downloads imports nothing of reports).
  dependsOn: ['cases', 'downloads', 'unblinding'],
  collections: reportCollections,
  routes: reportRoutes,
  jobs: reportZipJobs,
});
