/**
 * Pre-send business-rule checks (issue 19 item 5; SPEC 2 /checklog/submitCheck). The file about to
 * be kept and sent runs through its receiver's pack (schemas/rules/presend/packs.json, chosen by
 * the receiver's profile; engine checkMessage): a rejection-level finding refuses the export, a
 * warning refuses it until the user confirms. Every check is kept, refused or not, so that the
 * submission-check log lists what was checked, against which rules, and what was found.
 */
import { checkMessage, presendPacks } from '@pv/engine';
import type { PresendFinding } from '@pv/engine';
import { errors } from '../http';
import type { Caller, PageQuery } from '../http';
import { pageOptions } from '../http';
import type { Filter, StoredDoc, TenantHandle } from '../store';
import { emptyScope, listScope, scopeIds } from '../cases';
import type { TenantFiles } from '../files';
import { EXPORTS } from './service';
import type { ExportRecord } from './service';

export const PRESEND_CHECKS = 'presendChecks';
export const SUBMIT_CHECK_PERMISSION = 'checklog:submitCheck';
/** Findings kept per check (a broken batch can repeat one finding per report). */
const FINDINGS_KEPT = 500;

export const CHECK_OUTCOMES = ['passed', 'confirmed', 'warned', 'blocked', 'notApplicable'] as const;
/**
 * passed: nothing found; confirmed: warnings accepted; warned: waiting for the user's confirmation;
 * blocked: a rejection; notApplicable: the pack's rules are not written for the file's E2B version (R2).
 */
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

export interface PresendCheckRecord {
  /** Before the file was kept (export) or before it went to the receiver (send). */
  stage: 'export' | 'send';
  checkedAt: string;
  checkedBy: string;
  checkedByName: string | null;
  receiverId: string;
  receiverName: string;
  /** The pack run (the receiver's profile). */
  pack: string;
  batchId: string;
  caseIds: string[];
  reportCodes: string[];
  projectIds: string[];
  outcome: CheckOutcome;
  errorCount: number;
  warningCount: number;
  findings: PresendFinding[];
}

export interface PresendInput {
  xml: string;
  receiver: { _id: string; name: string; profile: string };
  batchId: string;
  cases: { caseId: string; reportCode: string | null; projectId: string | null }[];
  /** The user saw the warnings and sends anyway. */
  confirmWarnings: boolean;
  stage?: 'export' | 'send';
  /** The projects whose members see the check; by default the cases'. */
  projectIds?: string[];
  /** The kept export being checked again before sending: not an earlier transmission of its cases. */
  exportId?: string;
}

/** Export states before the file reached the receiver (schemas/workflows/transmission.json). */
const NOT_TRANSMITTED = new Set(['exported', 'noSubmissionRequired']);

/**
 * Whether each report (by the cases' order, which is the message's) is initial to the receiver: it
 * is when no earlier export of the case to this receiver was transmitted (FDA R0101). A rejected or
 * failed transmission counts as had, as the corrections count it (submissions/corrections.ts), so a
 * nullification planned for it is not refused as an initial report.
 */
async function versionTypesFor(
  handle: TenantHandle,
  receiverId: string,
  caseIds: string[],
  exportId: string | undefined,
): Promise<('initial' | 'followUp')[]> {
  const earlier = await handle
    .collection<ExportRecord>(EXPORTS)
    .find({ receiverId, caseIds: { $in: [...new Set(caseIds)] } }, { projection: { caseIds: 1, status: 1 } });
  const had = new Set(
    earlier.filter((e) => e._id !== exportId && !NOT_TRANSMITTED.has(e.status)).flatMap((e) => e.caseIds),
  );
  return caseIds.map((id) => (had.has(id) ? 'followUp' : 'initial'));
}

/**
 * Runs the receiver's pack on the file, keeps the check, and refuses the export on a rejection (or
 * an unconfirmed warning) with the findings in `data`: `{checkId, findings}`.
 */
