/**
 * Bulk reporting (SPEC 2 /submittransfer/bulkReporting, issue 19 item 4): approved plans of one
 * project and receiver are exported as E2B batches in a background job - one message per case,
 * split into several files at the receiver's size limit (maxFileMb) - and, when asked, sent at once. Each file
 * is an export (a line of the E2B transmission page) and each plan keeps the export that carries
 * it. Checked before anything is queued, each refusal translated: the plans must be approved, to
 * submit, of this receiver and not yet exported; the case must still be at the planned version; a
 * follow-up waits for its initial; a version the receiver acknowledged goes only as an amendment
 * or nullification; a send past a due date carries the late reason.
 */
import { randomUUID } from 'node:crypto';
import type { Caller, JobContext } from '../http';
import { AppError, defineJob, errors } from '../http';
import { caseCollectionNames, caseContent } from '../cases';
import type { CaseDocument } from '../cases';
import {
  exportCaller,
  exportToReceiver,
  FILE_TOO_LARGE,
  filesOf,
  RECEIVERS,
  sendTransmission,
} from '../exports';
import type { Correction, ExportRecord, Receiver, SendParticipant } from '../exports';
import type { Handle, StoredDoc } from '../store';
import { interchangeOutput } from '../unblinding';
import { projectReceivers } from './deadline';
import type { KeptTransmission } from './deadline';
import { S } from './model';
import type { BulkRun, SubmissionPlan } from './model';

export const BULK_PERMISSION = 'submittransfer:bulkReporting';
export const BULK_RUN_PERMISSION = 'submittransfer:bulkReporting:export';
export const BULK_JOB = 'submissions.bulkReporting';
/** The file size limit of a receiver that names none (its maxFileMb): the example of 20 MB. */
export const DEFAULT_BULK_MAX_BYTES = 20 * 1024 * 1024;

/** Transmission states that mean the receiver has the version (a rejection does not). */
const DELIVERED = new Set(['sent', 'acknowledged', 'resubmitted']);

