/**
 * Batch unblinding (/casemanagement/batchUnblinding, SPEC 1): the cases of a selection of the case
 * list - or a whole project at study end - get one application and one approval, run by the same
 * workflow (schemas/workflows/unblinding.json) as a single case's; the designated unblinding person
 * starts the handling, which runs as a job with progress. Each case gets its own completed
 * application (naming the batch), report snapshot, recorded read of the list and history line.
 * Cases with an open application of their own, or missing from the list, are skipped with the
 * reason; the batch says which.
 */
import { randomUUID } from 'node:crypto';
import { planAction, unblindingWorkflow } from '@pv/engine';
import type { Caller, JobContext } from '../http';
import { defineJob, errors } from '../http';
import { caseContent, projectIdOf, recordCaseHistoryLine, resolveCaseSelection } from '../cases';
import type { CaseListQuery } from '../cases';
import { C as caseCollections } from '../cases';
import type { Handle, StoredDoc } from '../store';
import { AppError } from '../http';
import type { ApplicationCommon, ReportSnapshot, UnblindingApplication } from './applications';
import { OPEN_STATES, PERMISSIONS, unblindingPersonOf } from './applications';
import type { BlindingListVersion } from './blinding-list';
import { callerName, currentList, lookupAssignment, U } from './blinding-list';
import { findProject } from '../projects';
import type { OutcomeDeclaration } from './outcome';
import { outcomeDeclarationOf, unblindDocument } from './outcome';

export const BATCH_JOB = 'unblinding.batch';
/** Cases written per transaction by the job (progress is recorded between chunks). */
const CHUNK = 100;
export const BATCH_MAX_CASES = 20_000;

export interface UnblindingBatch extends ApplicationCommon {
  projectId: string;
  caseIds: string[];
  job: {
    id: string;
    state: 'queued' | 'running' | 'done';
    done: number;
    total: number;
    unblinded: number;
    skipped: { caseId: string; reason: string }[];
    startedAt: string | null;
    finishedAt: string | null;
  } | null;
}

const batches = (handle: Handle) => handle.collection<UnblindingBatch>(U.batches);

export const batchView = (doc: StoredDoc<UnblindingBatch>) => {
  const { caseIds, tenantId: _t, createdBy: _c, updatedBy: _u, _id, ...rest } = doc;
  return { id: _id, caseCount: caseIds.length, ...rest };
};

function refuse(
  caller: Caller,
  plan: { messageKey: string; params: Record<string, string> },
  status: string,
) {
  if (plan.messageKey === 'workflow.noTransition')
    return errors.badRequest('unblinding.notInState', { status: caller.t(`unblinding.state.${status}`) });
  return errors.badRequest(plan.messageKey, plan.params);
}

async function loadBatch(handle: Handle, projectId: string, batchId: string) {
  const batch = await batches(handle).findOne({ _id: batchId, projectId });
  if (!batch) throw errors.notFound('unblinding.batchNotFound', { id: batchId });
  return batch;
}

/** The cases of the selection (case ids, a case-list query, or every case of the project). */
async function selectCases(
  caller: Caller,
  projectId: string,
  selection: { caseIds?: string[]; query?: CaseListQuery },
): Promise<string[]> {
  const ids = await resolveCaseSelection(
    caller.tenant,
    selection.caseIds?.length || selection.query ? selection : { query: { tab: 'all' } },
    [projectId],
    'unblinding.noCases',
  );
  if (ids.length > BATCH_MAX_CASES)
    throw errors.badRequest('unblinding.tooManyCases', { limit: BATCH_MAX_CASES });
  // Case ids name cases of this project only.
  const found = await caller.tenant
    .collection(caseCollections.cases)
    .find({ _id: { $in: ids } }, { projection: { report: 1 } });
  const other = found.find((doc) => projectIdOf(doc) !== projectId);
  if (other || found.length !== ids.length)
    throw errors.badRequest('unblinding.caseNotInProject', {
      id: other?._id ?? ids.find((id) => !found.some((f) => f._id === id))!,
    });
  return ids;
}

