/**
 * What the import screens do with a parsed record: the comparison of a report with the existing
 * case, saving the pre-processing, the data check, generating a new report or a follow-up version
 * through the case module, and rejecting the import.
 */
import type { Caller } from '../http';
import type { ActionEffectFn, DuplicateCandidate } from '../cases';
import {
  callerProjects,
  caseCollectionNames,
  caseContent,
  createCase,
  findDuplicates,
  followUpEffect,
  requireProjectMember,
  runCaseAction,
} from '../cases';
import type { Principal } from '../http';
import { AppError, errors } from '../http';
import { Code } from '../http';
import type { StoredDoc, TenantHandle } from '../store';
import { identitySigner } from '../workflow';
import type { Signer } from '../workflow';
import { checkImportedDocument } from './check';
import type { DataCheck } from './check';
import type { FieldChoice, ImportRecord, ImportReport } from './collections';
import { IMPORT_RECORDS, IMPORT_REPORTS } from './collections';
import { compareRows, resolveDocument } from './compare';

type Doc = Record<string, unknown>;
type CaseDocument = Parameters<ActionEffectFn>[0]['doc'];

export interface ExistingCase {
  caseId: string;
  rev: number;
  reportCode: string;
  /**
   * Which identifier matched: C.1.1 (also as a previous transmission's id, C.1.9.1.r.2) or C.1.8.1;
   * `chosen`: the user picked this case among the duplicate candidates.
   */
  matchedBy: 'C.1.1' | 'C.1.8.1' | 'chosen';
  document: CaseDocument;
}

/** The display name the identity module gives the caller, else the user id. */
export const nameOf = (principal: Principal): string =>
  typeof principal.name === 'string' && principal.name ? principal.name : principal.userId;

const records = (handle: TenantHandle) => handle.collection<ImportRecord>(IMPORT_RECORDS);
const reports = (handle: TenantHandle) => handle.collection<ImportReport>(IMPORT_REPORTS);

export async function loadRecord(handle: TenantHandle, recordId: string): Promise<StoredDoc<ImportRecord>> {
  const record = await records(handle).findOne({ _id: recordId });
  if (!record) throw errors.notFound('imports.recordNotFound', { id: recordId });
  return record;
}

/** A record of a project the caller works in (403 otherwise). */
export async function memberRecord(caller: Caller, recordId: string): Promise<StoredDoc<ImportRecord>> {
  const record = await loadRecord(caller.tenant, recordId);
  await requireProjectMember(caller, record.projectId);
  return record;
}

export async function loadReport(
  handle: TenantHandle,
  recordId: string,
  index: number,
): Promise<StoredDoc<ImportReport>> {
  const report = await reports(handle).findOne({ recordId, index });
  if (!report) throw errors.notFound('imports.reportNotFound', { index: index + 1 });
  return report;
}

/**
 * The case (not deleted) with the report's C.1.1 or C.1.8.1, most recently changed first, among the
 * projects the caller works in (null: every project) - the comparison shows its values.
 */
export async function findExistingCase(
  handle: TenantHandle,
  report: Pick<ImportReport, 'senderReportId' | 'worldwideId'>,
  projects: string[] | null,
): Promise<ExistingCase | null> {
  const cases = handle.collection<CaseDocument>(caseCollectionNames.cases);
  const live: Doc = { 'state.validity': { $ne: 'deleted' } };
  if (projects !== null) live['report.studyProjectId'] = { $in: projects };
  const attempts: [ExistingCase['matchedBy'], Doc][] = [];
  if (report.senderReportId) {
    attempts.push(['C.1.1', { 'report.reportCode': report.senderReportId }]);
    attempts.push(['C.1.1', { 'report.otherCaseIdentifiers.identifier': report.senderReportId }]);
  }
  if (report.worldwideId) attempts.push(['C.1.8.1', { 'report.reportAllCode': report.worldwideId }]);
  for (const [matchedBy, filter] of attempts) {
    const found = await cases.findOne({ ...filter, ...live }, { sort: { updatedAt: -1 } });
    if (found) {
      const document = caseContent(found);
      return {
        caseId: found._id,
        rev: found.rev,
        reportCode: String((document.report as Doc | undefined)?.reportCode ?? ''),
        matchedBy,
        document,
      };
    }
  }
  return null;
}

