/** Creating, saving, checking and copying cases, and the effects of the non-moving actions. */
import { recordCheckRun } from './check-runs';
import type { Caller } from '../http';
import { randomUUID } from 'node:crypto';
import { planAction, caseEditRefusal, resolveFeatures } from '@pv/engine';
import type { ConfiguratorProblem, FeatureSwitches } from '@pv/engine';
import { AppError, errors } from '../http';
import { Code } from '../http';
import { nextReportCode } from '../report-codes';
import { projectFeatures } from '../configurator/index';
import type { Handle, TenantHandle } from '../store';
import { InvalidStoreRequestError, RevisionConflictError } from '../store';
import { projectWorkflow } from '../workflow';
import type { WorkflowHistoryEntry } from '../workflow';
import type { ActionEffectFn } from './actions';
import { callerName, caseFacts, projectOf } from './actions';
import { C } from './collections';
import { conflictAnswer, conflictError } from './conflict';
import type { CaseDocument, CaseState } from './document';
import { caseContent, e2bNow, SERVER_STATE_FIELDS } from './document';
import { findDuplicates } from './duplicates';
import { frozenRefusal } from './freeze';
import type { DuplicateCandidate } from './duplicates';
import type { CaseView } from './persistence';
import { caseView, insertCase, loadCase, replaceCase } from './persistence';
import { projectIdOf, requireCaseAccess, requireProjectMember } from './membership';
import { attachmentChanges } from './file-owner';
import { findProject } from './projects';
import type { Project } from './projects';
import { checkCase, groupByTab } from './validation';
import { runSaveParticipants } from './save-participants';
import type { CaseSaveEvent, FieldCorrection } from './save-participants';

type Doc = Record<string, unknown>;

export interface CreateCaseInput {
  projectId?: string;
  reportType?: string;
  happenCountry?: string;
  hospitalId?: string;
  /** Sections entered on the registration page before the first save (state is ignored). */
  document?: Doc;
}

/** After the project is checked: a caller outside it learns nothing from the other selections. */
function requireSelection(input: CreateCaseInput): void {
  if (!input.reportType) throw errors.badRequest('cases.selectReportType');
  if (!input.happenCountry) throw errors.badRequest('cases.selectEventCountry');
}

async function existingProject(handle: Handle, projectId: string): Promise<Project & { _id: string }> {
  const project = await findProject(handle, projectId);
  if (!project) throw errors.badRequest('cases.unknownProject', { id: projectId });
  return project;
}

