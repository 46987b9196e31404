/**
 * Report outputs of one case for a caller: the document of the case (current, or a history version),
 * blinded unless the caller may see the treatment assignment in the case's own project, and the file
 * name from the tenant's pattern.
 */
import { DEFAULT_FILE_NAME_PATTERN, buildCaseReport, checkFileNamePattern, fileNameOf } from '@pv/engine';
import type { CaseReport, ReportLanguage } from '@pv/engine';
import type { Caller } from '../http';
import { AppError, errors } from '../http';
import { caseCollectionNames, caseContent, loadCase, projectIdOf, requireCaseAccess } from '../cases';
import { UNBLINDED_VIEW, caseForOutput } from '../unblinding';
import type { Blinding } from '../unblinding';
import type { ReportFormat, ReportKind, RenderedReport } from './render';
import { renderReport, renderReports } from './render';

export const REPORT_SETTINGS = 'reportSettings';

/** The tenant's report settings (one document, `_id: 'fileName'`). */
export interface FileNameSetting {
  _id: string;
  pattern: string;
  updatedBy: string;
  updatedAt: string;
}

export const PERMISSIONS = {
  preview: 'reportmanagment:exportCimos',
  ciomsExport: 'reportmanagment:exportCimos:export',
  view: 'reportmanagment:viewReport',
  viewExport: 'reportmanagment:viewReport:export',
  /** Unblinded outputs: the unblinding module's rule (the case header's blind-break permission, in the case's project). */
  unblinded: UNBLINDED_VIEW,
  settings: 'authoritymanagement:sysTenantConfig',
} as const;

export type { Blinding };

export interface CaseReportRequest {
  caseId: string;
  /** A history version's id, or absent for the current case. */
  versionId?: string;
  lang: ReportLanguage;
  blinding: Blinding;
}

async function caseDocument(
  caller: Caller,
  request: CaseReportRequest,
): Promise<{ document: Record<string, unknown>; version: number }> {
  await requireCaseAccess(caller, request.caseId);
  const stored = await loadCase(caller.tenant, request.caseId);
  let document = caseContent(stored) as unknown as Record<string, unknown>;
  if (request.versionId) {
    const snapshot = await caller.tenant
      .collection<{ _id: string; caseId: string; document: Record<string, unknown> }>(
        caseCollectionNames.versions,
      )
      .findOne({ _id: request.versionId, caseId: request.caseId });
    if (!snapshot) throw errors.notFound('reports.versionNotFound', { id: request.versionId });
    document = snapshot.document;
  }
  const state = document['state'] as { version?: unknown } | undefined;
  const version = typeof state?.version === 'number' ? state.version : 1;
  // Blinded, or unblinded (refused without the permission) with what the caller may see revealed.
  const output = await caseForOutput(
    caller,
    request.caseId,
    document,
    projectIdOf(document),
    request.blinding,
  );
  return { document: output.document, version };
}

export async function fileNamePattern(caller: Caller): Promise<string> {
  const setting = await caller.tenant
    .collection<FileNameSetting>(REPORT_SETTINGS)
    .findOne({ _id: 'fileName' });
  return setting?.pattern ?? DEFAULT_FILE_NAME_PATTERN;
}

export async function saveFileNamePattern(caller: Caller, pattern: string): Promise<{ pattern: string }> {
  const problem = checkFileNamePattern(pattern);
  if (problem) throw errors.badRequest(problem.key, problem.params);
  const settings = caller.tenant.collection<FileNameSetting>(REPORT_SETTINGS);
  const record = { pattern, updatedBy: caller.userId, updatedAt: caller.clock.now().toISOString() };
  if (await settings.findOne({ _id: 'fileName' }))
    await settings.updateOne({ _id: 'fileName' }, { $set: record });
  else await settings.insertOne({ _id: 'fileName', ...record });
  return { pattern };
}

/** The file name of a report of a case, from the tenant's pattern. */
export function reportFileName(
  pattern: string,
  values: {
    kind: ReportKind;
    reportCode: string;
    version: number;
    lang: ReportLanguage;
    blinding: Blinding;
    date: string;
  },
  extension: string,
): string {
  const name = fileNameOf(pattern, {
    reportCode: values.reportCode || 'case',
    version: String(values.version),
    lang: values.lang,
    date: values.date,
    kind: values.kind === 'cioms' ? 'CIOMS' : 'case-report',
    blinding: values.blinding,
  });
  if (!name) throw errors.badRequest('reports.fileName.unsafe', { pattern });
  return `${name}.${extension}`;
}

export async function caseOutput(
  caller: Caller,
  request: CaseReportRequest & { kind: ReportKind; format: ReportFormat },
): Promise<RenderedReport & { fileName: string }> {
  const { document, version } = await caseDocument(caller, request);
  const rendered = await renderReport(document, {
    kind: request.kind,
    format: request.format,
    lang: request.lang,
    blinded: request.blinding === 'blinded',
  });
  const reportCode = String((document['report'] as { reportCode?: unknown } | undefined)?.reportCode ?? '');
  const date = caller.clock.now().toISOString().slice(0, 10).replace(/-/g, '');
  const fileName = reportFileName(
    await fileNamePattern(caller),
    { kind: request.kind, reportCode, version, lang: request.lang, blinding: request.blinding, date },
    rendered.extension,
  );
  return { ...rendered, fileName };
}

/**
 * The outputs of several cases with one request (a zip), in order: each case read and checked as
 * `caseOutput` does (a refusal or a missing case answers its AppError in that case's place), the
 * files rendered together (CIOMS PDFs in one print pass).
 */
export async function caseOutputs(
  caller: Caller,
  caseIds: string[],
  request: Omit<CaseReportRequest, 'caseId' | 'versionId'> & { kind: ReportKind; format: ReportFormat },
): Promise<((RenderedReport & { fileName: string }) | AppError)[]> {
  const loaded = await Promise.all(
    caseIds.map((caseId) =>
      caseDocument(caller, { ...request, caseId }).catch((error: unknown) => {
        if (error instanceof AppError) return error;
        throw error;
      }),
    ),
  );
  const found = loaded.filter(
    (entry): entry is { document: Record<string, unknown>; version: number } => !(entry instanceof AppError),
  );
  const rendered = await renderReports(
    found.map((entry) => entry.document),
    {
      kind: request.kind,
      format: request.format,
      lang: request.lang,
      blinded: request.blinding === 'blinded',
    },
  );
  const pattern = await fileNamePattern(caller);
  const date = caller.clock.now().toISOString().slice(0, 10).replace(/-/g, '');
  let next = 0;
  return loaded.map((entry) => {
    if (entry instanceof AppError) return entry;
    const output = rendered[next++]!;
    const reportCode = String(
      (entry.document['report'] as { reportCode?: unknown } | undefined)?.reportCode ?? '',
    );
    const fileName = reportFileName(
      pattern,
      {
        kind: request.kind,
        reportCode,
        version: entry.version,
        lang: request.lang,
        blinding: request.blinding,
        date,
      },
      output.extension,
    );
    return { ...output, fileName };
  });
}

/** The case report as data, for the on-screen read-only view (/reportmanagment/viewReport). */
export async function caseReportView(caller: Caller, request: CaseReportRequest): Promise<CaseReport> {
  const { document } = await caseDocument(caller, request);
  return buildCaseReport(document, { lang: request.lang, blinded: request.blinding === 'blinded' });
}
