/**
 * Nullification and amendment reports (issue 19 item 6, ICH E2B(R3) C.1.11.1 / C.1.11.2): from a
 * case, a draft batch with one plan per project receiver that had the case (a transmission it
 * received: sent or acknowledged), each carrying C.1.11.1 (1 nullification, 2 amendment) and the
 * reason C.1.11.2. The batch then takes the usual path: review with the e-signature, bulk export
 * (the export writes C.1.11 and lets an acknowledged version go again), send, ACK.
 *
 * Deadlines: the reporting rules (schemas/rules/reporting) give no clock for these reports, so the
 * plans carry no due date and never make a case late; once sent, the case's current version is
 * with the receiver, which closes that receiver's clock for the case.
 */
import { randomUUID } from 'node:crypto';
import { receiverAuthority } from '@pv/engine';
import type { Caller } from '../http';
import { errors } from '../http';
import { caseCollectionNames, caseContent } from '../cases';
import type { CaseDocument } from '../cases';
import type { Correction } from '../exports';
import { PROJECTS } from '../projects';
import type { Project } from '../projects';
import { caseProjectId, projectReceivers } from './deadline';
import type { KeptTransmission } from './deadline';
import type { SubmissionPlan } from './model';
import { insertDraftBatch } from './service';

export type CorrectionKind = 'nullification' | 'amendment';
const CODES: Record<CorrectionKind, Correction['code']> = { nullification: '1', amendment: '2' };
const LABELS: Record<CorrectionKind, { zh: string; en: string }> = {
  nullification: { zh: '作废报告（C.1.11.1 = 1）', en: 'Nullification report (C.1.11.1 = 1)' },
  amendment: { zh: '修正报告（C.1.11.1 = 2）', en: 'Amendment report (C.1.11.1 = 2)' },
};
/** A receiver has the case once a transmission of it was sent (an ACK rejection does not undo the sending). */
const HAD = new Set(['sent', 'acknowledged', 'resubmitted', 'rejected', 'handled']);

export interface CorrectionInput {
  kind: CorrectionKind;
  reason: string;
  sponsor?: string;
}

export async function createCorrection(caller: Caller, caseId: string, input: CorrectionInput) {
  const reason = input.reason.trim();
  if (!reason) throw errors.badRequest(`submissions.correction.reasonRequired.${input.kind}`);
  const stored = await caller.tenant
    .collection<CaseDocument>(caseCollectionNames.cases)
    .findOne({ _id: caseId });
  if (!stored) throw errors.notFound('cases.notFound', { id: caseId });
  const doc = caseContent(stored);
  const reportCode = String(((doc.report ?? {}) as Record<string, unknown>).reportCode ?? caseId);
  const projectId = caseProjectId(doc);
  // A case of no project has no receivers.
  if (!projectId) throw errors.badRequest('submissions.correction.neverSent', { reportCode });
  const project = await caller.tenant.collection<Project>(PROJECTS).findOne({ _id: projectId });
  const summary = await caller.tenant
    .collection<{ transmission?: { receivers: KeptTransmission[] } | null }>(caseCollectionNames.summaries)
    .findOne({ _id: caseId }, { projection: { transmission: 1 } });
  const kept = summary?.transmission?.receivers ?? [];
  const receivers = (await projectReceivers(caller.tenant, projectId)).filter((r) =>
    kept.some((t) => t.receiverId === r._id && HAD.has(t.status)),
  );
  if (!receivers.length) throw errors.badRequest('submissions.correction.neverSent', { reportCode });
  const sponsor = input.sponsor?.trim() || project?.sponsor?.trim();
  if (!sponsor) throw errors.badRequest('submissions.noSponsor');
  const correction: Correction = { code: CODES[input.kind], reason };
  const batchId = randomUUID();
  const ruleId = `correction.${input.kind}`;
  const plans: (SubmissionPlan & { _id: string })[] = receivers.map((receiver) => ({
    _id: randomUUID(),
    isSubmit: true,
    batchId,
    projectId,
    caseId,
    reportCode,
    caseVersion: doc.state.version,
    receiverId: receiver._id,
    receiverName: receiver.name,
    receiverIdentifier: receiver.receiverIdentifier,
    authority: receiverAuthority(receiver),
    proposedSubmit: true,
    ruleId,
    explanation: {
      ruleId,
      label: LABELS[input.kind],
      source: 'ICH E2B(R3) Implementation Guide, C.1.11.1 / C.1.11.2',
      facts: [{ fact: 'reportNullificationAmendment', value: correction.code, from: ['C.1.11.1'] }],
    },
    clockStart: null,
    days: null,
    dueDate: null,
    state: 'planned',
    correction,
  }));
  return insertDraftBatch(caller, { batchId, projectId, sponsor, plans });
}
