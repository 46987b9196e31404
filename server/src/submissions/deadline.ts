/**
 * The case's reporting deadline from its project's receivers (project.receiverIds): each active
 * receiver's authority rules give a plan proposal (schemas/rules/reporting); the case's own plan
 * for a receiver may decline it; a receiver that already has the case's current version closes
 * its clock. The earliest open due date is the case's deadline (engine caseDeadline).
 */
import { caseDeadline, caseFacts, evaluateFacts, rulesForReceiver } from '@pv/engine';
import type { CaseDeadline, ReceiverPlan } from '@pv/engine';
import type { CaseDocument, ReportDueDates } from '../cases';
import { caseCollectionNames } from '../cases';
import { RECEIVERS } from '../exports';
import type { Receiver } from '../exports';
import { PROJECTS } from '../projects';
import type { Project } from '../projects';
import { errors } from '../http';
import { InvalidStoreRequestError } from '../store';
import type { Handle, StoredDoc } from '../store';
import { S } from './model';
import type { SubmissionPlan } from './model';

/** What the cases module keeps of each receiver's last transmission (cases/transmission.ts). */
export interface KeptTransmission {
  receiverId: string;
  status: string;
  version: number | null;
  at: string;
}

/** Transmission states that mean the receiver has the version (a rejection does not). */
const DELIVERED = new Set(['sent', 'acknowledged', 'resubmitted']);

type Doc = Record<string, unknown>;

/** The project's receivers that reports go to: named on the project, existing and active. */
export async function projectReceivers(
  handle: Handle,
  projectId: string | null,
): Promise<StoredDoc<Receiver>[]> {
  if (!projectId) return [];
  const project = await handle.collection<Project>(PROJECTS).findOne({ _id: projectId });
  const ids = project && !project.deleted ? (project.receiverIds ?? []) : [];
  if (!ids.length) return [];
  const found = await handle.collection<Receiver>(RECEIVERS).find({ _id: { $in: ids }, active: true });
  // The project's order, which the administrator chose.
  return ids.flatMap((id) => found.filter((r) => r._id === id));
}

/** Refuses (400) a receiver id the tenant does not have (the project form's check). */
export async function assertTenantReceivers(handle: Handle, receiverIds: string[]): Promise<void> {
  const found = await handle
    .collection<Receiver>(RECEIVERS)
    .find({ _id: { $in: receiverIds } }, { projection: { _id: 1 } });
  const unknown = receiverIds.find((id) => !found.some((r) => r._id === id));
  if (unknown) throw errors.badRequest('submissions.receiverUnknown', { id: unknown });
}

/** A case plan names its receiver by the receiver's id, name or identifier (N.1.4). */
export function planNames(receiver: StoredDoc<Receiver>, named: unknown): boolean {
  if (typeof named !== 'string' || !named.trim()) return false;
  const wanted = named.trim().toLowerCase();
  return [receiver._id, receiver.name, receiver.receiverIdentifier].some((id) => id.toLowerCase() === wanted);
}

export function caseProjectId(doc: CaseDocument): string | null {
  const id = ((doc.report ?? {}) as Doc).studyProjectId;
  return typeof id === 'string' && id ? id : null;
}

/** Each receiver's proposal for the case as it is now, with the user's decision and what was sent. */
export function receiverPlans(
  doc: CaseDocument,
  receivers: StoredDoc<Receiver>[],
  transmissions: KeptTransmission[],
): ReceiverPlan[] {
  const facts = caseFacts(doc);
  const version = doc.state.version;
  const casePlans = (Array.isArray(doc.submissionPlans) ? doc.submissionPlans : []) as Doc[];
  return receivers.map((receiver) => {
    const kept = transmissions.filter((t) => t.receiverId === receiver._id && DELIVERED.has(t.status));
    const reportedBefore = kept.some((t) => t.version !== null && t.version < version);
    const rule = {
      receiverId: receiver._id,
      authority: receiver.authority ?? null,
      profile: receiver.profile,
    };
    return {
      receiverId: receiver._id,
      receiverName: receiver.name,
      proposal: evaluateFacts(rulesForReceiver(rule), facts, rule, { reportedBefore }),
      declined: casePlans.some((p) => planNames(receiver, p.receiverId) && p.isSubmit === false),
      sent: kept.some((t) => t.version === null || t.version === version),
    };
  });
}

/** The deadline source the cases module asks on every save and transmission (provideCaseDeadline). */
export async function submissionDeadline(
  handle: Handle,
  caseId: string,
  doc: CaseDocument,
): Promise<CaseDeadline | null> {
  const receivers = await projectReceivers(handle, caseProjectId(doc));
  if (!receivers.length) return null;
  const summary = await handle
    .collection<{ transmission?: { receivers: KeptTransmission[] } | null }>(caseCollectionNames.summaries)
    .findOne({ _id: caseId }, { projection: { transmission: 1 } });
  const plans = receiverPlans(doc, receivers, summary?.transmission?.receivers ?? []);
  return caseDeadline(plans, (doc.state.validity ?? 'valid') === 'valid');
}

/**
 * The due date of each report a case delivered (cases/submitted.ts: pooled analysis's on-time
 * count): the plan whose export carried it, else the case's plan to that receiver for that version
 * (submitting, not a nullification or amendment; the earliest when several); null without one.
 */
export const reportDueDates: ReportDueDates = async (handle, caseId, reports) => {
  let plans: StoredDoc<SubmissionPlan>[];
  try {
    plans = await handle
      .collection<SubmissionPlan>(S.plans)
      .find(
        { caseId, isSubmit: true },
        { projection: { receiverId: 1, caseVersion: 1, dueDate: 1, exportId: 1, correction: 1 } },
      );
  } catch (error) {
    // A platform without this module's collections (another module's test rig) has no plans.
    if (error instanceof InvalidStoreRequestError) return reports.map(() => null);
    throw error;
  }
  return reports.map((report) => {
    const carried = plans.find((p) => p.exportId && p.exportId === report.exportId);
    if (carried) return carried.dueDate ?? null;
    const due = plans
      .filter(
        (p) =>
          p.receiverId === report.receiverId &&
          (report.version === null || p.caseVersion === report.version) &&
          !p.correction &&
          p.dueDate,
      )
      .map((p) => p.dueDate!)
      .sort();
    return due[0] ?? null;
  });
};