/** A case the user chose to compare with (a duplicate candidate), among the projects they work in. */
async function chosenCase(
  handle: TenantHandle,
  caseId: string,
  projects: string[] | null,
): Promise<ExistingCase> {
  const cases = handle.collection<CaseDocument>(caseCollectionNames.cases);
  const found = await cases.findOne({ _id: caseId, 'state.validity': { $ne: 'deleted' } });
  const projectId = found
    ? ((caseContent(found).report as Doc | undefined)?.studyProjectId as string | undefined)
    : undefined;
  if (!found || (projects !== null && !projects.includes(projectId ?? '')))
    throw errors.badRequest('imports.duplicate.unknownCase', { id: caseId });
  const document = caseContent(found);
  return {
    caseId: found._id,
    rev: found.rev,
    reportCode: String((document.report as Doc | undefined)?.reportCode ?? ''),
    matchedBy: 'chosen',
    document,
  };
}

/** The case the report is compared with: the one chosen, else the one with its sender identifier. */
async function targetOf(
  caller: Caller,
  report: ImportReport,
  caseId?: string | null,
): Promise<ExistingCase | null> {
  const projects = await callerProjects(caller);
  const chosen = caseId ?? report.targetCaseId ?? null;
  if (chosen) return chosenCase(caller.tenant, chosen, projects);
  return findExistingCase(caller.tenant, report, projects);
}

/**
 * The tenant's cases that may be this report (the cases module's probabilistic match, an exact
 * sender identifier first), among the projects the caller works in.
 */
export async function duplicateCandidates(
  caller: Caller,
  report: ImportReport,
): Promise<DuplicateCandidate[]> {
  const candidates = await findDuplicates(caller.tenant, report.document);
  const projects = await callerProjects(caller);
  if (projects === null || candidates.length === 0) return candidates;
  const found = await caller.tenant
    .collection<CaseDocument>(caseCollectionNames.cases)
    .find({ _id: { $in: candidates.map((c) => c.caseId) } }, { projection: { report: 1 } });
  const visible = new Set(
    found
      .filter((doc) => projects.includes(String((doc.report as Doc | undefined)?.studyProjectId ?? '')))
      .map((doc) => doc._id),
  );
  return candidates.filter((candidate) => visible.has(candidate.caseId));
}

/** The comparison screen's data for one report of a record (against `caseId` when the user picks one). */
export async function comparison(caller: Caller, recordId: string, index: number, caseId?: string) {
  const handle = caller.tenant;
  const record = await memberRecord(caller, recordId);
  if (record.parseStatus !== 'completed')
    throw errors.badRequest('imports.notParsed', { fileName: record.fileName });
  const report = await loadReport(handle, recordId, index);
  const existing = await targetOf(caller, report, caseId);
  return {
    record: recordView(record),
    report: reportView(report),
    existing: existing
      ? { caseId: existing.caseId, reportCode: existing.reportCode, matchedBy: existing.matchedBy }
      : null,
    duplicates: await duplicateCandidates(caller, report),
    rows: compareRows(report.document, existing?.document ?? null, report.choices),
  };
}

function requireOpen(record: ImportRecord, report?: ImportReport): void {
  if (record.parseStatus !== 'completed')
    throw errors.badRequest('imports.notParsed', { fileName: record.fileName });
  if (record.rejected) throw errors.badRequest('imports.alreadyRejected', { fileName: record.fileName });
  if (report && report.status !== 'pending')
    throw errors.badRequest('imports.reportClosed', { index: report.index + 1 });
}

