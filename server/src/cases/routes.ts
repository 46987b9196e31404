/** The routes of case management (`/api/cases`), each with its permission from schemas/menus. */
import { callerOf } from '../http';
import type { Context } from 'hono';
import { availableActions } from '@pv/engine';
import type { AppEnv } from '../http';
import { requirePrincipal, tenantHandle } from '../http';
import { AppError, errors } from '../http';
import { warning } from '../http';
import type { JsonSchema } from '../http';
import type { ModuleRouter } from '../http';
import { callerMay } from '../http';
import { projectWorkflow } from '../workflow';
import type { Signer } from '../workflow';
import type { ActionEffectFn, ActionPlanner, ActionRequest } from './actions';
import { caseFacts, moveEffect, projectOf, runCaseAction } from './actions';
import { caseContent } from './document';
import { C } from './collections';
import { findDuplicates } from './duplicates';
import type { DuplicateCandidate } from './duplicates';
import type { CaseListQuery } from './list';
import { caseListQuerySchema, listCases, resolveCaseSelection } from './list';
import {
  CASE_OBJECT,
  caseScope,
  emptyScope,
  listScope,
  projectIdOf,
  requireCaseAccess,
  requireCasesAccess,
  scopeIds,
} from './membership';
import { caseView, loadCase } from './persistence';
import type { CreateCaseInput, FollowUpInput, SaveInput } from './service';
import {
  backEffect,
  checkStoredCase,
  copyCase,
  createCase,
  deleteEffect,
  editRefusalOf,
  featuresOf,
  followUpEffect,
  markCompletedEffect,
  markInvalidEffect,
  restoreEffect,
  saveCase,
} from './service';
import { FIELD_CORRECTIONS_SCHEMA } from './save-participants';
import {
  FREEZE_PERMISSION,
  freezeEffect,
  freezeProjects,
  freezePlanner,
  frozenRefusal,
  isFrozen,
  withFreezeActions,
} from './freeze';
import { caseTransmission } from './transmission';
import { handlerRefusal } from './handler';
import type { FreezeAction } from './freeze';
import { changeLog, compareVersions, getVersion, listVersions, workflowHistory } from './versions';

/** Who may try a project's UAT configuration drafts on a case (the configurator's permission). */
const CONFIGURATOR_PERMISSION = 'authoritymanagement:projectInfo:config';
const caseIdParams: JsonSchema = {
  type: 'object',
  required: ['caseId'],
  properties: { caseId: { type: 'string', minLength: 1, maxLength: 64 } },
};
const pageQuery: JsonSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1 },
    size: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
  },
};
const text = (maxLength: number): JsonSchema => ({ type: 'string', maxLength });
const caseIds: JsonSchema = {
  type: 'array',
  items: { type: 'string', minLength: 1, maxLength: 64 },
  maxItems: 500,
};
const listQuerySchema = caseListQuerySchema();

/** Body of an action: what the user chose in its dialog, and the revision they acted on. */
function actionBody(extra: Record<string, JsonSchema> = {}, required: string[] = []): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required,
    properties: {
      rev: { type: 'integer', minimum: 1 },
      toNode: text(40),
      userId: text(64),
      opinion: text(2000),
      password: text(200),
      ...extra,
    },
  };
}

type ActionRoute = {
  path: string;
  action: string;
  permission: string;
  summary: string;
  /** What the action does to the document, given the request body. */
  effect: (body: Record<string, unknown>) => ActionEffectFn;
  body?: JsonSchema;
  /** Maps the body to the workflow's choice (e.g. challenge `kind` -> option). */
  choice?: (body: Record<string, unknown>) => ActionRequest;
};

/** Duplicate candidates of the projects the caller works in only. */
async function visibleCandidates(
  c: Context<AppEnv>,
  candidates: DuplicateCandidate[],
  scope: string[],
): Promise<DuplicateCandidate[]> {
  if (!candidates.length) return candidates;
  const found = await tenantHandle(c)
    .collection(C.cases)
    .find({ _id: { $in: candidates.map((candidate) => candidate.caseId) } }, { projection: { report: 1 } });
  const visible = new Set(
    found.filter((doc) => scope.includes(projectIdOf(doc) ?? '')).map((doc) => String(doc._id)),
  );
  return candidates.filter((candidate) => visible.has(candidate.caseId));
}

