/**
 * Many report files as one zip, built by a download task (server/src/downloads): the CIOMS I forms or
 * the case reports of the cases picked on /reportmanagment/exportCimos (explicit ids or the list's
 * filter), in one language mode, blinded or not, PDF or Word. The selection is resolved when the
 * task starts (the caller's projects holding the export permission); each case is read as the
 * requester (its own access and blind-break checks); CIOMS PDFs are printed ten forms per pass, two
 * passes at a time on the warm printer's two pages.
 * A case that cannot be printed any more (deleted, no longer visible) is named in a text entry of the
 * zip rather than silently missing.
 */
import { once } from 'node:events';
import { Zip, ZipPassThrough } from 'fflate';
import type { ReportLanguage } from '@pv/engine';
import type { CaseListQuery } from '../cases';
import { emptyScope, listScope, requireCasesAccess, resolveCaseSelection, scopeIds } from '../cases';
import { declareDownload, startDownload } from '../downloads';
import type { DownloadProduction, TaskView } from '../downloads';
import type { Caller, ModuleDeps } from '../http';
import { AppError, errors } from '../http';
import type { ReportKind } from './render';
import type { Blinding } from './service';
import { PERMISSIONS, caseOutputs } from './service';

/** Most cases in one zip: a larger export is split by the list's filters. */
export const REPORT_ZIP_MAX_CASES = 1000;
/** Forms printed in one pass (CIOMS PDF: the fonts converted once for them all). */
const BATCH = 10;
/** Batches printed at once (the printer keeps two warm pages). */
const PARALLEL = 2;

export interface ReportZipPayload {
  report: ReportKind;
  format: 'pdf' | 'docx';
  reportLang: ReportLanguage;
  blinding: Blinding;
  /** Resolved when the task started, in list order. */
  caseIds: string[];
}

export const ZIP_KINDS: Record<ReportKind, string> = { cioms: 'ciomsZip', case: 'caseReportZip' };
const PERMISSION: Record<ReportKind, string> = {
  cioms: PERMISSIONS.ciomsExport,
  case: PERMISSIONS.viewExport,
};

/** A name not yet in the zip: `x.pdf`, then `x (2).pdf` ... */
function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  for (let n = 2; used.has(candidate); n++)
    candidate = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
  used.add(candidate);
  return candidate;
}

async function writeZip({
  payload,
  out,
  progress,
  signal,
  caller,
  deps,
}: DownloadProduction<ReportZipPayload>): Promise<{ rows: number }> {
  const zip = new Zip((error, chunk, final) => {
    if (error) out.destroy(error);
    else {
      out.write(chunk);
      if (final) out.end();
    }
  });
  const used = new Set<string>();
  const skipped: string[] = [];
  let rows = 0;
  const ids = payload.caseIds;
  // Batches of forms printed in one pass each, two batches at a time (the printer's two warm pages).
  for (let start = 0; start < ids.length; start += BATCH * PARALLEL) {
    if (signal.aborted) throw new Error('the download task was stopped');
    const step = ids.slice(start, start + BATCH * PARALLEL);
    const batches: string[][] = [];
    for (let i = 0; i < step.length; i += BATCH) batches.push(step.slice(i, i + BATCH));
    const request = {
      kind: payload.report,
      format: payload.format,
      lang: payload.reportLang,
      blinding: payload.blinding,
    };
    const outputs = (await Promise.all(batches.map((batch) => caseOutputs(caller, batch, request)))).flat();
    outputs.forEach((output, i) => {
      if (output instanceof AppError) {
        // Deleted or out of reach since the task started: named in the zip, the rest still printed.
        if (output.httpStatus !== 404 && output.httpStatus !== 403) throw output;
        skipped.push(`${step[i]}\t${deps.translator.t(payload.lang, output.messageKey, output.params)}`);
        return;
      }
      // PDF and docx are compressed already: stored as they are.
      const entry = new ZipPassThrough(uniqueName(output.fileName, used));
      entry.mtime = deps.clock.now();
      zip.add(entry);
      entry.push(output.bytes, true);
      rows += 1;
    });
    if (out.writableNeedDrain) await once(out, 'drain');
    await progress(
      ((start + step.length) / Math.max(ids.length, 1)) * 99,
      `${start + step.length}/${ids.length}`,
    );
  }
  if (skipped.length) {
    const entry = new ZipPassThrough(
      uniqueName(`${deps.translator.t(payload.lang, 'reports.zip.skippedFile')}.txt`, used),
    );
    entry.mtime = deps.clock.now();
    zip.add(entry);
    entry.push(new TextEncoder().encode(`${skipped.join('\r\n')}\r\n`), true);
  }
  zip.end();
  return { rows };
}

const declaration = (report: ReportKind) =>
  declareDownload<ReportZipPayload>({
    kind: ZIP_KINDS[report],
    extension: 'zip',
    mediaType: 'application/zip',
    labelKey: `reports.zip.kind.${report}`,
    fileNameKey: `reports.zip.fileName.${report}`,
    permission: PERMISSION[report],
    maxBytes: 2 * 1024 * 1024 * 1024,
    produce: writeZip,
  });

/** The jobs of the two zip kinds, for the reports module's `jobs`. */
export const reportZipJobs = [declaration('cioms'), declaration('case')];

export interface ReportZipRequest {
  report: ReportKind;
  format: 'pdf' | 'docx';
  lang: ReportLanguage;
  blinding: Blinding;
  caseIds?: string[];
  query?: CaseListQuery;
}

/**
 * Starts a zip task over the selection, resolved now in the projects where the caller holds the
 * export permission (and, unblinded, the blind-break permission for each picked case).
 */
export async function startReportZip(
  caller: Caller,
  deps: ModuleDeps,
  request: ReportZipRequest,
): Promise<TaskView> {
  const permission = PERMISSION[request.report];
  const scope = await listScope(caller, permission);
  if (request.caseIds?.length) await requireCasesAccess(caller, request.caseIds, permission);
  else if (emptyScope(scope)) throw errors.badRequest('reports.zip.nothingSelected');
  const caseIds = await resolveCaseSelection(
    caller.tenant,
    {
      ...(request.caseIds?.length ? { caseIds: request.caseIds } : {}),
      ...(request.query ? { query: request.query } : {}),
    },
    scopeIds(scope),
    'reports.zip.nothingSelected',
  );
  if (caseIds.length > REPORT_ZIP_MAX_CASES)
    throw errors.badRequest('reports.zip.tooMany', { count: caseIds.length, limit: REPORT_ZIP_MAX_CASES });
  if (request.blinding === 'unblinded') await requireCasesAccess(caller, caseIds, PERMISSIONS.unblinded);
  const payload: ReportZipPayload = {
    report: request.report,
    format: request.format,
    reportLang: request.lang,
    blinding: request.blinding,
    caseIds,
  };
  return startDownload(caller, deps, ZIP_KINDS[request.report], payload);
}