/** Saves the pre-processing (the chosen value per field); the record moves to "processing". */
export async function savePreprocessing(
  caller: Caller,
  recordId: string,
  index: number,
  choices: Record<string, FieldChoice>,
  caseId?: string | null,
) {
  const handle = caller.tenant;
  const principal = caller.principal;
  const now = caller.clock.now().toISOString();
  const record = await memberRecord(caller, recordId);
  const report = await loadReport(handle, recordId, index);
  requireOpen(record, report);
  // The compared case is part of the pre-processing: a chosen candidate must be one the caller sees.
  if (caseId) await chosenCase(handle, caseId, await callerProjects(caller));
  await handle.transaction(async (tx) => {
    await tx.collection<ImportReport>(IMPORT_REPORTS).updateOne(
      { _id: report._id, status: 'pending' },
      {
        $set: { choices, savedAt: now, ...(caseId !== undefined ? { targetCaseId: caseId } : {}) },
      },
    );
    await tx.collection<ImportRecord>(IMPORT_RECORDS).updateOne(
      { _id: recordId },
      {
        $set: {
          processingStatus: 'processing',
          caseProcessorId: principal.userId,
          caseProcessorName: nameOf(principal),
        },
      },
    );
  });
  return comparison(caller, recordId, index);
}

/** The document the report would become with the given (or saved) choices. */
async function resolved(caller: Caller, report: ImportReport, choices?: Record<string, FieldChoice>) {
  const existing = await targetOf(caller, report);
  const document = resolveDocument(report.document, existing?.document ?? null, choices ?? report.choices);
  return { existing, document };
}

/** The data check of a report as pre-processed (the saved choices, or unsaved ones given). */
export async function dataCheck(
  caller: Caller,
  recordId: string,
  index: number,
  choices?: Record<string, FieldChoice>,
): Promise<DataCheck> {
  const handle = caller.tenant;
  const record = await memberRecord(caller, recordId);
  const report = await loadReport(handle, recordId, index);
  const { document } = await resolved(caller, report, choices);
  return checkImportedDocument(caller.deps, handle, record, document);
}

function blocked(check: DataCheck): AppError {
  return new AppError(Code.badRequest, 'imports.check.blocked', { count: check.blockingCount }, 400, {
    data: check,
  });
}

/** C.1.1 of the sender becomes a previous transmission's identifier (C.1.9.1.r): the case gets our code. */
function keepSenderIdentifier(document: Doc, report: ImportReport): void {
  if (!report.senderReportId) return;
  const section = { ...((document.report ?? {}) as Doc) };
  const others = Array.isArray(section.otherCaseIdentifiers)
    ? [...(section.otherCaseIdentifiers as Doc[])]
    : [];
  if (!others.some((other) => other.identifier === report.senderReportId)) {
    const sender = (document.sender ?? {}) as Doc;
    others.push({
      source: String(sender.senderOrganisation ?? report.entry).slice(0, 100),
      identifier: report.senderReportId,
    });
  }
  section.otherCaseIdentifiers = others;
  section.hasOtherCaseIdentifiers = true;
  document.report = section;
}

/** E.i.9 of the first reaction, else C.2.r.3 of the primary source, else the report's own. */
function eventCountry(document: Doc): string | undefined {
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const report = (document.report ?? {}) as Doc;
  const reactions = (Array.isArray(document.reactions) ? document.reactions : []) as Doc[];
  const reporters = (Array.isArray(document.reporters) ? document.reporters : []) as Doc[];
  const primary =
    reporters.find((r) => r.isPrimarySource === true || r.isPrimarySource === '1') ?? reporters[0];
  return (
    text(report.happenCountry) ??
    reactions.map((r) => text(r.reactionCountry)).find(Boolean) ??
    text(primary?.reporterCountry)
  );
}

export interface GenerateInput {
  mode: 'new' | 'followUp';
  /** Follow-up reason (the case module requires one). */
  reason?: string;
}

/**
 * Generates the case: a new report (new report code, C.1.1 kept as a previous identifier) or a
 * follow-up version of the existing case (the case module's follow-up action: history line,
 * version + 1, back to the first node), after a passing data check. The report is claimed first
 * so a second click cannot generate twice.
 */