export async function applyBatch(
  caller: Caller,
  projectId: string,
  input: { caseIds?: string[]; query?: CaseListQuery; reason: string; description?: string },
) {
  const plan = planAction(
    unblindingWorkflow,
    'apply',
    { node: unblindingWorkflow.initial, openApplication: false },
    {
      opinion: input.reason,
    },
  );
  if (!plan.ok) throw errors.badRequest('unblinding.reasonRequired');
  const caseIds = await selectCases(caller, projectId, input);
  return batches(caller.tenant).insertOne({
    projectId,
    caseIds,
    status: plan.toNode,
    reason: input.reason.trim(),
    description: input.description?.trim() ?? '',
    applicantId: caller.userId,
    applicantName: callerName(caller),
    appliedAt: caller.clock.now().toISOString(),
    review: null,
    unblindingPersonId: null,
    unblindingPersonName: null,
    job: null,
  });
}

export async function approveBatch(
  caller: Caller,
  projectId: string,
  input: { batchId: string; result: 'agree' | 'disagree'; opinion?: string; unblindingPersonId?: string },
) {
  const batch = await loadBatch(caller.tenant, projectId, input.batchId);
  const plan = planAction(unblindingWorkflow, 'approve', { node: batch.status }, { option: input.result });
  if (!plan.ok) throw refuse(caller, plan, batch.status);
  let person: { id: string; name: string } | null = null;
  if (input.result === 'agree') {
    if (!input.unblindingPersonId) throw errors.badRequest('unblinding.personRequired');
    person = await unblindingPersonOf(caller, input.unblindingPersonId, projectId);
  }
  const updated = await batches(caller.tenant).updateOne(
    { _id: batch._id, status: batch.status },
    {
      $set: {
        status: plan.toNode,
        review: {
          result: input.result,
          opinion: input.opinion?.trim() || null,
          by: caller.userId,
          byName: callerName(caller),
          at: caller.clock.now().toISOString(),
          signatureId: null,
        },
        unblindingPersonId: person?.id ?? null,
        unblindingPersonName: person?.name ?? null,
      },
    },
  );
  if (!updated) throw errors.conflict('unblinding.moved');
  return updated;
}

/** The designated unblinding person starts the handling: the job is queued once. */
export async function handleBatch(caller: Caller, projectId: string, batchId: string) {
  const batch = await loadBatch(caller.tenant, projectId, batchId);
  const plan = planAction(unblindingWorkflow, 'handle', { node: batch.status });
  if (!plan.ok) throw refuse(caller, plan, batch.status);
  if (batch.unblindingPersonId !== caller.userId)
    throw errors.forbidden('unblinding.notDesignated', { name: batch.unblindingPersonName ?? '' });
  if (batch.job) throw errors.badRequest('unblinding.batchRunning');
  const jobId = `unblinding-batch-${batch._id}`;
  const updated = await batches(caller.tenant).updateOne(
    { _id: batch._id, job: null },
    {
      $set: {
        job: {
          id: jobId,
          state: 'queued',
          done: 0,
          total: batch.caseIds.length,
          unblinded: 0,
          skipped: [],
          startedAt: null,
          finishedAt: null,
        },
      },
    },
  );
  if (!updated) throw errors.badRequest('unblinding.batchRunning');
  await caller.deps.jobs.enqueue(
    BATCH_JOB,
    { batchId: batch._id, projectId },
    { tenantId: caller.principal.tenantId, requestedBy: caller.userId, jobId },
  );
  return updated;
}

