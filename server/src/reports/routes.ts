/** Routes of report outputs (`/api/reports`): each acts on a case, checked in the case's own project. */
import { REPORT_LANGUAGES } from '@pv/engine';
import type { ReportLanguage } from '@pv/engine';
import { callerOf, errors } from '../http';
import type { JsonSchema, ModuleRouter } from '../http';
import { CASE_OBJECT, caseListQuerySchema } from '../cases';
import type { CaseListQuery } from '../cases';
import { taskViewSchema } from '../downloads';
import type { ModuleDeps } from '../http';
import { REPORT_ZIP_MAX_CASES, startReportZip } from './zip';
import type { Blinding } from './service';
import { PERMISSIONS, caseOutput, caseReportView, fileNamePattern, saveFileNamePattern } from './service';
import type { ReportFormat, ReportKind } from './render';

const caseIdParams: JsonSchema = {
  type: 'object',
  required: ['caseId'],
  properties: { caseId: { type: 'string', minLength: 1, maxLength: 64 } },
};

const outputQuery = (formats: ReportFormat[] | null): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    lang: { enum: [...REPORT_LANGUAGES] },
    blinding: { enum: ['blinded', 'unblinded'] },
    versionId: { type: 'string', minLength: 1, maxLength: 64 },
    ...(formats ? { format: { enum: formats } } : {}),
  },
});

interface OutputQuery {
  lang?: ReportLanguage;
  blinding?: Blinding;
  versionId?: string;
  format?: ReportFormat;
}

function contentDisposition(fileName: string, disposition: 'attachment' | 'inline'): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function fileAnswer(
  output: { bytes: Uint8Array; contentType: string; fileName: string },
  disposition: 'attachment' | 'inline',
): Response {
  const headers: Record<string, string> = {
    'content-type': output.contentType,
    'content-disposition': contentDisposition(output.fileName, disposition),
    'content-length': String(output.bytes.length),
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  };
  // The preview is shown in a frame: it runs no script and loads nothing.
  if (output.contentType.startsWith('text/html'))
    headers['content-security-policy'] =
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'";
  return new Response(new Uint8Array(output.bytes), { headers });
}

interface ZipBody {
  format?: 'pdf' | 'docx';
  lang?: ReportLanguage;
  blinding?: Blinding;
  caseIds?: string[];
  query?: CaseListQuery;
}

const zipBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    format: { enum: ['pdf', 'docx'] },
    lang: { enum: [...REPORT_LANGUAGES] },
    blinding: { enum: ['blinded', 'unblinded'] },
    caseIds: {
      type: 'array',
      minItems: 1,
      maxItems: REPORT_ZIP_MAX_CASES,
      uniqueItems: true,
      items: { type: 'string', minLength: 1, maxLength: 64 },
    },
    // The case list's query (tab, filters, sort) when no ids are picked: every case it selects.
    query: caseListQuerySchema({ paged: false }),
  },
};

export function reportRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  const caseFile = (
    path: string,
    kind: ReportKind,
    permission: string,
    formats: ReportFormat[],
    summary: string,
  ): void =>
    router.route<unknown, OutputQuery, { caseId: string }>(
      {
        method: 'get',
        path,
        object: CASE_OBJECT,
        summary,
        permission,
        params: caseIdParams,
        query: outputQuery(formats.length > 1 ? formats : null),
        download: true,
      },
      async (c, { params, query, ctx }) => {
        const caller = callerOf(c);
        const format = query.format ?? (formats[0] as ReportFormat);
        if (!formats.includes(format)) throw errors.badRequest('common.badRequest');
        const output = await caseOutput(caller, {
          caseId: params.caseId,
          ...(query.versionId ? { versionId: query.versionId } : {}),
          lang: query.lang ?? ctx.lang,
          blinding: query.blinding ?? 'blinded',
          kind,
          format,
        });
        return fileAnswer(output, format === 'html' ? 'inline' : 'attachment');
      },
    );

  caseFile(
    '/cases/:caseId/cioms/preview',
    'cioms',
    PERMISSIONS.preview,
    ['html'],
    'CIOMS I preview of a case (or a history version) as the page that prints: zh, en or both; blinded unless `blinding=unblinded` (needs activecase:blindBottom in the case project)',
  );
  caseFile(
    '/cases/:caseId/cioms',
    'cioms',
    PERMISSIONS.ciomsExport,
    ['pdf', 'docx'],
    'CIOMS I form of a case (or a history version) as PDF (A4, Chromium) or Word; file name from the tenant pattern; blinded unless `blinding=unblinded` (needs activecase:blindBottom in the case project)',
  );
  caseFile(
    '/cases/:caseId/case-report/file',
    'case',
    PERMISSIONS.viewExport,
    ['pdf', 'docx'],
    "The case report (every tab's filled fields with labels and E2B ids) as PDF or Word; blinded unless `blinding=unblinded` (needs activecase:blindBottom in the case project)",
  );

  router.route<unknown, OutputQuery, { caseId: string }>(
    {
      method: 'get',
      path: '/cases/:caseId/case-report',
      object: CASE_OBJECT,
      summary:
        "The case report as data for the read-only view (/reportmanagment/viewReport): every tab's filled fields with label, E2B id and value",
      permission: PERMISSIONS.view,
      params: caseIdParams,
      query: outputQuery(null),
    },
    async (c, { params, query, ctx }) =>
      caseReportView(callerOf(c), {
        caseId: params.caseId,
        ...(query.versionId ? { versionId: query.versionId } : {}),
        lang: query.lang ?? ctx.lang,
        blinding: query.blinding ?? 'blinded',
      }),
  );

  router.route(
    {
      method: 'get',
      path: '/settings/file-name',
      summary:
        "The tenant's report file name pattern (placeholders {reportCode} {version} {lang} {date} {kind} {blinding})",
      permission: PERMISSIONS.settings,
    },
    async (c) => ({ pattern: await fileNamePattern(callerOf(c)) }),
  );

  router.route<{ pattern: string }>(
    {
      method: 'put',
      path: '/settings/file-name',
      summary:
        "Sets the tenant's report file name pattern; refused when a name it gives could be unsafe or the same for two reports",
      permission: PERMISSIONS.settings,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['pattern'],
        properties: { pattern: { type: 'string', minLength: 1, maxLength: 120 } },
      },
    },
    async (c, { body }) => saveFileNamePattern(callerOf(c), body.pattern),
  );

  const zipRoute = (report: ReportKind, path: string, permission: string, summary: string): void =>
    router.route<ZipBody>(
      { method: 'post', path, summary, permission, body: zipBody, response: taskViewSchema },
      async (c, { body, ctx }) =>
        startReportZip(callerOf(c), deps, {
          report,
          format: body.format ?? 'pdf',
          lang: body.lang ?? ctx.lang,
          blinding: body.blinding ?? 'blinded',
          ...(body.caseIds ? { caseIds: body.caseIds } : {}),
          ...(body.query ? { query: body.query } : {}),
        }),
    );
  zipRoute(
    'cioms',
    '/cioms/zip',
    PERMISSIONS.ciomsExport,
    'Starts a download task: the CIOMS I forms (PDF or Word) of the picked cases, or of every case the case-list query selects in the caller’s projects, as one zip; blinded unless `blinding=unblinded` (needs activecase:blindBottom in each case project)',
  );
  zipRoute(
    'case',
    '/case-report/zip',
    PERMISSIONS.viewExport,
    'Starts a download task: the case reports (PDF or Word) of the picked cases, or of every case the case-list query selects in the caller’s projects, as one zip; blinded unless `blinding=unblinded`',
  );
}