const BULK_SUMMARIES = {
  delete:
    'Soft-deletes the selected reports (not at regulatory submission, not locked, not marked completed, not frozen)',
  restore: 'Restores the selected deleted reports to the validity they had',
  freeze: 'Freezes the selected reports (project switch "freeze" on), each with the same optional reason',
  unfreeze: 'Unfreezes the selected frozen reports with a reason',
};

export function caseRoutes(router: ModuleRouter, signer: Signer): void {
  router.route<CreateCaseInput>(
    {
      method: 'post',
      path: '/',
      summary:
        'New report: project, C.1.3 report type and event country are required; the report code (C.1.1) comes from the project generator. Answers the case and its duplicate candidates',
      permission: 'activecase:add',
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          projectId: text(64),
          reportType: { enum: ['1', '2', '3', '4'] },
          happenCountry: { type: 'string', pattern: '^[A-Z]{2}$' },
          hospitalId: text(64),
          document: { type: 'object' },
        },
      },
    },
    (c, { body }) => createCase(callerOf(c), body),
  );

  router.route<CaseListQuery>(
    {
      method: 'post',
      path: '/search',
      summary:
        'Case list: a tab, the filters of schemas/ui/case-list.json by id, sort by a sortable column, page and size',
      permission: 'casemanagement:caseview',
      body: listQuerySchema,
    },
    async (c, { body }) => {
      const scope = await listScope(callerOf(c), 'casemanagement:caseview');
      if (emptyScope(scope))
        return { total: 0, totalCapped: false, page: body?.page ?? 1, size: body?.size ?? 20, items: [] };
      return listCases(tenantHandle(c), body ?? {}, scopeIds(scope));
    },
  );

  router.route<{ document: Record<string, unknown>; excludeCaseId?: string }>(
    {
      method: 'post',
      path: '/duplicates',
      summary:
        'Duplicate candidates of a case being entered or imported: probabilistic match (patient name by characters and pinyin, sex, age, reactions, suspect drugs, onset dates, country, reporter) with score and per-field agree/partial/differ; a shared sender identifier (C.1.1, C.1.8.1, C.1.9.1.r) ranks first',
      permission: 'activecase',
      body: {
        type: 'object',
        required: ['document'],
        additionalProperties: false,
        properties: { document: { type: 'object' }, excludeCaseId: text(64) },
      },
    },
    async (c, { body }) => {
      const scope = await listScope(callerOf(c), 'activecase');
      const candidates = await findDuplicates(tenantHandle(c), body.document, body.excludeCaseId);
      if (scope === null) return { candidates };
      return { candidates: await visibleCandidates(c, candidates, scope) };
    },
  );

  router.route<{ caseIds?: string[]; query?: CaseListQuery }>(
    {
      method: 'post',
      path: '/selection',
      summary:
        'Resolves an export selection (explicit case ids or a list query) to case ids; nothing selected is refused',
      permission: 'casemanagement:caseview:export',
      body: { type: 'object', additionalProperties: false, properties: { caseIds, query: listQuerySchema } },
    },
    async (c, { body }) => {
      const scope = await listScope(callerOf(c), 'casemanagement:caseview:export');
      if (body.caseIds?.length)
        await requireCasesAccess(callerOf(c), body.caseIds, 'casemanagement:caseview:export');
      else if (emptyScope(scope)) throw errors.badRequest('cases.exportNotSelected');
      return { caseIds: await resolveCaseSelection(tenantHandle(c), body, scopeIds(scope)) };
    },
  );

  router.route<{ caseIds?: string[] }>(
    {
      method: 'post',
      path: '/copy',
      summary: 'Copies the selected report into a new report at data entry with a new report code',
      permission: 'activecase:copy',
      body: { type: 'object', additionalProperties: false, properties: { caseIds } },
    },
    async (c, { body }) => {
      if (!body.caseIds?.length) throw errors.badRequest('cases.selectReportToCopy');
      if (body.caseIds.length > 1) throw errors.badRequest('cases.copyOneAtATime');
      return copyCase(callerOf(c), body.caseIds[0]!);
    },
  );

  const bulk = (
    action: keyof typeof BULK_SUMMARIES,
    permission: string,
    effect: ActionEffectFn,
    empty: string,
    planner?: ActionPlanner,
  ) =>
    router.route<{ caseIds?: string[]; reason?: string }>(
      {
        method: 'post',
        path: `/${action}`,
        summary: BULK_SUMMARIES[action],
        permission,
        body: { type: 'object', additionalProperties: false, properties: { caseIds, reason: text(2000) } },
      },
      async (c, { body }) => {
        if (!body.caseIds?.length) throw errors.badRequest(empty);
        const results: { caseId: string; ok: boolean; msg: string | null }[] = [];
        for (const caseId of body.caseIds) {
          try {
            await runCaseAction(
              callerOf(c),
              signer,
              caseId,
              action,
              body.reason ? { opinion: body.reason } : {},
              effect,
              planner,
            );
            results.push({ caseId, ok: true, msg: null });
          } catch (error) {
            if (!(error instanceof AppError) || body.caseIds.length === 1) throw error;
            results.push({ caseId, ok: false, msg: c.get('t')(error.messageKey, error.params) });
          }
        }
        const failed = results.filter((r) => !r.ok).length;
        return failed
          ? warning(c, 'cases.partlyDone', { done: results.length - failed, failed }, { results })
          : { results };
      },
    );
  bulk('delete', 'activecase:delete', deleteEffect, 'cases.noDataSelectedDelete');
  bulk('restore', 'activecase:restore', restoreEffect, 'cases.selectAtLeastOne');
  for (const action of ['freeze', 'unfreeze'] as const)
    bulk(action, FREEZE_PERMISSION, freezeEffect(action), 'cases.selectAtLeastOne', freezePlanner(action));

  router.route(
    {
      method: 'get',
      path: '/freeze/projects',
      summary:
        "The caller's projects whose switch lets cases be frozen now (the list offers freezing a selection there)",
      permission: FREEZE_PERMISSION,
    },
    async (c) => {
      const scope = await listScope(callerOf(c), FREEZE_PERMISSION);
      return { projectIds: emptyScope(scope) ? [] : await freezeProjects(tenantHandle(c), scope) };
    },
  );

  router.route(
    {
      method: 'get',
      path: '/:caseId',
      object: CASE_OBJECT,
      summary: 'The case document with its revision and the header actions the workflow allows now',
      permission: 'activecase',
      params: caseIdParams,
    },
    async (c, { params }) => {
      await requireCaseAccess(callerOf(c), params.caseId);
      const handle = tenantHandle(c);
      const stored = await loadCase(handle, params.caseId);
      const doc = caseContent(stored);
      const project = await projectOf(handle, doc);
      const workflow = projectWorkflow(project?.workflowOverride);
      // A frozen case, or the project's switches, may refuse this user's edits: the page is then read-only.
      const projectId = (doc.report as { studyProjectId?: string } | undefined)?.studyProjectId;
      const features = projectId ? await featuresOf(handle, projectId) : undefined;
      const frozen = frozenRefusal(doc, 'save');
      const refusal = frozen
        ? { messageKey: frozen, params: {} }
        : await editRefusalOf(handle, doc, requirePrincipal(c).userId, c.get('deps').clock.now(), features);
      const freezeSwitch = features?.freeze === true;
      // The handler's actions are offered to the case's handler only (or per "edit others' data").
      const notHandler = await handlerRefusal(
        {
          handle,
          userId: requirePrincipal(c).userId,
          holds: (permission, scope) => callerMay(c, permission, scope),
        },
        doc,
        features,
      );
      const actions = availableActions(workflow, caseFacts(doc, project)).map((action) => {
        if (action.action === 'save' && action.allowed && refusal)
          return { ...action, allowed: false, messageKey: refusal.messageKey };
        if (action.allowed && notHandler && workflow.actions[action.action]?.byHandler)
          return { ...action, allowed: false, messageKey: notHandler.messageKey };
        return action;
      });
      return {
        ...caseView(stored),
        actions: withFreezeActions(actions, doc, freezeSwitch),
        frozen: isFrozen(doc),
        // The E2B transmissions of the case per receiver (null before any was sent).
        transmission: await caseTransmission(handle, params.caseId, doc),
        editRefusal: refusal ? c.get('t')(refusal.messageKey, refusal.params) : null,
        node: { id: doc.state.workflowNode, label: workflow.nodes[doc.state.workflowNode]?.label ?? null },
        // The project's nodes by id, so the action dialog names nodes a project added.
        nodeLabels: Object.fromEntries(
          Object.entries(workflow.nodes).map(([id, node]) => [id, node.label ?? null]),
        ),
      };
    },
  );

  router.route<SaveInput>(
    {
      method: 'put',
      path: '/:caseId',
      object: CASE_OBJECT,
      summary:
        'Saves the case from the revision read (`rev`). 409 with the other users\u2019 field changes when stale; 400 "Please check the form data." on wrong values; code 500010 asking confirmation when mandatory values are missing (resend with confirmMissing)',
      permission: 'activecase:save',
      params: caseIdParams,
      body: {
        type: 'object',
        required: ['rev', 'document'],
        additionalProperties: false,
        properties: {
          rev: { type: 'integer', minimum: 1 },
          document: { type: 'object' },
          confirmMissing: { type: 'boolean' },
          reason: text(2000),
          // Data QC: the reason of each changed field (the queries module refuses a change without one).
          corrections: FIELD_CORRECTIONS_SCHEMA,
        },
      },
    },
    (c, { params, body }) => saveCase(callerOf(c), params.caseId, body),
  );

  router.route<{ document?: Record<string, unknown> }, { environment?: 'UAT' | 'PRO' }>(
    {
      method: 'post',
      path: '/:caseId/check',
      object: CASE_OBJECT,
      summary:
        "Full validation report of the stored case (or of the unsaved draft given), grouped by tab. `environment=UAT` tries the project's UAT configuration drafts (configurators only; nothing is stored); saving and submitting always check with PRO",
      permission: 'activecase:check',
      params: caseIdParams,
      query: { type: 'object', properties: { environment: { enum: ['UAT', 'PRO'] } } },
      body: { type: 'object', additionalProperties: false, properties: { document: { type: 'object' } } },
    },
    async (c, { params, body, query }) => {
      const environment = query.environment ?? 'PRO';
      if (environment === 'UAT') {
        // In the case's own project, as the route's permission.
        const scope = await caseScope(tenantHandle(c), params.caseId);
        if (!scope || !(await callerMay(c, CONFIGURATOR_PERMISSION, scope)))
          throw errors.forbidden('cases.uatCheckForbidden');
      }
      return checkStoredCase(callerOf(c), params.caseId, body?.document, environment);
    },
  );

  const actions: ActionRoute[] = [
    {
      path: 'submit',
      action: 'submit',
      permission: 'activecase:submit',
      summary: 'Submits the case to a chosen next node and user, with electronic signature (password)',
      effect: () => moveEffect,
    },
    {
      path: 'back',
      action: 'back',
      permission: 'activecase:back',
      summary:
        'Sends the case back to a chosen earlier node, with an opinion; the user defaults to who last handled that node',
      effect: () => backEffect,
    },
    {
      path: 'challenge',
      action: 'challenge',
      permission: 'activecase:challenge',
      summary:
        'Challenges the case (internal or external) to a user with an opinion; the case stays where it is',
      effect: () => () => ({ doc: null }),
      body: actionBody({ kind: { enum: ['internal', 'external'] } }),
      choice: (body) => ({ ...body, option: body.kind as string | undefined }),
    },
    {
      path: 'create-plan',
      action: 'createPlan',
      permission: 'submittransfer:supervisionSubmit:createPlan',
      summary:
        'Submission plan created: passes the case to the plan approver (the submission information must be saved)',
      effect: () => moveEffect,
    },
    {
      path: 'approve-plan',
      action: 'approvePlan',
      permission: 'activecase:approveSubmissionPlan',
      summary:
        'Approves (to transmission) or rejects (back to plan creation) the submission plan, with electronic signature',
      effect: () => moveEffect,
      body: actionBody({ result: { enum: ['agree', 'disagree'] } }),
      choice: (body) => ({ ...body, option: body.result as string | undefined }),
    },
    {
      path: 'mark-completed',
      action: 'markCompleted',
      permission: 'activecase:markCompleted',
      summary:
        'Marks the report completed (at regulatory submission, without errors); stores an immutable snapshot',
      effect: () => markCompletedEffect,
    },
    {
      path: 'mark-invalid',
      action: 'markInvalid',
      permission: 'activecase:markInvalid',
      summary: 'Marks the report invalid, with a reason (opinion)',
      effect: () => markInvalidEffect,
    },
  ];
  const followUpBody = actionBody(
    { reason: text(2000), latestInformationDate: text(8), pvInformedDate: text(8) },
    [],
  );
  for (const [path, permission] of [
    ['follow-up', 'activecase:followUp'],
    ['follow-up-version', 'activecase:createFollowUpVersion'],
  ] as const) {
    actions.push({
      path,
      action: 'followUp',
      permission,
      summary:
        'Creates the follow-up version of a completed report: a reason and the informed date (C.1.5) are required; the version restarts at the first node',
      body: followUpBody,
      effect: (body) => followUpEffect(body as FollowUpInput),
      choice: (body) => ({ rev: body.rev as number | undefined, opinion: body.reason as string | undefined }),
    });
  }

  for (const route of actions) {
    router.route<Record<string, unknown>>(
      {
        method: 'post',
        path: `/:caseId/${route.path}`,
        object: CASE_OBJECT,
        summary: route.summary,
        permission: route.permission,
        params: caseIdParams,
        body: route.body ?? actionBody(),
      },
      async (c, { params, body }) => {
        const request = route.choice ? route.choice(body ?? {}) : ((body ?? {}) as ActionRequest);
        return runCaseAction(
          callerOf(c),
          signer,
          params.caseId,
          route.action,
          request,
          route.effect(body ?? {}),
        );
      },
    );
  }

  for (const action of ['freeze', 'unfreeze'] as const satisfies FreezeAction[]) {
    router.route<{ rev?: number; reason?: string }>(
      {
        method: 'post',
        path: `/:caseId/${action}`,
        object: CASE_OBJECT,
        summary:
          action === 'freeze'
            ? 'Freezes the case (project switch "freeze" on): nobody may edit, submit, send back, delete or complete it until it is unfrozen; reading, preview and export stay'
            : 'Unfreezes a frozen case, with a reason (also after the project switch was turned off)',
        permission: FREEZE_PERMISSION,
        params: caseIdParams,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { rev: { type: 'integer', minimum: 1 }, reason: text(2000) },
        },
      },
      (c, { params, body }) =>
        runCaseAction(
          callerOf(c),
          signer,
          params.caseId,
          action,
          {
            ...(body?.rev !== undefined ? { rev: body.rev } : {}),
            ...(body?.reason ? { opinion: body.reason } : {}),
          },
          freezeEffect(action),
          freezePlanner(action),
        ),
    );
  }

  router.route(
    {
      method: 'get',
      path: '/:caseId/workflow-history',
      object: CASE_OBJECT,
      summary:
        'Workflow history: node, result, opinion, processer, next node and processer, time, data version',
      permission: 'activecase:workflowHistory',
      params: caseIdParams,
    },
    async (c, { params }) => {
      await requireCaseAccess(callerOf(c), params.caseId);
      return { items: await workflowHistory(tenantHandle(c), params.caseId) };
    },
  );

  router.route(
    {
      method: 'get',
      path: '/:caseId/versions',
      object: CASE_OBJECT,
      summary: 'History versions: the immutable snapshots taken on each submit and on completion',
      permission: 'activecase:historyVersions',
      params: caseIdParams,
    },
    async (c, { params }) => {
      await requireCaseAccess(callerOf(c), params.caseId);
      return { items: await listVersions(tenantHandle(c), params.caseId) };
    },
  );

  router.route<unknown, Record<string, unknown>, { caseId: string; versionId: string }>(
    {
      method: 'get',
      path: '/:caseId/versions/:versionId',
      object: CASE_OBJECT,
      summary: 'One history version with its document (read-only preview, /previewHistoryVersion)',
      permission: 'previewHistoryVersion',
      params: {
        type: 'object',
        required: ['caseId', 'versionId'],
        properties: { caseId: text(64), versionId: text(64) },
      },
    },
    async (c, { params }) => {
      await requireCaseAccess(callerOf(c), params.caseId);
      return getVersion(tenantHandle(c), params.caseId, params.versionId);
    },
  );

  router.route<unknown, { from: string; to: string }, { caseId: string }>(
    {
      method: 'get',
      path: '/:caseId/compare',
      object: CASE_OBJECT,
      summary:
        'Field-by-field comparison of two versions (snapshot ids, or `current`), each change with its E2B id and label',
      permission: 'activecase:historyVersions',
      params: caseIdParams,
      query: {
        type: 'object',
        required: ['from', 'to'],
        properties: { from: text(64), to: text(64) },
      },
    },
    async (c, { params, query }) => {
      await requireCaseAccess(callerOf(c), params.caseId);
      return compareVersions(tenantHandle(c), params.caseId, query.from, query.to);
    },
  );

  router.route<unknown, { page: number; size: number }, { caseId: string }>(
    {
      method: 'get',
      path: '/:caseId/change-log',
      object: CASE_OBJECT,
      summary:
        'Data change log of the case from the audit trail: who, when, field (E2B id), before, after, reason; newest first',
      permission: 'checklog:logHistory',
      params: caseIdParams,
      query: pageQuery,
    },
    async (c, { params, query }) => {
      await requireCaseAccess(callerOf(c), params.caseId);
      return changeLog(tenantHandle(c), params.caseId, query);
    },
  );
}