/** One case of the batch: its completed application, snapshot, recorded read and history line. */
async function unblindCase(
  tx: Handle,
  caller: Caller,
  batch: StoredDoc<UnblindingBatch>,
  list: StoredDoc<BlindingListVersion> | null,
  caseId: string,
  now: Date,
  declaration: OutcomeDeclaration,
) {
  const open = await tx
    .collection<UnblindingApplication>(U.applications)
    .findOne({ caseId, status: { $in: [...OPEN_STATES] } }, { projection: { _id: 1 } });
  if (open) return 'unblinding.alreadyApplied';
  const stored = await tx.collection(caseCollections.cases).findOne({ _id: caseId });
  if (!stored) return 'cases.notFound';
  const doc = caseContent(stored);
  const patient = (doc.patient ?? {}) as { subjectNumber?: string; investigationNumber?: string };
  const reportCode = String((doc.report as { reportCode?: string } | undefined)?.reportCode ?? '');
  let assignment;
  try {
    assignment = await lookupAssignment(
      tx,
      caller,
      batch.projectId,
      {
        caseId,
        reportCode,
        numbers: [patient.subjectNumber ?? '', patient.investigationNumber ?? ''],
      },
      'batch',
      list,
    );
  } catch (error) {
    if (error instanceof AppError) return error.messageKey;
    throw error;
  }
  const at = now.toISOString();
  const snapshot: ReportSnapshot = {
    at,
    type: 'unblinding',
    description: `${reportCode} V${doc.state.version}`,
    caseVersion: doc.state.version,
    caseRev: stored.rev,
    document: doc,
  };
  const id = randomUUID();
  await tx.collection<UnblindingApplication>(U.applications).insertOne({
    _id: id,
    caseId,
    projectId: batch.projectId,
    reportCode,
    status: 'completed',
    openKey: id,
    reason: batch.reason,
    description: batch.description,
    applicantId: batch.applicantId,
    applicantName: batch.applicantName,
    appliedAt: batch.appliedAt,
    review: batch.review,
    unblindingPersonId: batch.unblindingPersonId,
    unblindingPersonName: batch.unblindingPersonName,
    handling: { by: caller.userId, byName: callerName(caller), at, signatureId: null },
    assignment,
    snapshot,
    outcome: unblindDocument(doc, assignment, declaration).outcome,
    batchId: batch._id,
  });
  await recordCaseHistoryLine(
    tx,
    { userId: caller.userId, name: callerName(caller) },
    {
      caseId,
      action: 'unblindingHandle',
      result: unblindingWorkflow.actions.handle!.result,
      opinion: batch.reason,
      details: {
        applicationId: id,
        batchId: batch._id,
        status: 'completed',
        snapshotVersion: doc.state.version,
        reassessed: true,
      },
    },
    now,
  );
  return null;
}

/** Runs a batch's handling (the job's work; also what the benchmark times). */
export async function runBatch(
  caller: Caller,
  projectId: string,
  batchId: string,
  onProgress: (done: number, total: number) => Promise<void> = async () => undefined,
) {
  const handle = caller.tenant;
  const batch = await loadBatch(handle, projectId, batchId);
  if (!batch.job || batch.job.state === 'done') return batch;
  const list = await currentList(handle, projectId);
  const declaration = outcomeDeclarationOf(await findProject(handle, projectId));
  const job = {
    ...batch.job,
    state: 'running' as const,
    startedAt: batch.job.startedAt ?? caller.clock.now().toISOString(),
  };
  // A retried job continues after the cases already written.
  for (let start = job.done; start < batch.caseIds.length; start += CHUNK) {
    const chunk = batch.caseIds.slice(start, start + CHUNK);
    const now = caller.clock.now();
    const results = await handle.transaction(async (tx) => {
      const out: (string | null)[] = [];
      for (const caseId of chunk)
        out.push(await unblindCase(tx, caller, batch, list, caseId, now, declaration));
      return out;
    });
    results.forEach((reason, i) => {
      if (reason)
        job.skipped.push({ caseId: chunk[i]!, reason: caller.t(reason, { number: '', id: chunk[i]! }) });
      else job.unblinded += 1;
    });
    job.done = start + chunk.length;
    await batches(handle).updateOne({ _id: batch._id }, { $set: { job } });
    await onProgress(job.done, batch.caseIds.length);
  }
  const finished = { ...job, state: 'done' as const, finishedAt: caller.clock.now().toISOString() };
  return (await batches(handle).updateOne(
    { _id: batch._id },
    { $set: { status: 'completed', job: finished } },
  ))!;
}

export const batchJob = defineJob<
  { batchId: string; projectId: string },
  { unblinded: number; skipped: number }
>({
  type: BATCH_JOB,
  maxAttempts: 3,
  async handler(ctx: JobContext<{ batchId: string; projectId: string }>) {
    const caller = ctx.caller();
    // The job acts for the unblinding person: they must still hold the handling permission there.
    if (!(await caller.authorize(PERMISSIONS.handle, { projectId: ctx.payload.projectId })))
      throw errors.forbidden();
    const done = await runBatch(caller, ctx.payload.projectId, ctx.payload.batchId, (n, total) =>
      ctx.progress(Math.round((n / Math.max(total, 1)) * 100), `${n}/${total}`),
    );
    return { unblinded: done.job?.unblinded ?? 0, skipped: done.job?.skipped.length ?? 0 };
  },
});
