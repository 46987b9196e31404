/**
 * Unblinding applications (SPEC 1, 3, 4, 5): the workflow of schemas/workflows/unblinding.json run
 * by the engine's machine - an applicant applies for a case (reason, description; one open
 * application per case), the approver agrees or disagrees and names the unblinding person, who
 * handles it: the assignment is read from the project's blinding list into the application and a
 * report snapshot of the case is kept. Each step is a line in the case's workflow history (never
 * naming the assignment: every project member reads the history) and, the collection being
 * audited, in the audit trail.
 *
 * Who sees the revealed assignment: the designated unblinding person of the application, the
 * holders of the approval or the blinding-list permission in the case's project. Everyone else
 * receives the application without it (`assignment: null`, `revealed: false`).
 */
import { availableActions, mergePatch, planAction, unblindingWorkflow } from '@pv/engine';
import type { ActionChoice, PlannedAction, WorkflowDefinition } from '@pv/engine';
import type { Caller } from '../http';
import { listScope, scopeIds } from '../cases';
import { errors } from '../http';
import { caseContent, loadCase, projectIdOf, recordCaseHistoryLine } from '../cases';
import { findProject } from '../projects';
import { C as AuthC } from '../auth';
import type { Handle, StoredDoc } from '../store';
import { DuplicateKeyError } from '../store';
import type { Signer, WorkflowHistoryEntry } from '../workflow';
import { notifyCaseHandedOver } from '../messages';
import type { Assignment } from './blinding-list';
import { callerName, lookupAssignment, U } from './blinding-list';
import type { UnblindingOutcome } from './outcome';
import { outcomeDeclarationOf, unblindDocument } from './outcome';

export const PERMISSIONS = {
  list: 'casemanagement:unblindingManagement',
  apply: 'casemanagement:unblindingManagement:apply',
  approve: 'casemanagement:unblindingManagement:approve',
  handle: 'casemanagement:unblindingManagement:handle',
  blindingList: 'casemanagement:unblindingManagement:blindBottom',
  caseHeader: 'activecase:blindBottom',
  batch: 'casemanagement:batchUnblinding',
  batchRun: 'casemanagement:batchUnblinding:run',
} as const;

export const OPEN_STATES = ['applied', 'approved'] as const;
export const STATES: readonly string[] = unblindingWorkflow.order.filter(
  (n) => n !== unblindingWorkflow.initial,
);

export interface ReportSnapshot {
  at: string;
  type: 'unblinding';
  /** The report code and the case version, as the list shows it. */
  description: string;
  caseVersion: number;
  caseRev: number;
  /** The case document as it was when it was unblinded. */
  document: Record<string, unknown>;
}

/** What an application of one case and a batch share: the application and its approval (SPEC 3). */
export interface ApplicationCommon {
  status: string;
  reason: string;
  description: string;
  applicantId: string;
  applicantName: string;
  appliedAt: string;
  review: {
    result: 'agree' | 'disagree';
    opinion: string | null;
    by: string;
    byName: string;
    at: string;
    signatureId: string | null;
  } | null;
  unblindingPersonId: string | null;
  unblindingPersonName: string | null;
}

export interface UnblindingApplication extends ApplicationCommon {
  caseId: string;
  projectId: string | null;
  reportCode: string;
  /** The case while the application is open, the application's own id once concluded (unique). */
  openKey: string;
  handling: { by: string; byName: string; at: string; signatureId: string | null } | null;
  assignment: Assignment | null;
  snapshot: ReportSnapshot | null;
  /** The case re-assessed with the assignment (drug changes, SUSAR, expedited clocks); none before handling. */
  outcome?: UnblindingOutcome | null;
  batchId: string | null;
}

type StoredApplication = StoredDoc<UnblindingApplication>;

const applications = (handle: Handle) => handle.collection<UnblindingApplication>(U.applications);

/** The unblinding workflow a project runs: the declared one with the project's override (signatures). */
async function workflowOf(handle: Handle, projectId: string | null): Promise<WorkflowDefinition> {
  const project = projectId ? await findProject(handle, projectId) : null;
  const override = (project as { unblindingWorkflowOverride?: unknown } | null)?.unblindingWorkflowOverride;
  return override ? (mergePatch(unblindingWorkflow, override) as WorkflowDefinition) : unblindingWorkflow;
}

