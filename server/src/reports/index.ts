/**
 * Report outputs (issue 20): CIOMS I forms and case reports of a case, as PDF (Chromium), Word (docx)
 * or HTML, in zh, en or both, blinded or unblinded.
 */
export { renderReport, REPORT_KINDS, REPORT_FORMATS, CONTENT_TYPES } from './render';
export type { ReportKind, ReportFormat, ReportRequest, RenderedReport } from './render';
export { closePrinter, printPdf } from './printer';
export { ciomsHtml, caseReportHtml, templateHtml } from './html';
export { PERMISSIONS as REPORT_PERMISSIONS } from './service';

import { defineModule } from '../http';
import type { CollectionDefinition } from '../store';
import { reportRoutes } from './routes';
import { REPORT_SETTINGS } from './service';

const reportCollections: CollectionDefinition[] = [{ name: REPORT_SETTINGS, scope: 'tenant', audited: true }];

export const reportsModule = defineModule({
  name: 'reports',
  dependsOn: ['cases'],
  collections: reportCollections,
  routes: reportRoutes,
});
