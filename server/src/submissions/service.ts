/**
 * Batch submission plans (SPEC 2 /submittransfer/supervisionSubmit): from a selection of a
 * project's cases, the rules propose a plan per case and receiver of the project; the user edits
 * them and saves them as one batch, sends the batch to a reviewer, who approves or rejects plan by
 * plan or all at once with an electronic signature.
 */
import { randomUUID } from 'node:crypto';
import { caseFacts, evaluateFacts, rulesForReceiver } from '@pv/engine';
import type { PlanProposal } from '@pv/engine';
import { C as authCollections } from '../auth';
import type { CaseDocument } from '../cases';
import { caseCollectionNames, caseContent, findHandler } from '../cases';
import { errors } from '../http';
import type { Caller } from '../http';
import { PROJECTS } from '../projects';
import type { Project } from '../projects';
import type { StoredDoc } from '../store';
import type { Signer } from '../workflow';
import { caseProjectId, projectReceivers } from './deadline';
import type { KeptTransmission } from './deadline';
import type { Receiver } from '../exports';
import { PLAN_FIELD_NAMES, S } from './model';
import type { PlanFields, SubmissionBatch, SubmissionPlan } from './model';

type Doc = Record<string, unknown>;

const reportCodeOf = (doc: CaseDocument) => String(((doc.report ?? {}) as Doc).reportCode ?? '');

async function transmissionsOf(caller: Caller, caseId: string): Promise<KeptTransmission[]> {
  const summary = await caller.tenant
    .collection<{ transmission?: { receivers: KeptTransmission[] } | null }>(caseCollectionNames.summaries)
    .findOne({ _id: caseId }, { projection: { transmission: 1 } });
  return summary?.transmission?.receivers ?? [];
}

function propose(doc: CaseDocument, receiver: StoredDoc<Receiver>, sentBefore: boolean): PlanProposal {
  const rule = { receiverId: receiver._id, authority: receiver.authority ?? null, profile: receiver.profile };
  return evaluateFacts(rulesForReceiver(rule), caseFacts(doc), rule, { reportedBefore: sentBefore });
}

/** The project's cases named, in the order given; refuses a case of another project or tenant. */
async function casesOfProject(caller: Caller, projectId: string, caseIds: string[]) {
  if (!caseIds.length) throw errors.badRequest('submissions.noCases');
  const found = await caller.tenant
    .collection<CaseDocument>(caseCollectionNames.cases)
    .find({ _id: { $in: caseIds } });
  return caseIds.map((id) => {
    const stored = found.find((c) => c._id === id);
    const doc = stored ? caseContent(stored) : null;
    if (!doc || caseProjectId(doc) !== projectId)
      throw errors.badRequest('submissions.caseNotInProject', { id });
    return { id, doc };
  });
}

async function receiversOf(caller: Caller, projectId: string) {
  const receivers = await projectReceivers(caller.tenant, projectId);
  if (!receivers.length) throw errors.badRequest('submissions.noReceivers');
  for (const receiver of receivers)
    if (!receiver.receiverIdentifier?.trim())
      throw errors.badRequest('submissions.receiverIdentifierRequired');
  return receivers;
}

export interface ProposalRow extends PlanFields {
  caseId: string;
  reportCode: string;
  caseVersion: number;
  receiverId: string;
  receiverName: string;
  authority: string;
  ruleId: string;
  ruleLabel: PlanProposal['explanation']['label'];
  dueDate: string | null;
  days: number | null;
  clockStart: PlanProposal['clockStart'];
  explanation: PlanProposal['explanation'];
}

/** Plans the rules propose for every case and receiver of the project (nothing saved). */
export async function proposeBatch(
  caller: Caller,
  projectId: string,
  caseIds: string[],
): Promise<ProposalRow[]> {
  const receivers = await receiversOf(caller, projectId);
  const rows: ProposalRow[] = [];
  for (const { id, doc } of await casesOfProject(caller, projectId, caseIds)) {
    const kept = await transmissionsOf(caller, id);
    for (const receiver of receivers) {
      const sentBefore = kept.some(
        (t) => t.receiverId === receiver._id && t.version !== null && t.version < doc.state.version,
      );
      const proposal = propose(doc, receiver, sentBefore);
      const state = doc.state as unknown as Doc;
      rows.push({
        caseId: id,
        reportCode: reportCodeOf(doc),
        caseVersion: doc.state.version,
        receiverId: receiver._id,
        receiverName: receiver.name,
        authority: proposal.authority,
        isSubmit: proposal.isSubmit,
        noneSubmitWhy: proposal.noneSubmitWhy ? proposal.noneSubmitWhy.zh : null,
        clinicIsSusar: state.isSusar === true,
        ruleId: proposal.explanation.ruleId,
        ruleLabel: proposal.explanation.label,
        dueDate: proposal.dueDate,
        days: proposal.days,
        clockStart: proposal.clockStart,
        explanation: proposal.explanation,
      });
    }
  }
  return rows;
}