/** May the caller see the revealed assignment of this application? */
export async function mayReveal(caller: Caller, app: UnblindingApplication): Promise<boolean> {
  if (app.unblindingPersonId === caller.userId) return true;
  const scope = { projectId: app.projectId };
  return (
    (await caller.authorize(PERMISSIONS.approve, scope)) ||
    (await caller.authorize(PERMISSIONS.blindingList, scope))
  );
}

/** The actions the caller may take on the application now (the list's and the header's buttons). */
async function actionsFor(caller: Caller, app: UnblindingApplication, workflow: WorkflowDefinition) {
  const open = (OPEN_STATES as readonly string[]).includes(app.status);
  const offered: string[] = [];
  for (const action of availableActions(workflow, { node: app.status, openApplication: open })) {
    if (!action.allowed || action.system) continue;
    const permission = workflow.actions[action.action]?.permission;
    if (!permission || !(await caller.authorize(permission, { projectId: app.projectId }))) continue;
    if (action.action === 'handle' && app.unblindingPersonId !== caller.userId) continue;
    offered.push(action.action);
  }
  return offered;
}

/** The actions as a list and as flags (the generic list's row conditions read the flags). */
async function actionsOf(caller: Caller, app: UnblindingApplication, wf: WorkflowDefinition) {
  const actions = await actionsFor(caller, app, wf);
  return { actions, can: { approve: actions.includes('approve'), handle: actions.includes('handle') } };
}

/** An application as the caller may see it. */
export async function applicationView(caller: Caller, app: StoredApplication, workflow?: WorkflowDefinition) {
  const revealed = app.assignment !== null && (await mayReveal(caller, app));
  const wf = workflow ?? (await workflowOf(caller.tenant, app.projectId));
  return {
    id: app._id,
    rev: app.rev,
    caseId: app.caseId,
    projectId: app.projectId,
    reportCode: app.reportCode,
    status: app.status,
    reason: app.reason,
    description: app.description,
    applicantId: app.applicantId,
    applicantName: app.applicantName,
    appliedAt: app.appliedAt,
    review: app.review,
    unblindingPersonId: app.unblindingPersonId,
    unblindingPersonName: app.unblindingPersonName,
    handling: app.handling,
    snapshot: app.snapshot
      ? {
          at: app.snapshot.at,
          type: app.snapshot.type,
          description: app.snapshot.description,
          caseVersion: app.snapshot.caseVersion,
        }
      : null,
    batchId: app.batchId,
    revealed,
    assignment: revealed ? app.assignment : null,
    outcome: revealed ? (app.outcome ?? null) : null,
    ...(await actionsOf(caller, app, wf)),
    signature: Object.fromEntries(
      Object.entries(wf.actions).map(([id, action]) => [id, action.signature === true]),
    ),
  };
}
export type ApplicationView = Awaited<ReturnType<typeof applicationView>>;

/** The case's applications, newest first. */
export async function caseApplications(handle: Handle, caseId: string): Promise<StoredApplication[]> {
  return applications(handle).find({ caseId }, { sort: { appliedAt: -1 }, limit: 100 });
}

/** What the case header's "blinding bottom" shows: the latest application, and what may be done. */
export async function caseBlinding(caller: Caller, caseId: string) {
  const stored = await loadCase(caller.tenant, caseId);
  const projectId = projectIdOf(stored);
  const workflow = await workflowOf(caller.tenant, projectId);
  const all = await caseApplications(caller.tenant, caseId);
  const latest = all[0] ?? null;
  const open = latest !== null && (OPEN_STATES as readonly string[]).includes(latest.status);
  const mayApply =
    !open && (await caller.authorize(PERMISSIONS.apply, { projectId })) ? ['apply'] : ([] as string[]);
  return {
    caseId,
    status: latest?.status ?? unblindingWorkflow.initial,
    canApply: mayApply.length > 0,
    applySignature: workflow.actions.apply?.signature === true,
    applications: await Promise.all(all.map((app) => applicationView(caller, app, workflow))),
  };
}