export async function presendCheck(
  handle: TenantHandle,
  caller: { userId: string; name: string | null },
  input: PresendInput,
  now: Date,
): Promise<StoredDoc<PresendCheckRecord>> {
  const pack = presendPacks[input.receiver.profile] ? input.receiver.profile : 'ich';
  const caseIds = input.cases.map((c) => c.caseId);
  const versionTypes = await versionTypesFor(handle, input.receiver._id, caseIds, input.exportId);
  const result = checkMessage(input.xml, pack, undefined, { versionTypes });
  const outcome: CheckOutcome = !result.applicable
    ? 'notApplicable'
    : result.errorCount > 0
      ? 'blocked'
      : result.warningCount === 0
        ? 'passed'
        : input.confirmWarnings
          ? 'confirmed'
          : 'warned';
  const record = await handle.collection<PresendCheckRecord>(PRESEND_CHECKS).insertOne({
    stage: input.stage ?? 'export',
    checkedAt: now.toISOString(),
    checkedBy: caller.userId,
    checkedByName: caller.name,
    receiverId: input.receiver._id,
    receiverName: input.receiver.name,
    pack,
    batchId: input.batchId,
    caseIds,
    reportCodes: input.cases.map((c) => c.reportCode ?? c.caseId),
    projectIds: input.projectIds ?? [
      ...new Set(input.cases.map((c) => c.projectId).filter((p): p is string => p !== null)),
    ],
    outcome,
    errorCount: result.errorCount,
    warningCount: result.warningCount,
    findings: result.findings.slice(0, FINDINGS_KEPT),
  });
  const data = { checkId: record._id, findings: record.findings };
  if (outcome === 'blocked')
    throw errors.badRequest(
      'exports.businessRulesRejected',
      { count: result.errorCount, receiver: input.receiver.name },
      data,
    );
  if (outcome === 'warned')
    throw errors.badRequest(
      'exports.businessRulesWarnings',
      { count: result.warningCount, receiver: input.receiver.name },
      { ...data, confirmRequired: true },
    );
  return record;
}

/**
 * Before a kept file goes to its receiver: the receiver's pack runs again on the stored bytes (a
 * pack may have changed since the export). Its warnings were confirmed at the export.
 */
export async function presendCheckStored(
  handle: TenantHandle,
  files: TenantFiles,
  caller: { userId: string; name: string | null },
  record: StoredDoc<ExportRecord>,
  now: Date,
): Promise<void> {
  const { stream } = await files.getStream(record.fileId);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  await presendCheck(
    handle,
    caller,
    {
      xml: Buffer.concat(chunks).toString('utf8'),
      receiver: { _id: record.receiverId, name: record.receiverName, profile: record.profile },
      batchId: record.batchId,
      cases: record.cases.map((c) => ({ caseId: c.caseId, reportCode: c.reportCode, projectId: null })),
      projectIds: record.projectIds ?? [],
      confirmWarnings: true,
      stage: 'send',
      exportId: record._id,
    },
    now,
  );
}

export interface CheckListQuery extends PageQuery {
  receiverId?: string;
  outcome?: CheckOutcome | '';
  batchId?: string;
}

/** One finding as the log shows it: rule, level, report, E2B id, XPath and the message in the caller's language. */
function findingLine(f: PresendFinding, lang: 'zh' | 'en') {
  return `${f.ruleId} [${f.severity}] #${f.report} ${f.e2b ?? ''} ${f.xpath}: ${f.message[lang]}`;
}

/** The checks of the caller's projects (narrowed by the studyProjectIds header), newest first. */
export async function listChecks(caller: Caller, query: CheckListQuery) {
  const empty = { total: 0, page: query.page, size: query.size, items: [] };
  const scope = await listScope(caller, SUBMIT_CHECK_PERMISSION);
  if (emptyScope(scope)) return empty;
  const ids = scopeIds(scope);
  const filter: Filter = ids.length ? { projectIds: { $in: ids } } : {};
  if (query.receiverId) filter.receiverId = query.receiverId;
  if (query.outcome) filter.outcome = query.outcome;
  if (query.batchId) filter.batchId = query.batchId;
  const checks = caller.tenant.collection<PresendCheckRecord>(PRESEND_CHECKS);
  const [total, found] = await Promise.all([
    checks.count(filter),
    checks.find(filter, { sort: { checkedAt: -1 }, ...pageOptions(query) }),
  ]);
  const lang = caller.lang === 'en' ? 'en' : 'zh';
  const items = found.map(({ _id, tenantId: _t, createdAt: _c, createdBy: _b, updatedBy: _u, ...rest }) => ({
    checkId: _id,
    ...rest,
    packLabel: presendPacks[rest.pack]?.label[lang] ?? rest.pack,
    findingLines: rest.findings.map((f) => findingLine(f, lang)),
  }));
  return { total, page: query.page, size: query.size, items };
}