export async function generate(
  caller: Caller,
  recordId: string,
  index: number,
  input: GenerateInput,
  signer: Signer = identitySigner,
) {
  const handle = caller.tenant;
  const principal = caller.principal;
  const deps = caller.deps;
  const record = await memberRecord(caller, recordId);
  const report = await loadReport(handle, recordId, index);
  requireOpen(record, report);
  const { existing, document } = await resolved(caller, report);
  const check = await checkImportedDocument(deps, handle, record, document);
  if (!check.passed) throw blocked(check);
  if (input.mode === 'followUp' && !existing) throw errors.badRequest('imports.noExistingCase');

  const claimed = await reports(handle).updateOne(
    { _id: report._id, status: 'pending' },
    { $set: { status: 'generating' } },
  );
  if (!claimed) throw errors.conflict('imports.reportBusy', { index: index + 1 });
  let caseId: string;
  let reportCode: string;
  try {
    if (input.mode === 'new') {
      keepSenderIdentifier(document, report);
      const section = (document.report ?? {}) as Doc;
      delete section.creationDate;
      const created = await createCase(caller, {
        projectId: record.projectId,
        reportType: typeof section.reportType === 'string' ? section.reportType : undefined,
        happenCountry: eventCountry(document),
        document,
      });
      caseId = created.case.id;
      reportCode = String((created.case.document.report as Doc | undefined)?.reportCode ?? '');
    } else {
      const target = existing!;
      const section = (document.report ?? {}) as Doc;
      const latest = String(section.reportDateLast ?? record.receiptDate).slice(0, 8);
      const followUp = followUpEffect({
        reason: input.reason,
        latestInformationDate: latest,
        ...(record.pvInformedDate ? { pvInformedDate: record.pvInformedDate } : {}),
      });
      const effect: ActionEffectFn = async (ctx, tx) => {
        const base = await followUp(ctx, tx);
        const before = (ctx.doc.report ?? {}) as Doc;
        const next = { ...structuredClone(document), state: base.doc!.state } as CaseDocument;
        // The case keeps its own code, project and creation date; C.1.5 is the follow-up's.
        next.report = {
          ...section,
          reportCode: before.reportCode,
          ...(before.studyProjectId ? { studyProjectId: before.studyProjectId } : {}),
          ...(before.hospitalId ? { hospitalId: before.hospitalId } : {}),
          ...(before.creationDate ? { creationDate: before.creationDate } : {}),
          reportDateLast: latest,
        };
        keepSenderIdentifier(next, report);
        return {
          doc: next,
          details: {
            ...base.details,
            importRecordId: recordId,
            importFile: record.fileName,
            entry: report.entry,
          },
        };
      };
      const outcome = await runCaseAction(
        caller,
        signer,
        target.caseId,
        'followUp',
        { opinion: input.reason },
        effect,
      );
      caseId = outcome.case.id;
      reportCode = target.reportCode;
    }
  } catch (error) {
    await reports(handle).updateOne({ _id: report._id }, { $set: { status: 'pending' } });
    throw error;
  }
  const now = deps.clock.now().toISOString();
  await handle.transaction(async (tx) => {
    await tx
      .collection<ImportReport>(IMPORT_REPORTS)
      .updateOne({ _id: report._id }, { $set: { status: 'generated', caseId, outcome: input.mode } });
    await settleRecord(tx as TenantHandle, recordId, now, {
      caseProcessorId: principal.userId,
      caseProcessorName: nameOf(principal),
    });
  });
  return { caseId, reportCode, outcome: input.mode, check };
}

/** Processing completed once no report of the file is left pending; processing otherwise. */
async function settleRecord(handle: TenantHandle, recordId: string, now: string, extra: Doc = {}) {
  const open = await reports(handle).count({ recordId, status: { $in: ['pending', 'generating'] } });
  await records(handle).updateOne(
    { _id: recordId },
    {
      $set: {
        ...extra,
        processingStatus: open === 0 ? 'processed' : 'processing',
        finished: open === 0,
        ...(open === 0 ? { completedAt: now } : {}),
      },
    },
  );
}