export interface SaveBatchInput {
  projectId: string;
  sponsor?: string;
  plans: (PlanFields & { caseId: string; receiverId: string })[];
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Saves the edited plans as one batch (draft): each plan keeps the rules' proposal and its explanation. */
export async function saveBatch(caller: Caller, input: SaveBatchInput) {
  const project = await caller.tenant.collection<Project>(PROJECTS).findOne({ _id: input.projectId });
  const sponsor = text(input.sponsor) ?? text(project?.sponsor);
  if (!sponsor)
    throw errors.badRequest(project?.sponsor ? 'submissions.sponsorRequired' : 'submissions.noSponsor');
  const receivers = await receiversOf(caller, input.projectId);
  const caseIds = [...new Set(input.plans.map((p) => p.caseId))];
  const cases = new Map(
    (await casesOfProject(caller, input.projectId, caseIds)).map((c) => [c.id, c.doc] as const),
  );
  const seen = new Set<string>();
  const batchId = randomUUID();
  const plans: (SubmissionPlan & { _id: string })[] = [];
  for (const edited of input.plans) {
    const doc = cases.get(edited.caseId)!;
    const receiver = receivers.find((r) => r._id === edited.receiverId);
    if (!receiver) throw errors.badRequest('submissions.receiverNotInProject', { id: edited.receiverId });
    const reportCode = reportCodeOf(doc);
    const key = `${edited.caseId}/${receiver._id}`;
    if (seen.has(key))
      throw errors.badRequest('submissions.duplicatePlan', { reportCode, receiver: receiver.name });
    seen.add(key);
    if (!edited.isSubmit && !text(edited.noneSubmitWhy))
      throw errors.badRequest('submissions.reasonRequired', { reportCode, receiver: receiver.name });
    const kept = await transmissionsOf(caller, edited.caseId);
    const proposal = propose(
      doc,
      receiver,
      kept.some((t) => t.receiverId === receiver._id && t.version !== null && t.version < doc.state.version),
    );
    const fields = Object.fromEntries(
      PLAN_FIELD_NAMES.filter((name) => edited[name] !== undefined).map((name) => [name, edited[name]]),
    ) as unknown as PlanFields;
    plans.push({
      _id: randomUUID(),
      ...fields,
      noneSubmitWhy: edited.isSubmit ? null : text(edited.noneSubmitWhy),
      batchId,
      projectId: input.projectId,
      caseId: edited.caseId,
      reportCode,
      caseVersion: doc.state.version,
      receiverId: receiver._id,
      receiverName: receiver.name,
      receiverIdentifier: receiver.receiverIdentifier,
      authority: proposal.authority,
      proposedSubmit: proposal.isSubmit,
      ruleId: proposal.explanation.ruleId,
      explanation: proposal.explanation,
      clockStart: proposal.clockStart,
      days: edited.isSubmit ? proposal.days : null,
      dueDate: edited.isSubmit ? proposal.dueDate : null,
      state: 'planned',
    });
  }
  if (!plans.length) throw errors.badRequest('submissions.noCases');
  return insertDraftBatch(caller, { batchId, projectId: input.projectId, sponsor, plans });
}

/** Keeps the plans as one draft batch of the caller's (the batch and its plans land together). */
export async function insertDraftBatch(
  caller: Caller,
  draft: { batchId: string; projectId: string; sponsor: string; plans: (SubmissionPlan & { _id: string })[] },
) {
  const batch: SubmissionBatch & { _id: string } = {
    _id: draft.batchId,
    projectId: draft.projectId,
    sponsor: draft.sponsor,
    state: 'draft',
    createdBy: caller.userId,
    createdByName: typeof caller.principal.name === 'string' ? caller.principal.name : null,
    createdAt: caller.clock.now().toISOString(),
    planCount: draft.plans.length,
  };
  await caller.tenant.transaction(async (tx) => {
    await tx.collection<SubmissionBatch>(S.batches).insertOne(batch);
    for (const plan of draft.plans) await tx.collection<SubmissionPlan>(S.plans).insertOne(plan);
  });
  return batchView(caller, draft.batchId);
}

async function loadBatch(caller: Caller, batchId: string) {
  const batch = await caller.tenant.collection<SubmissionBatch>(S.batches).findOne({ _id: batchId });
  if (!batch) throw errors.notFound('submissions.batchNotFound', { id: batchId });
  return batch;
}

export async function batchView(caller: Caller, batchId: string) {
  const { _id, rev, ...batch } = await loadBatch(caller, batchId);
  const plans = await caller.tenant
    .collection<SubmissionPlan>(S.plans)
    .find({ batchId }, { sort: { reportCode: 1, receiverName: 1 }, limit: 5000 });
  return {
    batchId: _id,
    rev,
    ...batch,
    plans: plans.map(({ _id: planId, ...plan }) => ({ planId, ...plan })),
  };
}

/** Sends a saved batch to the user who reviews it (a member of the batch's project). */
export async function sendForReview(caller: Caller, batchId: string, reviewerId: string | undefined) {
  const batch = await loadBatch(caller, batchId);
  if (batch.state !== 'draft') throw errors.badRequest('submissions.notDraft');
  if (!batch.planCount) throw errors.badRequest('submissions.saveFirst');
  if (!reviewerId?.trim()) throw errors.badRequest('submissions.reviewerRequired');
  const reviewer = await findHandler(caller.tenant, reviewerId);
  const member =
    reviewer &&
    (await caller.tenant
      .collection(authCollections.projectMembers)
      .count({ projectId: batch.projectId, userId: reviewer.id }));
  if (!reviewer || !member) throw errors.badRequest('submissions.reviewerUnknown', { id: reviewerId });
  await caller.tenant.transaction(async (tx) => {
    await tx.collection<SubmissionBatch>(S.batches).updateOne(
      { _id: batchId },
      {
        $set: {
          state: 'inReview',
          reviewerId: reviewer.id,
          reviewerName: reviewer.name,
          sentForReviewAt: caller.clock.now().toISOString(),
        },
      },
      { expectedRev: batch.rev },
    );
    await tx.collection<SubmissionPlan>(S.plans).updateMany({ batchId }, { $set: { state: 'inReview' } });
  });
  return batchView(caller, batchId);
}

export interface ReviewInput {
  /** One result for every plan of the batch ... */
  all?: 'agree' | 'disagree';
  /** ... or a result per plan (every plan decided). */
  decisions?: { planId: string; result: 'agree' | 'disagree' }[];
  opinion?: string;
  password: string;
}

/** The reviewer approves or rejects the plans (each or all), signing with their password. */
export async function reviewBatch(caller: Caller, signer: Signer, batchId: string, input: ReviewInput) {
  const batch = await loadBatch(caller, batchId);
  if (batch.state !== 'inReview') throw errors.badRequest('submissions.notInReview');
  if (batch.reviewerId !== caller.userId)
    throw errors.forbidden('submissions.notReviewer', { name: batch.reviewerName ?? '' });
  const plans = await caller.tenant.collection<SubmissionPlan>(S.plans).find({ batchId }, { limit: 5000 });
  const results = new Map<string, 'agree' | 'disagree'>();
  if (input.all) for (const plan of plans) results.set(plan._id, input.all);
  else if (input.decisions?.length) {
    for (const decision of input.decisions) {
      if (!plans.some((p) => p._id === decision.planId))
        throw errors.badRequest('submissions.planNotInBatch', { id: decision.planId });
      results.set(decision.planId, decision.result);
    }
    const left = plans.filter((p) => !results.has(p._id)).length;
    if (left) throw errors.badRequest('submissions.undecided', { count: left });
  } else throw errors.badRequest('submissions.resultRequired');
  const proof = await signer(caller.deps, caller.principal, input.password, 'submissions:reviewPlans', {
    type: 'submissionBatch',
    id: batchId,
  });
  const at = caller.clock.now().toISOString();
  await caller.tenant.transaction(async (tx) => {
    for (const plan of plans)
      await tx.collection<SubmissionPlan>(S.plans).updateOne(
        { _id: plan._id },
        {
          $set: {
            state: results.get(plan._id) === 'agree' ? 'approved' : 'rejected',
            reviewOpinion: text(input.opinion),
            reviewedBy: caller.userId,
            reviewedAt: at,
            signatureId: proof._id,
          },
        },
      );
    await tx
      .collection<SubmissionBatch>(S.batches)
      .updateOne({ _id: batchId }, { $set: { state: 'reviewed' } }, { expectedRev: batch.rev });
  });
  return batchView(caller, batchId);
}
