/**
 * The one dispatcher of case actions (submit, back, challenge, create and approve plan, mark
 * completed, mark invalid, delete, restore, follow-up, copy, save guards): the declared workflow
 * decides (guards, permissions, targets, signature), this applies the plan in one transaction -
 * case, summary, workflow history and snapshot together.
 */
import { recordCheckRun } from './check-runs';
import type { Caller } from '../http';
import { randomUUID } from 'node:crypto';
import { planAction } from '@pv/engine';
import type { Facts, PlannedAction, RefusedAction, WorkflowDefinition } from '@pv/engine';
import type { AuthorizationScope, Principal } from '../http';
import { AppError, errors } from '../http';
import { Code } from '../http';
import type { Handle, StoredDoc, TenantHandle } from '../store';
import type { WorkflowHistoryEntry } from '../workflow';
import { projectWorkflow } from '../workflow';
import type { Signer } from '../workflow';
import { C } from './collections';
import type { CaseDocument } from './document';
import { caseContent } from './document';
import { findHandler } from './directory';
import { frozenRefusal } from './freeze';
import type { Handler } from './directory';
import type { StoredCase } from './persistence';
import { caseView, loadCase, replaceCase } from './persistence';
import { projectIdOf, requireCaseAccess, requireHandlerMember } from './membership';
import { handlerRefusal } from './handler';
import { findProject } from './projects';
import type { Project } from './projects';
import { checkCase, groupByTab } from './validation';
import { notifyCaseHandedOver } from '../messages';
import type { CaseCheck } from './validation';

export interface ActionRequest {
  /** The case revision the user acted on; a newer stored revision refuses the action (409). */
  rev?: number;
  toNode?: string;
  userId?: string;
  opinion?: string;
  option?: string;
  password?: string;
}

export interface CaseSnapshot {
  caseId: string;
  reportCode: string;
  version: number;
  versionType: string;
  kind: 'submitted' | 'completed';
  node: string;
  /** The case revision the snapshot was taken of. */
  caseRev: number;
  at: string;
  by: string;
  byName: string;
  historyId: string | null;
  document: CaseDocument;
}

export interface ActionContext {
  caller: Caller;
  principal: Principal;
  handle: Handle;
  now: Date;
  stored: StoredCase;
  doc: CaseDocument;
  project: StoredDoc<Project> | null;
  workflow: WorkflowDefinition;
  plan: PlannedAction;
  next: Handler | null;
  request: ActionRequest;
  /** The caller's display name. */
  name: string;
}

/** What an action changes: the new document (null: no case write) and history details. */
export interface ActionEffect {
  doc: CaseDocument | null;
  details?: Record<string, unknown>;
  /** Next handler recorded in the history (defaults to the chosen user). */
  next?: Handler | null;
}

export type ActionEffectFn = (ctx: ActionContext, tx: Handle) => Promise<ActionEffect> | ActionEffect;

/**
 * Plans an action the declared workflow does not hold (freeze, unfreeze): what the case, its
 * project's switches and the request allow. The workflow's own actions are planned by the machine.
 */
export type ActionPlanner = (input: {
  handle: TenantHandle;
  doc: CaseDocument;
  facts: Facts;
  request: ActionRequest;
}) => Promise<PlannedAction | RefusedAction>;

export function caseFacts(doc: CaseDocument, project: Project | null): Facts {
  const state = doc.state;
  return {
    node: state.workflowNode,
    validity: state.validity,
    isCompleted: state.isCompleted === true,
    isLocked: state.isLocked === true,
    projectLocked: project?.locked === true,
    versionType: state.versionType,
    hasSubmissionPlans: Array.isArray(doc.submissionPlans) && doc.submissionPlans.length > 0,
  };
}

export async function projectOf(handle: Handle, doc: CaseDocument): Promise<StoredDoc<Project> | null> {
  const projectId = (doc.report as { studyProjectId?: string } | undefined)?.studyProjectId;
  return projectId ? findProject(handle, projectId) : null;
}

/** The display name of the caller (principal name, else the user record, else the id). */
export async function callerName(handle: Handle, principal: Principal): Promise<string> {
  if (typeof principal.name === 'string' && principal.name) return principal.name;
  return (await findHandler(handle, principal.userId))?.name ?? principal.userId;
}

/** The action's and the node's permissions, in the case's own project (never a header's). */
async function authorizeAll(caller: Caller, permissions: string[], scope: AuthorizationScope): Promise<void> {
  for (const permission of permissions) {
    if (!(await caller.authorize(permission, scope))) throw errors.forbidden();
  }
}

function refused(messageKey: string, params: Record<string, string>, check: CaseCheck | null): AppError {
  const data =
    check && check.errorCount > 0
      ? { errorCount: check.errorCount, groups: groupByTab(check.findings) }
      : null;
  return new AppError(Code.badRequest, messageKey, params, 400, { data });
}

export interface ActionOutcome {
  case: ReturnType<typeof caseView>;
  history: StoredDoc<WorkflowHistoryEntry> | null;
  snapshotId: string | null;
}