/**
 * Rejects one report of the file, for good: as a duplicate of an existing case (the case named,
 * one the caller sees) or for a reason. The record is processed once no report is left pending.
 */
export async function rejectReport(
  caller: Caller,
  recordId: string,
  index: number,
  input: { duplicateOf?: string; reason?: string },
) {
  const handle = caller.tenant;
  const record = await memberRecord(caller, recordId);
  const report = await loadReport(handle, recordId, index);
  requireOpen(record, report);
  if (input.duplicateOf) await chosenCase(handle, input.duplicateOf, await callerProjects(caller));
  const now = caller.clock.now().toISOString();
  await handle.transaction(async (tx) => {
    const updated = await tx.collection<ImportReport>(IMPORT_REPORTS).updateOne(
      { _id: report._id, status: 'pending' },
      {
        $set: {
          status: 'rejected',
          duplicateOf: input.duplicateOf ?? null,
          ...(input.reason ? { rejectReason: input.reason } : {}),
        },
      },
    );
    if (!updated) throw errors.badRequest('imports.reportClosed', { index: index + 1 });
    await settleRecord(tx as TenantHandle, recordId, now, {
      caseProcessorId: caller.principal.userId,
      caseProcessorName: nameOf(caller.principal),
    });
  });
  return reportView(await loadReport(handle, recordId, index));
}

/** Rejects the import: every report still pending is closed, for good (generated ones stay). */
export async function reject(caller: Caller, recordId: string, reason: string) {
  const handle = caller.tenant;
  const principal = caller.principal;
  const now = caller.clock.now().toISOString();
  const record = await memberRecord(caller, recordId);
  if (record.rejected) throw errors.badRequest('imports.alreadyRejected', { fileName: record.fileName });
  if (record.parseStatus === 'toBeParsed' || record.parseStatus === 'parsing')
    throw errors.badRequest('imports.notParsed', { fileName: record.fileName });
  if (record.finished) throw errors.badRequest('imports.alreadyFinished', { fileName: record.fileName });
  await handle.transaction(async (tx) => {
    await tx
      .collection<ImportReport>(IMPORT_REPORTS)
      .updateMany({ recordId, status: 'pending' }, { $set: { status: 'rejected' } });
    const updated = await tx.collection<ImportRecord>(IMPORT_RECORDS).updateOne(
      { _id: recordId, rejected: false },
      {
        $set: {
          rejected: true,
          rejectReason: reason,
          processingStatus: record.parseStatus === 'exception' ? 'exception' : 'processed',
          finished: true,
          completedAt: now,
          caseProcessorId: principal.userId,
          caseProcessorName: nameOf(principal),
        },
      },
      { reason },
    );
    if (!updated) throw errors.badRequest('imports.alreadyRejected', { fileName: record.fileName });
  });
  return recordView(await loadRecord(handle, recordId));
}

export function recordView(record: StoredDoc<ImportRecord>) {
  const { tenantId: _tenant, createdBy: _by, updatedBy: _updatedBy, ...rest } = record;
  return { id: record._id, ...rest };
}

export function reportView(report: StoredDoc<ImportReport>) {
  return {
    index: report.index,
    entry: report.entry,
    senderReportId: report.senderReportId,
    worldwideId: report.worldwideId,
    status: report.status,
    caseId: report.caseId,
    outcome: report.outcome,
    savedAt: report.savedAt,
    unbound: report.unbound,
    targetCaseId: report.targetCaseId ?? null,
    duplicateOf: report.duplicateOf ?? null,
  };
}

/** A record with its reports (without their documents). */
export async function recordDetail(caller: Caller, recordId: string) {
  const handle = caller.tenant;
  const record = await memberRecord(caller, recordId);
  // While the file is parsed its reports are being written: they exist once the parse completed.
  if (record.parseStatus !== 'completed') return { ...recordView(record), reports: [] };
  const list = await reports(handle).find({ recordId }, { sort: { index: 1 }, projection: { document: 0 } });
  return { ...recordView(record), reports: list.map(reportView) };
}