function refuse(
  plan: { messageKey: string; params: Record<string, string> },
  app?: UnblindingApplication,
  caller?: Caller,
) {
  if (plan.messageKey === 'workflow.noTransition' && app && caller)
    return errors.badRequest('unblinding.notInState', { status: caller.t(`unblinding.state.${app.status}`) });
  return errors.badRequest(plan.messageKey, plan.params);
}

async function sign(
  caller: Caller,
  signer: Signer,
  plan: PlannedAction,
  password: string | undefined,
  caseId: string,
): Promise<string | null> {
  if (!plan.signature) return null;
  if (!password) throw errors.badRequest('workflow.passwordRequired');
  const proof = await signer(caller.deps, caller.principal, password, `unblinding:${plan.action}`, {
    type: 'case',
    id: caseId,
  });
  return proof._id;
}

const actor = (caller: Caller) => ({ userId: caller.userId, name: callerName(caller) });

export interface ApplyInput {
  reason: string;
  description?: string;
  password?: string;
  batchId?: string | null;
}

/** Applies for the unblinding of a case; refused while an application of the case is open. */
export async function apply(caller: Caller, signer: Signer, caseId: string, input: ApplyInput) {
  const handle = caller.tenant;
  const stored = await loadCase(handle, caseId);
  const doc = caseContent(stored);
  const projectId = projectIdOf(stored);
  const workflow = await workflowOf(handle, projectId);
  const open = await applications(handle).findOne({ caseId, status: { $in: [...OPEN_STATES] } });
  const choice: ActionChoice = { opinion: input.reason };
  const plan = planAction(
    workflow,
    'apply',
    { node: workflow.initial, openApplication: open !== null },
    choice,
  );
  if (!plan.ok) {
    if (plan.messageKey === 'workflow.opinionRequired') throw errors.badRequest('unblinding.reasonRequired');
    throw refuse(plan);
  }
  const signatureId = await sign(caller, signer, plan, input.password, caseId);
  const now = caller.clock.now();
  const reportCode = String((doc.report as { reportCode?: string } | undefined)?.reportCode ?? '');
  try {
    return await handle.transaction(async (tx) => {
      const app = await applications(tx).insertOne({
        caseId,
        projectId,
        reportCode,
        status: plan.toNode,
        openKey: caseId,
        reason: input.reason.trim(),
        description: input.description?.trim() ?? '',
        applicantId: caller.userId,
        applicantName: callerName(caller),
        appliedAt: now.toISOString(),
        review: null,
        unblindingPersonId: null,
        unblindingPersonName: null,
        handling: null,
        assignment: null,
        snapshot: null,
        batchId: input.batchId ?? null,
      });
      await recordCaseHistoryLine(
        tx,
        actor(caller),
        {
          caseId,
          action: 'unblindingApply',
          result: plan.result,
          opinion: input.reason,
          signatureId,
          details: { applicationId: app._id, status: plan.toNode, description: app.description },
        },
        now,
      );
      return app;
    });
  } catch (error) {
    // Two applications at once: the unique open key lets one through.
    if (error instanceof DuplicateKeyError) throw errors.badRequest('unblinding.alreadyApplied');
    throw error;
  }
}

/** The case's latest application (the one the approval and the handling act on). */
async function latestOf(handle: Handle, caseId: string): Promise<StoredApplication> {
  const [latest] = await applications(handle).find({ caseId }, { sort: { appliedAt: -1 }, limit: 1 });
  if (!latest) throw errors.badRequest('unblinding.noApplication');
  return latest;
}

/** Moves the application from the state it was read in (409 when someone moved it meanwhile). */
async function move(handle: Handle, app: StoredApplication, set: Partial<UnblindingApplication>) {
  const updated = await applications(handle).updateOne({ _id: app._id, status: app.status }, { $set: set });
  if (!updated) throw errors.conflict('unblinding.moved');
  return updated;
}

export interface ApproveInput {
  result: 'agree' | 'disagree';
  opinion?: string;
  unblindingPersonId?: string;
  password?: string;
}