function freshState(userId: string, userName: string, nowIso: string, initialNode: string): CaseState {
  return {
    workflowNode: initialNode as CaseState['workflowNode'],
    handlerId: userId,
    handlerName: userName,
    isCompleted: false,
    validity: 'valid',
    isLocked: false,
    version: 1,
    versionType: 'initial',
    followUpNumber: 0,
    createdBy: userId,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
}

/** Creates a case in data entry with a new report code; answers it with its duplicate candidates. */
export async function createCase(
  caller: Caller,
  input: CreateCaseInput,
): Promise<{ case: CaseView; duplicates: DuplicateCandidate[] }> {
  if (!input.projectId) throw errors.badRequest('cases.selectProject');
  const principal = caller.principal;
  const handle = caller.tenant;
  const now = caller.clock.now();
  const project = await existingProject(handle, input.projectId);
  await requireProjectMember(caller, project._id);
  // Adding is checked in the project the case goes to, not in the one a header names.
  if (!(await caller.authorize('activecase:add', { projectId: project._id }))) throw errors.forbidden();
  if (project.locked) throw errors.badRequest('cases.projectLocked', { code: project.code });
  requireSelection(input);
  if (input.hospitalId && !project.sites.some((site) => site.id === input.hospitalId)) {
    throw errors.badRequest('cases.unknownSite', { id: input.hospitalId });
  }
  const workflow = projectWorkflow(project.workflowOverride);
  const name = await callerName(handle, principal);
  const given = structuredClone(input.document ?? {});
  const report = (given.report ?? {}) as Doc;
  const id = randomUUID();
  const stored = await handle.transaction(async (tx) => {
    const reportCode = await nextReportCode(tx, project._id, now);
    const doc: CaseDocument = {
      reporters: [],
      sender: {},
      patient: {},
      reactions: [],
      drugs: [],
      narrative: {},
      ...given,
      state: {
        ...freshState(principal.userId, name, now.toISOString(), workflow.initial),
        ...userFlags(given.state),
      },
      report: {
        creationDate: e2bNow(now),
        reportAllCode: reportCode,
        ...report,
        reportCode,
        reportType: input.reportType,
        happenCountry: input.happenCountry,
        studyProjectId: project._id,
        ...(input.hospitalId ? { hospitalId: input.hospitalId } : {}),
      },
    };
    if (project.studyType || project.sponsorStudyNumber) {
      doc.study = {
        ...(project.sponsorStudyNumber ? { sponsorStudyNumber: project.sponsorStudyNumber } : {}),
        ...(project.studyType ? { discoveredEventType: project.studyType } : {}),
        studyNameO: project.name,
        ...((given.study ?? {}) as Doc),
      };
    }
    return insertCase(tx, id, doc);
  });
  const duplicates = await findDuplicates(handle, caseContent(stored), id);
  return { case: caseView(stored), duplicates };
}

/** The state flags the user sets (TEAE, SAE, SAR, SUSAR, AESI); everything else in state is the server's. */
function userFlags(state: unknown): Partial<CaseState> {
  const out: Doc = {};
  if (state && typeof state === 'object') {
    for (const [key, value] of Object.entries(state as Doc)) {
      if (!(SERVER_STATE_FIELDS as readonly string[]).includes(key) && typeof value === 'boolean')
        out[key] = value;
    }
  }
  return out as Partial<CaseState>;
}

/**
 * The project's feature switches (SPEC 6) on editing case data: "edit others' entered data" off
 * refuses anyone but the case's creator; a data edit time limit refuses edits that many hours
 * after entry. Refusals are translated (configurator namespace) and change nothing.
 */
export async function refuseByFeatures(
  handle: TenantHandle,
  doc: CaseDocument,
  userId: string,
  now: Date,
): Promise<void> {
  const refusal = await editRefusalOf(handle, doc, userId, now);
  if (refusal) throw errors.badRequest(refusal.messageKey, refusal.params);
}

/** Why the project's switches refuse this user editing the case now, or null. */
export async function editRefusalOf(
  handle: TenantHandle,
  doc: CaseDocument,
  userId: string,
  now: Date,
  /** The project's switches when the caller has read them already. */
  features?: FeatureSwitches,
): Promise<ConfiguratorProblem | null> {
  const projectId = (doc.report as { studyProjectId?: string } | undefined)?.studyProjectId;
  if (!projectId) return null;
  return caseEditRefusal(features ?? (await featuresOf(handle, projectId)), {
    userId,
    enteredBy: doc.state.createdBy,
    enteredAt: doc.state.createdAt,
    now,
  });
}

/** The switches a project runs with in PRO; the defaults when the configurator is not mounted. */
export async function featuresOf(handle: TenantHandle, projectId: string): Promise<FeatureSwitches> {
  try {
    return await projectFeatures(handle, projectId);
  } catch (error) {
    if (error instanceof InvalidStoreRequestError) return resolveFeatures(null);
    throw error;
  }
}

export interface SaveInput {
  rev: number;
  document: Doc;
  /** The user confirmed saving with mandatory values missing. */
  confirmMissing?: boolean;
  reason?: string;
  /** Reasons per changed field (data QC: SPEC 5, a change needs its reason). */
  corrections?: FieldCorrection[];
}

/** Written in the save's transaction by the module that saves (a query reply linked to its change). */
export type SaveWithin = (tx: Handle, save: CaseSaveEvent) => Promise<void>;

export interface SaveAnswer {
  case: CaseView;
  check: {
    errorCount: number;
    warningCount: number;
    missingCount: number;
    groups: ReturnType<typeof groupByTab>;
  };
}

/**
 * Saves the whole case from the revision the user read. A stale revision is refused with the
 * other users' changes (409); wrong values are refused ('Please check the form data.'); missing
 * mandatory values need the user's confirmation. The report code and the server's state stay.
 */
export async function saveCase(
  caller: Caller,
  caseId: string,
  input: SaveInput,
  within?: SaveWithin,
): Promise<SaveAnswer> {
  await requireCaseAccess(caller, caseId);
  const handle = caller.tenant;
  const now = caller.clock.now();
  const stored = await loadCase(handle, caseId);
  const current = caseContent(stored);
  // Frozen first: the conflict dialog would only lead to the same refusal.
  const frozen = frozenRefusal(current, 'save');
  if (frozen) throw errors.badRequest(frozen);
  // A save never moves the case to another project (its permissions are that project's).
  const projectId = projectIdOf(current);
  const given = (input.document.report as Doc | undefined)?.studyProjectId;
  if (given !== undefined && given !== projectId) throw errors.badRequest('cases.projectCannotChange');
  if (stored.rev !== input.rev) throw conflictError(await conflictAnswer(handle, stored, input.rev));
  const project = await projectOf(handle, current);
  const workflow = projectWorkflow(project?.workflowOverride);
  const plan = planAction(workflow, 'save', caseFacts(current, project));
  if (!plan.ok) throw errors.badRequest(plan.messageKey, plan.params);
  await refuseByFeatures(handle, current, caller.userId, now);

  const next: CaseDocument = {
    ...(structuredClone(input.document) as Doc),
    state: current.state,
  } as CaseDocument;
  next.state = { ...current.state, ...userFlags(input.document.state), updatedAt: now.toISOString() };
  const report = {
    ...((next.report ?? {}) as Doc),
    reportCode: (current.report as Doc).reportCode,
    ...(projectId ? { studyProjectId: projectId } : {}),
  };
  next.report = report;
  const check = await checkCase(handle, next, project?._id ?? null, now);
  await recordCheckRun(caller, { caseId, kind: 'save', doc: next, ...check });
  const groups = groupByTab(check.findings);
  if (check.invalidCount > 0) {
    throw new AppError(Code.badRequest, 'cases.checkFormData', {}, 400, {
      data: { errorCount: check.errorCount, invalidCount: check.invalidCount, groups },
    });
  }
  if (check.missingCount > 0 && input.confirmMissing !== true) {
    // The page asks "save anyway?" and resends with confirmMissing (SPEC 5: confirmation).
    throw new AppError(
      Code.handledByPage,
      'cases.missingMandatoryConfirm',
      { count: check.missingCount },
      400,
      {
        data: { needsConfirmation: true, missingCount: check.missingCount, groups },
      },
    );
  }
  next.state.configurationVersion = String(check.configurationVersion);
  const attachFiles = await attachmentChanges(caller, caseId, current, next);
  try {
    const corrections = input.corrections ?? [];
    // The audit entry keeps the save's reason and each QC-corrected field's own.
    const why = {
      reason: input.reason || undefined,
      fieldReasons: corrections.map(({ pointer, reason }) => ({ pointer, reason })),
    };
    const written = await handle.transaction(async (tx) => {
      const stored = await replaceCase(tx, caseId, next, input.rev, why);
      const event: CaseSaveEvent = {
        caseId,
        before: current,
        after: next,
        rev: stored.rev,
        project,
        corrections,
      };
      await runSaveParticipants(tx, caller, event);
      if (within) await within(tx, event);
      return stored;
    });
    await attachFiles();
    return {
      case: caseView(written),
      check: {
        errorCount: check.errorCount,
        warningCount: check.warningCount,
        missingCount: check.missingCount,
        groups,
      },
    };
  } catch (error) {
    // Someone saved between our read and our write.
    if (error instanceof RevisionConflictError) {
      throw conflictError(await conflictAnswer(handle, await loadCase(handle, caseId), input.rev));
    }
    throw error;
  }
}

/**
 * The full check of a case (stored, or the unsaved draft given), grouped by tab; with PRO, or with
 * the project's UAT drafts when a configurator tries them (the route checks that permission).
 */
export async function checkStoredCase(
  caller: Caller,
  caseId: string,
  draft?: Doc,
  environment: 'UAT' | 'PRO' = 'PRO',
) {
  await requireCaseAccess(caller, caseId);
  const handle = caller.tenant;
  const stored = await loadCase(handle, caseId);
  const current = caseContent(stored);
  const doc = draft ? ({ ...draft, state: current.state } as CaseDocument) : current;
  const project = await projectOf(handle, current);
  const check = await checkCase(handle, doc, project?._id ?? null, caller.clock.now(), environment);
  await recordCheckRun(caller, { caseId, kind: 'manual', doc, ...check });
  return {
    rev: stored.rev,
    environment,
    errorCount: check.errorCount,
    warningCount: check.warningCount,
    missingCount: check.missingCount,
    configurationVersion: check.configurationVersion,
    configurationHash: check.configurationHash,
    groups: groupByTab(check.findings),
  };
}

/** Copies a case into a new one at data entry: new report code, new state, nothing of the workflow. */
export async function copyCase(caller: Caller, caseId: string): Promise<CaseView> {
  const principal = caller.principal;
  const handle = caller.tenant;
  const now = caller.clock.now();
  await requireCaseAccess(caller, caseId);
  const source = caseContent(await loadCase(handle, caseId));
  // The copy lands in the source's project: copying is checked there, not in a header's project.
  if (!(await caller.authorize('activecase:copy', { projectId: projectIdOf(source) })))
    throw errors.forbidden();
  const project = await projectOf(handle, source);
  const plan = planAction(projectWorkflow(project?.workflowOverride), 'copy', caseFacts(source, project));
  if (!plan.ok) throw errors.badRequest(plan.messageKey, plan.params);
  if (project?.locked) throw errors.badRequest('cases.projectLocked', { code: project.code });
  const workflow = projectWorkflow(project?.workflowOverride);
  const name = await callerName(handle, principal);
  const id = randomUUID();
  const stored = await handle.transaction(async (tx) => {
    const reportCode = await nextReportCode(tx, project?._id ?? null, now);
    const doc = structuredClone(source);
    doc.state = {
      ...freshState(principal.userId, name, now.toISOString(), workflow.initial),
      ...userFlags(source.state),
    };
    const report: Doc = {
      ...(doc.report as Doc),
      reportCode,
      reportAllCode: reportCode,
      creationDate: e2bNow(now),
    };
    delete report.linkedReportIds;
    doc.report = report;
    // Submission plans belong to the case they were made for.
    delete doc.submissionPlans;
    return insertCase(tx, id, doc);
  });
  return caseView(stored);
}

const withState = (doc: CaseDocument, state: Partial<CaseState>): CaseDocument => {
  const next = structuredClone(doc);
  next.state = { ...next.state, ...state };
  return next;
};

export const markCompletedEffect: ActionEffectFn = ({ doc }) => ({
  doc: withState(doc, { isCompleted: true }),
});

export const markInvalidEffect: ActionEffectFn = ({ doc }) => ({
  doc: withState(doc, { validity: 'invalid' }),
});

export const deleteEffect: ActionEffectFn = ({ doc }) => ({
  doc: withState(doc, { validity: 'deleted' }),
  details: { validityBefore: doc.state.validity },
});

/** Restores the validity the case had before it was deleted (valid or invalid). */
export const restoreEffect: ActionEffectFn = async ({ doc, stored }, tx) => {
  const deletion = await tx
    .collection<WorkflowHistoryEntry>(C.history)
    .findOne({ caseId: stored._id, action: 'delete' }, { sort: { at: -1, _id: -1 } });
  const before = deletion?.details?.validityBefore === 'invalid' ? 'invalid' : 'valid';
  return { doc: withState(doc, { validity: before }), details: { validityAfter: before } };
};

/** Back to a chosen node: the chosen user, else whoever last handed the case on from that node. */
export const backEffect: ActionEffectFn = async (ctx, tx) => {
  let next = ctx.next;
  if (!next) {
    const last = await tx
      .collection<WorkflowHistoryEntry>(C.history)
      .findOne({ caseId: ctx.stored._id, node: ctx.plan.toNode }, { sort: { at: -1, _id: -1 } });
    if (last) next = { id: last.processerId, name: last.processerName };
  }
  const doc = withState(ctx.doc, { workflowNode: ctx.plan.toNode as CaseState['workflowNode'] });
  if (next) {
    doc.state.handlerId = next.id;
    doc.state.handlerName = next.name;
  }
  return { doc, next };
};

export interface FollowUpInput {
  reason?: string;
  /** C.1.5 of the follow-up: the date the new information was received. */
  latestInformationDate?: string;
  /** When pharmacovigilance was informed, if it differs. */
  pvInformedDate?: string;
}

const E2B_DAY = /^\d{8}$/;

/** Checks a follow-up request before the workflow guards (SPEC 5: a reason and the informed dates). */
export function checkFollowUpInput(input: FollowUpInput, today: string, current: CaseDocument): void {
  if (!input.reason?.trim()) throw errors.badRequest('cases.followUpReasonRequired');
  if (!input.latestInformationDate || !E2B_DAY.test(input.latestInformationDate)) {
    throw errors.badRequest('cases.followUpDatesRequired');
  }
  if (input.pvInformedDate !== undefined && !E2B_DAY.test(input.pvInformedDate)) {
    throw errors.badRequest('cases.followUpDatesRequired');
  }
  if (input.latestInformationDate > today) throw errors.badRequest('cases.followUpDateFuture');
  const previous = String((current.report as Doc | undefined)?.reportDateLast ?? '');
  if (previous && input.latestInformationDate < previous.slice(0, 8)) {
    throw errors.badRequest('cases.followUpDateBeforePrevious', { previous });
  }
}

/** A follow-up version: version + 1, back to the first node with the caller, not completed. */
export function followUpEffect(input: FollowUpInput): ActionEffectFn {
  return ({ doc, workflow, principal, name, now }) => {
    checkFollowUpInput(input, e2bNow(now).slice(0, 8), doc);
    const next = structuredClone(doc);
    next.report = { ...(next.report as Doc), reportDateLast: input.latestInformationDate };
    next.state = {
      ...next.state,
      version: next.state.version + 1,
      versionType: 'followUp',
      followUpNumber: (next.state.followUpNumber ?? 0) + 1,
      followUpReason: input.reason!.trim(),
      isCompleted: false,
      workflowNode: workflow.initial as CaseState['workflowNode'],
      handlerId: principal.userId,
      handlerName: name,
    };
    return {
      doc: next,
      details: {
        reason: input.reason!.trim(),
        latestInformationDate: input.latestInformationDate,
        ...(input.pvInformedDate ? { pvInformedDate: input.pvInformedDate } : {}),
        previousVersion: doc.state.version,
      },
    };
  };
}
