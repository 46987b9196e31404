/** Calls of the report screens (server/src/reports: /api/reports). */
import type { CaseReport, ReportLanguage } from '@pv/engine';
import { api } from '../../app/api';
import type { DownloadedFile } from '../../api/request';
import type { DownloadTask } from '../workbench/downloads-api';

export type Blinding = 'blinded' | 'unblinded';
export const REPORT_PERMISSIONS = {
  preview: 'reportmanagment:exportCimos',
  ciomsExport: 'reportmanagment:exportCimos:export',
  view: 'reportmanagment:viewReport',
  viewExport: 'reportmanagment:viewReport:export',
} as const;

export interface CaseRow {
  id: string;
  values: Record<string, unknown>;
}

const caseUrl = (caseId: string, rest: string) => `/reports/cases/${encodeURIComponent(caseId)}/${rest}`;

export const reportsApi = {
  /** Cases of the caller's projects whose report code contains the text (the case list's search). */
  findCases: (reportCode: string, size = 20) =>
    api.request<{ total: number; items: CaseRow[] }>('/cases/search', {
      body: {
        tab: 'all',
        filters: reportCode.trim() ? { reportCode: reportCode.trim() } : {},
        page: 1,
        size,
      },
    }),
  caseReport: (caseId: string, lang: ReportLanguage, blinding: Blinding) =>
    api.request<CaseReport>(caseUrl(caseId, 'case-report'), { params: { lang, blinding } }),
  caseReportFile: (
    caseId: string,
    lang: ReportLanguage,
    blinding: Blinding,
    format: 'pdf' | 'docx',
  ): Promise<DownloadedFile> =>
    api.download(caseUrl(caseId, 'case-report/file'), { params: { lang, blinding, format } }),
  ciomsPreview: (caseId: string, lang: ReportLanguage, blinding: Blinding): Promise<DownloadedFile> =>
    api.download(caseUrl(caseId, 'cioms/preview'), { params: { lang, blinding } }),
  ciomsFile: (
    caseId: string,
    lang: ReportLanguage,
    blinding: Blinding,
    format: 'pdf' | 'docx',
  ): Promise<DownloadedFile> =>
    api.download(caseUrl(caseId, 'cioms'), { params: { lang, blinding, format } }),
  /**
   * Starts a download task zipping the CIOMS forms of the picked cases, or (no ids) of every case the
   * report-code filter finds in the caller's projects.
   */
  ciomsZip: (
    selection: { caseIds: string[] } | { reportCode: string },
    lang: ReportLanguage,
    blinding: Blinding,
    format: 'pdf' | 'docx',
  ) =>
    api.request<DownloadTask>('/reports/cioms/zip', {
      body: {
        lang,
        blinding,
        format,
        ...('caseIds' in selection
          ? { caseIds: selection.caseIds }
          : {
              query: {
                tab: 'all',
                filters: selection.reportCode ? { reportCode: selection.reportCode } : {},
              },
            }),
      },
    }),
};