export interface BulkInput {
  projectId: string;
  receiverId: string;
  planIds: string[];
  send?: boolean;
  lateReason?: string;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const today = (caller: Caller) => caller.clock.now().toISOString().slice(0, 10);
/** A plan past its due date on `day` (not yet sent: a bulk run only takes unexported plans). */
export const isLate = (plan: Pick<SubmissionPlan, 'dueDate'>, day: string) =>
  plan.dueDate !== null && day > plan.dueDate;

async function keptOf(caller: Caller, caseIds: string[]) {
  const summaries = await caller.tenant
    .collection<{ transmission?: { receivers: KeptTransmission[] } | null }>(caseCollectionNames.summaries)
    .find({ _id: { $in: caseIds } }, { projection: { transmission: 1 } });
  return new Map(summaries.map((s) => [s._id, s.transmission?.receivers ?? []]));
}

/**
 * A follow-up (a later case version) to a receiver waits while an approved plan of an earlier
 * version of the case to that receiver was not delivered; a receiver that needed no initial report
 * gets the follow-up as its first.
 */
async function initialNotSent(
  caller: Caller,
  plan: StoredDoc<SubmissionPlan>,
  kept: KeptTransmission[],
): Promise<boolean> {
  if (plan.correction) return false;
  const earlier = await caller.tenant
    .collection<SubmissionPlan>(S.plans)
    .find(
      { caseId: plan.caseId, receiverId: plan.receiverId, isSubmit: true, state: 'approved' },
      { projection: { caseVersion: 1 } },
    );
  return earlier.some(
    (e) =>
      e.caseVersion < plan.caseVersion &&
      !kept.some(
        (t) =>
          t.receiverId === plan.receiverId &&
          DELIVERED.has(t.status) &&
          (t.version === null || t.version >= e.caseVersion),
      ),
  );
}

/** Checks the selection (each refusal names the report) and queues the job; answers the run. */
export async function startBulk(caller: Caller, input: BulkInput) {
  const receiver = (await projectReceivers(caller.tenant, input.projectId)).find(
    (r) => r._id === input.receiverId,
  );
  if (!receiver) throw errors.badRequest('submissions.receiverNotInProject', { id: input.receiverId });
  const planIds = [...new Set(input.planIds)];
  if (!planIds.length) throw errors.badRequest('submissions.bulk.noPlans');
  const plans = await caller.tenant
    .collection<SubmissionPlan>(S.plans)
    .find({ _id: { $in: planIds }, projectId: input.projectId });
  const cases = new Map(
    (
      await caller.tenant
        .collection<CaseDocument>(caseCollectionNames.cases)
        .find({ _id: { $in: plans.map((p) => p.caseId) } })
    ).map((stored) => [stored._id, caseContent(stored)] as const),
  );
  const kept = await keptOf(caller, [...cases.keys()]);
  const running = new Set(
    (
      await caller.tenant
        .collection<BulkRun>(S.bulkRuns)
        .find(
          { projectId: input.projectId, state: { $in: ['queued', 'running'] } },
          { projection: { _id: 1 } },
        )
    ).map((r) => r._id),
  );
  const day = today(caller);
  const seenCases = new Set<string>();
  const ordered: StoredDoc<SubmissionPlan>[] = [];
  for (const id of planIds) {
    const plan = plans.find((p) => p._id === id);
    if (!plan) throw errors.badRequest('submissions.bulk.planNotFound', { id });
    const named = { reportCode: plan.reportCode, receiver: plan.receiverName };
    if (plan.receiverId !== receiver._id)
      throw errors.badRequest('submissions.bulk.otherReceiver', { ...named, wanted: receiver.name });
    if (plan.state !== 'approved' || !plan.isSubmit)
      throw errors.badRequest('submissions.bulk.notApproved', named);
    if (plan.exportId || (plan.bulkRunId && running.has(plan.bulkRunId)))
      throw errors.badRequest('submissions.bulk.alreadyExported', named);
    if (seenCases.has(plan.caseId)) throw errors.badRequest('submissions.bulk.twoPlansOfCase', named);
    seenCases.add(plan.caseId);
    const doc = cases.get(plan.caseId);
    const state = (doc?.state ?? {}) as { validity?: string; version?: number };
    if (!doc || state.validity === 'deleted')
      throw errors.badRequest('exports.caseDeleted', { code: plan.reportCode });
    if (state.version !== plan.caseVersion)
      throw errors.badRequest('submissions.bulk.newerVersion', {
        ...named,
        planned: plan.caseVersion,
        current: state.version ?? '',
      });
    const toReceiver = kept.get(plan.caseId) ?? [];
    if (await initialNotSent(caller, plan, toReceiver))
      throw errors.badRequest('submissions.followUpBeforeInitial', named);
    if (
      !plan.correction &&
      toReceiver.some(
        (t) => t.receiverId === receiver._id && t.status === 'acknowledged' && t.version === plan.caseVersion,
      )
    )
      throw errors.badRequest('exports.alreadyAcknowledged', {
        code: plan.reportCode,
        version: plan.caseVersion,
        receiver: receiver.name,
      });
    ordered.push(plan);
  }
  const lateReason = text(input.lateReason);
  const late = ordered.filter((p) => isLate(p, day));
  if (input.send && late.length && !lateReason)
    throw errors.badRequest('submissions.lateReasonRequired', {
      codes: late.map((p) => p.reportCode).join(', '),
    });

  const runId = randomUUID();
  const jobId = `submissions-bulk-${runId}`;
  const run: BulkRun & { _id: string } = {
    _id: runId,
    projectId: input.projectId,
    receiverId: receiver._id,
    receiverName: receiver.name,
    planIds: ordered.map((p) => p._id),
    send: input.send === true,
    lateReason: input.send && late.length ? lateReason : null,
    state: 'queued',
    done: 0,
    total: ordered.length,
    exports: [],
    error: null,
    jobId,
    createdBy: caller.userId,
    createdAt: caller.clock.now().toISOString(),
    finishedAt: null,
  };
  await caller.tenant.transaction(async (tx) => {
    await tx.collection<BulkRun>(S.bulkRuns).insertOne(run);
    await tx
      .collection<SubmissionPlan>(S.plans)
      .updateMany({ _id: { $in: run.planIds } }, { $set: { bulkRunId: runId } });
  });
  await caller.deps.jobs.enqueue(
    BULK_JOB,
    { runId, projectId: input.projectId },
    { tenantId: caller.principal.tenantId, requestedBy: caller.userId, jobId },
  );
  return bulkRunView(caller, runId);
}

export async function bulkRunView(caller: Caller, runId: string) {
  const run = await caller.tenant.collection<BulkRun>(S.bulkRuns).findOne({ _id: runId });
  if (!run) throw errors.notFound('submissions.bulk.runNotFound', { id: runId });
  const { _id, rev, error, ...rest } = run;
  return { runId: _id, rev, ...rest, error: error ? caller.t(error.key, error.params) : null };
}

/** Approved plans of the project to the receiver that no bulk run has exported yet, by due date. */
export async function bulkCandidates(caller: Caller, projectId: string, receiverId: string) {
  const plans = await caller.tenant
    .collection<SubmissionPlan>(S.plans)
    .find(
      { projectId, receiverId, isSubmit: true, state: 'approved' },
      { sort: { dueDate: 1, reportCode: 1 }, limit: 2000 },
    );
  const day = today(caller);
  return plans
    .filter((p) => !p.exportId)
    .map((p) => ({
      planId: p._id,
      caseId: p.caseId,
      reportCode: p.reportCode,
      caseVersion: p.caseVersion,
      receiverName: p.receiverName,
      correction: p.correction?.code ?? null,
      dueDate: p.dueDate,
      late: isLate(p, day),
    }));
}

type Exported = { record: StoredDoc<ExportRecord>; plans: StoredDoc<SubmissionPlan>[] };

/**
 * Writes the plans' cases as one batch; a file over the size limit is split in halves until each
 * part fits (a single report over the limit is refused).
 */
async function exportParts(
  caller: Caller,
  run: StoredDoc<BulkRun>,
  plans: StoredDoc<SubmissionPlan>[],
  maxBytes: number,
  done: (part: Exported) => Promise<void>,
): Promise<void> {
  const corrections: Record<string, Correction> = {};
  for (const plan of plans) if (plan.correction) corrections[plan.caseId] = plan.correction;
  try {
    const { record } = await exportToReceiver(
      caller.tenant,
      filesOf(caller, caller.deps),
      exportCaller(caller),
      {
        caseIds: plans.map((p) => p.caseId),
        projectIds: [run.projectId],
        receiverId: run.receiverId,
        corrections,
        maxBytes,
        blinding: interchangeOutput(caller),
      },
      caller.clock.now(),
    );
    await done({ record, plans });
  } catch (error) {
    if (!(error instanceof AppError) || error.messageKey !== FILE_TOO_LARGE || plans.length < 2) throw error;
    const half = Math.ceil(plans.length / 2);
    await exportParts(caller, run, plans.slice(0, half), maxBytes, done);
    await exportParts(caller, run, plans.slice(half), maxBytes, done);
  }
}

/** The job's work: export (and send) the run's plans, recording each file and the progress. */
export async function runBulk(
  caller: Caller,
  runId: string,
  defaultMaxBytes: number,
  progress: (done: number, total: number) => Promise<void>,
): Promise<StoredDoc<BulkRun>> {
  const runs = caller.tenant.collection<BulkRun>(S.bulkRuns);
  let run = await runs.findOne({ _id: runId });
  if (!run) throw errors.notFound('submissions.bulk.runNotFound', { id: runId });
  // A retried job does not write the files again.
  if (run.state !== 'queued') return run;
  run = (await runs.updateOne({ _id: runId }, { $set: { state: 'running' } }, { expectedRev: run.rev }))!;
  const receiver = await caller.tenant.collection<Receiver>(RECEIVERS).findOne({ _id: run.receiverId });
  const maxBytes = receiver?.maxFileMb ? Math.floor(receiver.maxFileMb * 1024 * 1024) : defaultMaxBytes;
  const found = await caller.tenant.collection<SubmissionPlan>(S.plans).find({ _id: { $in: run.planIds } });
  const plans = run.planIds.flatMap((id) => found.filter((p) => p._id === id));
  let done = 0;
  const current = run;
  const exported = new Set<string>();
  try {
    // The job acts for the user who started it: they must still hold the right in the project.
    if (!(await caller.authorize(BULK_RUN_PERMISSION, { projectId: run.projectId })))
      throw errors.forbidden();
    await exportParts(caller, current, plans, maxBytes, async ({ record, plans: part }) => {
      // The plans name their export first: sending it checks and keeps their late reason.
      const at = caller.clock.now().toISOString();
      await caller.tenant.transaction(async (tx) => {
        for (const plan of part)
          await tx
            .collection<SubmissionPlan>(S.plans)
            .updateOne({ _id: plan._id }, { $set: { exportId: record._id, exportedAt: at } });
      });
      for (const plan of part) exported.add(plan._id);
      const recordFile = (status: string) =>
        caller.tenant.transaction(async (tx) => {
          const latest = (await tx.collection<BulkRun>(S.bulkRuns).findOne({ _id: runId }))!;
          const file = {
            exportId: record._id,
            batchId: record.batchId,
            fileName: record.fileName,
            size: record.size,
            reports: part.length,
            status,
          };
          await tx
            .collection<BulkRun>(S.bulkRuns)
            .updateOne({ _id: runId }, { $set: { done, exports: [...latest.exports, file] } });
        });
      done += part.length;
      if (!current.send) await recordFile(record.status);
      else {
        let sent: StoredDoc<ExportRecord>;
        try {
          sent = await sendTransmission(
            caller.tenant,
            exportCaller(caller),
            record._id,
            record.rev,
            caller.clock.now(),
            current.lateReason,
          );
        } catch (error) {
          // The file was written: it stays on the transmission page, to be sent from there.
          await recordFile(record.status);
          throw error;
        }
        await recordFile(sent.status);
      }
      await progress(done, plans.length);
    });
  } catch (error) {
    // Recorded, not retried: a retry would write again what was already exported.
    const refusal =
      error instanceof AppError
        ? { key: error.messageKey, params: error.params as Record<string, string | number> }
        : { key: 'submissions.bulk.failed', params: { reason: String(error) } };
    const left = plans.filter((p) => !exported.has(p._id)).map((p) => p._id);
    await caller.tenant
      .collection<SubmissionPlan>(S.plans)
      .updateMany({ _id: { $in: left } }, { $set: { bulkRunId: null } });
    return (await runs.updateOne(
      { _id: runId },
      { $set: { state: 'failed', error: refusal, finishedAt: caller.clock.now().toISOString() } },
    ))!;
  }
  return (await runs.updateOne(
    { _id: runId },
    { $set: { state: 'done', finishedAt: caller.clock.now().toISOString() } },
  ))!;
}

export function bulkJob(maxBytes: number) {
  return defineJob<{ runId: string; projectId: string }, { done: number; state: string }>({
    type: BULK_JOB,
    maxAttempts: 1,
    async handler(ctx: JobContext<{ runId: string; projectId: string }>) {
      const run = await runBulk(ctx.caller(), ctx.payload.runId, maxBytes, (n, total) =>
        ctx.progress(Math.round((n / Math.max(total, 1)) * 100), `${n}/${total}`),
      );
      return { done: run.done, state: run.state };
    },
  });
}

/**
 * The send participant (exports' send, the transmission page's or a bulk run's): the reports of
 * plans past their due date need the late reason, which their plans keep for the compliance summary.
 */
export const keepLateReason: SendParticipant = async (tx: Handle, record, send) => {
  const plans = await tx.collection<SubmissionPlan>(S.plans).find({ exportId: record._id });
  const day = send.now.toISOString().slice(0, 10);
  const late = plans.filter((p) => isLate(p, day));
  if (!late.length) return;
  const codes = late.map((p) => p.reportCode);
  if (!send.lateReason)
    throw errors.badRequest(
      'submissions.lateReasonRequired',
      { codes: codes.join(', ') },
      { lateReasonRequired: true, codes },
    );
  for (const plan of late)
    await tx
      .collection<SubmissionPlan>(S.plans)
      .updateOne({ _id: plan._id }, { $set: { lateReason: send.lateReason } });
};