/** The tenant's user of an account (members and principals name accounts; the user document is the tenant's). */
async function userOf(caller: Caller, accountId: string) {
  const users = caller.tenant.collection<{ name?: string; state?: string }>(AuthC.users);
  const options = { projection: { name: 1, state: 1 } as Record<string, 0 | 1> };
  return (await users.findOne({ accountId }, options)) ?? (await users.findOne({ _id: accountId }, options));
}

/** A user who may handle unblinding in the project (holds the permission there). */
export async function unblindingPersonOf(caller: Caller, userId: string, projectId: string | null) {
  const user = await userOf(caller, userId);
  const principal = { tenantId: caller.principal.tenantId, userId, name: user?.name };
  const authorize = caller.deps.authenticator?.authorize;
  const holds =
    user !== null &&
    user.state !== 'disabled' &&
    authorize !== undefined &&
    (await authorize(principal, PERMISSIONS.handle, { projectId }, { projectId }));
  if (!holds) throw errors.badRequest('unblinding.personNotAllowed', { name: user?.name ?? userId });
  return { id: userId, name: user!.name ?? userId };
}

/**
 * Routes the work the step leaves (a message through the messages module, as a case handed over):
 * the approval to the unblinding person named, the handled case's re-assessment to the approver
 * who asked for it. The message says only what its recipient may read.
 */
async function routeTo(
  caller: Caller,
  app: StoredApplication,
  workflow: WorkflowDefinition,
  step: { action: string; result: string; from: string; to: string; opinion: string | null },
  recipient: { id: string; name: string } | null,
): Promise<void> {
  if (!recipient) return;
  const entry: WorkflowHistoryEntry = {
    caseId: app.caseId,
    reportCode: app.reportCode,
    action: step.action,
    result: step.result,
    option: null,
    node: step.from,
    opinion: step.opinion,
    processerId: caller.userId,
    processerName: callerName(caller),
    nextNode: step.to,
    nextProcesserId: recipient.id,
    nextProcesserName: recipient.name,
    at: caller.clock.now().toISOString(),
    dataVersion: { version: app.snapshot?.caseVersion ?? 0, rev: app.snapshot?.caseRev ?? 0 },
    signatureId: null,
  };
  await notifyCaseHandedOver(caller, entry, workflow);
}

/** The approver agrees (naming the unblinding person) or disagrees. */
export async function approve(caller: Caller, signer: Signer, caseId: string, input: ApproveInput) {
  const handle = caller.tenant;
  const app = await latestOf(handle, caseId);
  const workflow = await workflowOf(handle, app.projectId);
  const plan = planAction(workflow, 'approve', { node: app.status }, { option: input.result });
  if (!plan.ok) throw refuse(plan, app, caller);
  let person: { id: string; name: string } | null = null;
  if (input.result === 'agree') {
    if (!input.unblindingPersonId) throw errors.badRequest('unblinding.personRequired');
    person = await unblindingPersonOf(caller, input.unblindingPersonId, app.projectId);
  }
  const signatureId = await sign(caller, signer, plan, input.password, caseId);
  const now = caller.clock.now();
  const approved = await handle.transaction(async (tx) => {
    const moved = await move(tx, app, {
      status: plan.toNode,
      openKey: plan.toNode === 'rejected' ? app._id : app.openKey,
      review: {
        result: input.result,
        opinion: input.opinion?.trim() || null,
        by: caller.userId,
        byName: callerName(caller),
        at: now.toISOString(),
        signatureId,
      },
      unblindingPersonId: person?.id ?? null,
      unblindingPersonName: person?.name ?? null,
    });
    await recordCaseHistoryLine(
      tx,
      actor(caller),
      {
        caseId,
        action: 'unblindingApprove',
        result: plan.result,
        option: input.result,
        opinion: input.opinion ?? null,
        signatureId,
        nextProcesserId: person?.id ?? null,
        nextProcesserName: person?.name ?? null,
        details: { applicationId: app._id, status: plan.toNode },
      },
      now,
    );
    return moved;
  });
  const step = { action: 'approve', result: plan.result, from: app.status, to: plan.toNode, opinion: null };
  // Agreed: to the unblinding person; rejected: back to the applicant.
  const applicant = { id: app.applicantId, name: app.applicantName };
  await routeTo(caller, approved, workflow, step, person ?? applicant);
  return approved;
}