/** Runs a declared action on a case; `effect` says what the action does to the document. */
export async function runCaseAction(
  caller: Caller,
  signer: Signer,
  caseId: string,
  actionId: string,
  request: ActionRequest,
  effect: ActionEffectFn,
  planner?: ActionPlanner,
): Promise<ActionOutcome> {
  const principal = caller.principal;
  const handle = caller.tenant;
  const deps = caller.deps;
  const now = deps.clock.now();
  await requireCaseAccess(caller, caseId);
  const stored = await loadCase(handle, caseId);
  const doc = caseContent(stored);
  // A frozen case refuses before anything else: refreshing would not help.
  const frozen = frozenRefusal(doc, actionId);
  if (frozen) throw errors.badRequest(frozen);
  if (request.rev !== undefined && request.rev !== stored.rev) {
    throw errors.conflict('cases.staleAction', { rev: stored.rev }, { currentRev: stored.rev });
  }
  const project = await projectOf(handle, doc);
  const workflow = projectWorkflow(project?.workflowOverride);
  // The case's handler first (or the project's "edit others' data" with its permission), then the
  // node's permissions, then the signature.
  if (workflow.actions[actionId]?.byHandler) {
    const notHandler = await handlerRefusal(
      { handle, userId: principal.userId, holds: (permission, scope) => caller.authorize(permission, scope) },
      doc,
    );
    if (notHandler) throw errors.forbidden(notHandler.messageKey, notHandler.params);
  }
  const facts = caseFacts(doc, project);
  let check: CaseCheck | null = null;
  if (workflow.actions[actionId]?.validate) {
    check = await checkCase(handle, doc, project?._id ?? null, now);
    await recordCheckRun(caller, { caseId, kind: actionId, doc, ...check });
    facts.errorCount = check.errorCount;
  }
  const plan = planner
    ? await planner({ handle, doc, facts, request })
    : planAction(workflow, actionId, facts, request);
  if (!plan.ok) throw refused(plan.messageKey, plan.params, check);
  await authorizeAll(caller, plan.permissions, { projectId: projectIdOf(doc) });

  let next: Handler | null = null;
  if (workflow.actions[actionId]?.needsUser) {
    next = await findHandler(handle, request.userId!);
    if (!next) throw errors.badRequest('workflow.userUnknown', { id: request.userId! });
    await requireHandlerMember(caller, next, project?._id ?? null);
  }
  let signatureId: string | null = null;
  if (plan.signature) {
    if (!request.password) throw errors.badRequest('workflow.passwordRequired');
    const proof = await signer(deps, principal, request.password, `case:${actionId}`, {
      type: 'case',
      id: caseId,
    });
    signatureId = proof._id;
  }
  const name = await callerName(handle, principal);
  const ctx: ActionContext = {
    caller,
    principal,
    handle,
    now,
    stored,
    doc,
    project,
    workflow,
    plan,
    next,
    request,
    name,
  };

  const outcome = await handle.transaction(async (tx) => {
    const result = await effect(ctx, tx);
    let written: StoredCase = stored;
    if (result.doc) {
      result.doc.state = { ...result.doc.state, updatedAt: now.toISOString() };
      written = await replaceCase(tx, caseId, result.doc, stored.rev, {
        reason: request.opinion || undefined,
      });
    }
    const after = caseContent(written);
    const reportCode = String((after.report as { reportCode?: string } | undefined)?.reportCode ?? '');
    let history: StoredDoc<WorkflowHistoryEntry> | null = null;
    if (plan.history) {
      const recordedNext = result.next !== undefined ? result.next : next;
      const entry: WorkflowHistoryEntry = {
        caseId,
        reportCode,
        action: actionId,
        result: plan.result,
        option: request.option ?? null,
        node: plan.fromNode,
        opinion: request.opinion?.trim() || null,
        processerId: principal.userId,
        processerName: name,
        nextNode: plan.toNode,
        nextProcesserId: recordedNext?.id ?? null,
        nextProcesserName: recordedNext?.name ?? null,
        at: now.toISOString(),
        dataVersion: { version: after.state.version, rev: written.rev },
        signatureId,
      };
      if (result.details) entry.details = result.details;
      history = await tx
        .collection<WorkflowHistoryEntry>(C.history)
        .insertOne({ _id: randomUUID(), ...entry });
    }
    let snapshotId: string | null = null;
    if (plan.snapshot) {
      const snapshot: CaseSnapshot = {
        caseId,
        reportCode,
        version: after.state.version,
        versionType: after.state.versionType,
        kind: plan.snapshot,
        node: plan.fromNode,
        caseRev: written.rev,
        at: now.toISOString(),
        by: principal.userId,
        byName: name,
        historyId: history?._id ?? null,
        document: after,
      };
      snapshotId = (
        await tx.collection<CaseSnapshot>(C.versions).insertOne({ _id: randomUUID(), ...snapshot })
      )._id;
    }
    return { case: caseView(written), history, snapshotId };
  });
  // The next handler's in-app message, once the action has committed (never undoes it).
  if (outcome.history) await notifyCaseHandedOver(caller, outcome.history, workflow);
  return outcome;
}

/** Effect of the moving actions: the case goes to the planned node and to the chosen handler. */
export const moveEffect: ActionEffectFn = (ctx) => {
  const doc = structuredClone(ctx.doc);
  doc.state = { ...doc.state, workflowNode: ctx.plan.toNode as CaseDocument['state']['workflowNode'] };
  if (ctx.next) {
    doc.state.handlerId = ctx.next.id;
    doc.state.handlerName = ctx.next.name;
  }
  return { doc };
};