/**
 * The designated unblinding person handles the application: the assignment is read from the
 * current blinding list (a recorded read), a snapshot of the case kept, the application completed.
 */
export async function handleApplication(
  caller: Caller,
  signer: Signer,
  caseId: string,
  input: { password?: string },
  onUnblinded?: (tx: Handle, app: StoredApplication) => Promise<void>,
) {
  const handle = caller.tenant;
  const app = await latestOf(handle, caseId);
  const workflow = await workflowOf(handle, app.projectId);
  const plan = planAction(workflow, 'handle', { node: app.status });
  if (!plan.ok) throw refuse(plan, app, caller);
  if (app.unblindingPersonId !== caller.userId)
    throw errors.forbidden('unblinding.notDesignated', { name: app.unblindingPersonName ?? '' });
  const signatureId = await sign(caller, signer, plan, input.password, caseId);
  const now = caller.clock.now();
  const handled = await handle.transaction(async (tx) => {
    const stored = await loadCase(tx, caseId);
    const doc = caseContent(stored);
    const patient = (doc.patient ?? {}) as { subjectNumber?: string; investigationNumber?: string };
    const assignment = await lookupAssignment(tx, caller, app.projectId ?? '', {
      caseId,
      reportCode: app.reportCode,
      numbers: [patient.subjectNumber ?? '', patient.investigationNumber ?? ''],
    });
    const snapshot: ReportSnapshot = {
      at: now.toISOString(),
      type: 'unblinding',
      description: `${app.reportCode} V${doc.state.version}`,
      caseVersion: doc.state.version,
      caseRev: stored.rev,
      document: doc,
    };
    const declaration = outcomeDeclarationOf(await findProject(tx, app.projectId ?? ''));
    const { outcome } = unblindDocument(doc, assignment, declaration);
    const moved = await move(tx, app, {
      status: plan.toNode,
      openKey: app._id,
      assignment,
      snapshot,
      outcome,
      handling: { by: caller.userId, byName: callerName(caller), at: now.toISOString(), signatureId },
    });
    await recordCaseHistoryLine(
      tx,
      actor(caller),
      {
        caseId,
        action: 'unblindingHandle',
        result: plan.result,
        signatureId,
        // Re-assessed, without the result: every project member reads the history.
        details: {
          applicationId: app._id,
          status: plan.toNode,
          snapshotVersion: doc.state.version,
          reassessed: true,
        },
      },
      now,
    );
    if (onUnblinded) await onUnblinded(tx, moved);
    return moved;
  });
  // The approver (who may read the assignment) gets the re-assessment: the declared reason.
  const reason = handled.outcome?.reason;
  await routeTo(
    caller,
    handled,
    workflow,
    {
      action: 'handle',
      result: plan.result,
      from: app.status,
      to: plan.toNode,
      opinion: reason ? `${reason.zh} / ${reason.en}` : null,
    },
    handled.review ? { id: handled.review.by, name: handled.review.byName } : null,
  );
  return handled;
}

/**
 * Users who may be named the unblinding person: members of the projects the caller approves in who
 * hold the handling permission there (the approval checks the case's own project again).
 */
export async function unblindingPersons(caller: Caller): Promise<{ id: string; name: string }[]> {
  const scope = await listScope(caller, PERMISSIONS.approve);
  const members = await caller.tenant
    .collection<{ userId: string; projectId: string }>(AuthC.projectMembers)
    .find(scope === null ? {} : { projectId: { $in: scopeIds(scope) } }, { limit: 2000 });
  const authorize = caller.deps.authenticator?.authorize;
  if (!authorize) return [];
  const found = new Map<string, string>();
  for (const member of members) {
    if (found.has(member.userId)) continue;
    const user = await userOf(caller, member.userId);
    if (!user || user.state === 'disabled') continue;
    const principal = { tenantId: caller.principal.tenantId, userId: member.userId, name: user.name };
    const scoped = { projectId: member.projectId };
    if (await authorize(principal, PERMISSIONS.handle, scoped, scoped))
      found.set(member.userId, user.name ?? member.userId);
  }
  return [...found].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}
