/**
 * The routes of unblinding (`/api/unblinding`): the blinding list of a project (upload, versions,
 * rows, reads, template), the applications of a case (apply, approve, handle, the case header's
 * state) and the list of applications (/casemanagement/unblindingManagement) with its counts.
 */
import type { Caller, ModuleRouter, RouteHandler } from '../http';
import type { JsonSchema } from '../http';
import type { PageQuery } from '../http';
import { PROJECT_OBJECT, callerOf, errors, pageOptions, pageQuery, timeBound } from '../http';
import { CASE_OBJECT, emptyScope, listScope, requireProjectMember, scopeIds } from '../cases';
import type { Signer } from '../workflow';
import { PROJECTS } from '../projects';
import type { Project } from '../projects';
import type { Filter } from '../store';
import type { ApplyInput, ApproveInput, UnblindingApplication } from './applications';
import {
  applicationView,
  apply,
  approve,
  caseBlinding,
  handleApplication,
  PERMISSIONS,
  STATES,
  unblindingPersons,
} from './applications';
import { listReads, listVersions, readListRows, U, uploadList } from './blinding-list';
import { blindingTemplate, LIST_MAX_BYTES } from './workbook';
import type { UnblindingBatch } from './batch';
import { applyBatch, approveBatch, batchView, handleBatch } from './batch';
import type { CaseListQuery } from '../cases';
import { caseListQuerySchema } from '../cases';
import { loadEntity, pickBody } from '../entities';

// Bodies are schemas/entities/unblinding-application.json's declaration (the forms render the same one).
const applicationEntity = loadEntity('unblinding-application');

const id = (max = 64): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });
const projectParams: JsonSchema = {
  type: 'object',
  required: ['projectId'],
  properties: { projectId: id() },
};
const caseParams: JsonSchema = { type: 'object', required: ['caseId'], properties: { caseId: id() } };
const password = { type: 'string', maxLength: 200 };

/**
 * The blinding list and the batches are a project's own: its members only (the project object
 * lets tenant-wide project administrators in, who are no blind owners or unblinders of it).
 */
const member = (c: Parameters<RouteHandler<unknown, unknown, unknown>>[0], projectId: string) =>
  requireProjectMember(callerOf(c), projectId);

export function unblindingRoutes(router: ModuleRouter, signer: Signer): void {
  /** The caller's projects where they hold the permission (a page's project choice). */
  const projectChoice = async (caller: Caller, permission: string) => {
    const scope = await listScope(caller, permission);
    if (emptyScope(scope)) return { items: [] };
    const projects = await caller.tenant
      .collection<Project>(PROJECTS)
      .find(scope === null ? {} : { _id: { $in: scopeIds(scope) } }, { sort: { code: 1 }, limit: 500 });
    return {
      items: projects
        .filter((p) => !p.deleted)
        .map((p) => ({ id: p._id, code: p.code, name: p.name, nameEn: p.nameEn ?? p.name })),
    };
  };
  router.route(
    {
      method: 'get',
      path: '/projects',
      summary: "The projects whose blinding list the caller keeps (the blind owner's project choice)",
      permission: PERMISSIONS.blindingList,
    },
    async (c) => projectChoice(callerOf(c), PERMISSIONS.blindingList),
  );
  router.route(
    {
      method: 'get',
      path: '/batch-projects',
      summary: 'The projects where the caller works on batch unblinding (the batch page project choice)',
      permission: PERMISSIONS.batch,
    },
    async (c) => projectChoice(callerOf(c), PERMISSIONS.batch),
  );

  router.route<unknown, Record<string, unknown>, { projectId: string }>(
    {
      method: 'get',
      path: '/projects/:projectId/blinding-list',
      object: PROJECT_OBJECT,
      summary: "The versions of a project's blinding list (file, rows, uploader; never its content)",
      permission: PERMISSIONS.blindingList,
      params: projectParams,
    },
    async (c, { params }) => {
      await member(c, params.projectId);
      return { versions: await listVersions(callerOf(c).tenant, params.projectId) };
    },
  );

  router.route<unknown, { version?: number }, { projectId: string }>(
    {
      method: 'get',
      path: '/projects/:projectId/blinding-list/rows',
      object: PROJECT_OBJECT,
      summary:
        "The rows of a version of the project's blinding list (the current one by default); the read is recorded",
      permission: PERMISSIONS.blindingList,
      params: projectParams,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: { version: { type: 'integer', minimum: 1 } },
      },
    },
    async (c, { params, query }) => {
      await member(c, params.projectId);
      return readListRows(callerOf(c), params.projectId, query.version);
    },
  );

  router.route<unknown, Record<string, unknown>, { projectId: string }>(
    {
      method: 'get',
      path: '/projects/:projectId/blinding-list/reads',
      object: PROJECT_OBJECT,
      summary: "Who read the project's blinding list, when, and for which case",
      permission: PERMISSIONS.blindingList,
      params: projectParams,
    },
    async (c, { params }) => {
      await member(c, params.projectId);
      return { items: await listReads(callerOf(c).tenant, params.projectId) };
    },
  );

  router.route<unknown, Record<string, unknown>, { projectId: string }>(
    {
      method: 'get',
      path: '/projects/:projectId/blinding-list/template',
      object: PROJECT_OBJECT,
      summary: 'The XLSX template of a blinding list (sheets List and Groups), in the caller language',
      permission: PERMISSIONS.blindingList,
      params: projectParams,
      download: true,
    },
    async (c, { params }) => {
      await member(c, params.projectId);
      const caller = callerOf(c);
      const bytes = await blindingTemplate(caller.lang === 'en' ? 'en' : 'zh');
      const name = caller.lang === 'en' ? 'blinding-list-template.xlsx' : encodeURIComponent('盲底模板.xlsx');
      return new Response(new Uint8Array(bytes), {
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-disposition': `attachment; filename*=UTF-8''${name}`,
          'content-length': String(bytes.length),
        },
      });
    },
  );

  router.route<unknown, { fileName?: string }, { projectId: string }>(
    {
      method: 'post',
      path: '/projects/:projectId/blinding-list',
      object: PROJECT_OBJECT,
      summary:
        "Uploads the project's blinding list (XLSX body, name in x-file-name); a valid file becomes the next version, a refused one stores nothing (problems with sheet, row and column in data.problems)",
      permission: PERMISSIONS.blindingList,
      params: projectParams,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: { fileName: { type: 'string', maxLength: 255 } },
      },
      upload: { maxBytes: LIST_MAX_BYTES, contentTypes: ['application/octet-stream', '*/*'] },
    },
    async (c, { params, query }) => {
      await member(c, params.projectId);
      let fileName = query.fileName ?? '';
      try {
        fileName ||= decodeURIComponent(c.req.header('x-file-name') ?? '');
      } catch {
        throw errors.badRequest('common.malformedEncoding');
      }
      if (!fileName.trim()) throw errors.badRequest('server.uploadNoFile');
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      if (!bytes.length) throw errors.badRequest('server.uploadNoFile');
      const stored = await uploadList(callerOf(c), params.projectId, fileName.trim(), bytes);
      return { version: stored.version, rowCount: stored.rowCount, id: stored._id };
    },
  );

  router.route<unknown, Record<string, unknown>, { caseId: string }>(
    {
      method: 'get',
      path: '/cases/:caseId',
      object: CASE_OBJECT,
      summary:
        "The case header's blinding bottom: the case's unblinding applications and their state; the assignment only to those allowed to see it",
      permission: PERMISSIONS.caseHeader,
      params: caseParams,
    },
    async (c, { params }) => caseBlinding(callerOf(c), params.caseId),
  );

  router.route<ApplyInput, Record<string, unknown>, { caseId: string }>(
    {
      method: 'post',
      path: '/cases/:caseId/apply',
      object: CASE_OBJECT,
      summary: 'Applies for the unblinding of a case (reason, description); refused while one is open',
      permission: PERMISSIONS.apply,
      params: caseParams,
      body: pickBody(applicationEntity, ['reason', 'description', 'password']),
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      return applicationView(caller, await apply(caller, signer, params.caseId, body));
    },
  );

  router.route<ApproveInput, Record<string, unknown>, { caseId: string }>(
    {
      method: 'post',
      path: '/cases/:caseId/approve',
      object: CASE_OBJECT,
      summary: "Agrees (naming the unblinding person) or disagrees with the case's open application",
      permission: PERMISSIONS.approve,
      params: caseParams,
      body: pickBody(applicationEntity, ['result', 'opinion', 'unblindingPersonId', 'password'], {
        required: ['result'],
      }),
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      return applicationView(caller, await approve(caller, signer, params.caseId, body));
    },
  );

  router.route<{ password?: string }, Record<string, unknown>, { caseId: string }>(
    {
      method: 'post',
      path: '/cases/:caseId/handle',
      object: CASE_OBJECT,
      summary:
        "The designated unblinding person handles the case's approved application: the assignment is read from the blinding list",
      permission: PERMISSIONS.handle,
      params: caseParams,
      body: { type: 'object', additionalProperties: false, properties: { password } },
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      return applicationView(caller, await handleApplication(caller, signer, params.caseId, body));
    },
  );

  router.route(
    {
      method: 'get',
      path: '/persons',
      summary:
        'The users who may be named the unblinding person: those holding the handling permission in a project the caller approves in',
      permission: PERMISSIONS.approve,
    },
    async (c) => ({ items: await unblindingPersons(callerOf(c)) }),
  );

  // Batch unblinding: one application and one approval for a selection of a project's cases.
  const batchId = { batchId: id() };
  router.route<unknown, Record<string, unknown>, { projectId: string }>(
    {
      method: 'get',
      path: '/projects/:projectId/batches',
      object: PROJECT_OBJECT,
      summary: "A project's batch unblindings, newest first, with the handling job's progress",
      permission: PERMISSIONS.batch,
      params: projectParams,
    },
    async (c, { params }) => {
      await member(c, params.projectId);
      const caller = callerOf(c);
      const docs = await caller.tenant
        .collection<UnblindingBatch>(U.batches)
        .find({ projectId: params.projectId }, { sort: { appliedAt: -1 }, limit: 200 });
      const scope = { projectId: params.projectId };
      const approver = await caller.authorize(PERMISSIONS.approve, scope);
      const handler = await caller.authorize(PERMISSIONS.handle, scope);
      return {
        items: docs.map((doc) => ({
          ...batchView(doc),
          can: {
            approve: approver && doc.status === 'applied',
            handle:
              handler && doc.status === 'approved' && !doc.job && doc.unblindingPersonId === caller.userId,
          },
        })),
      };
    },
  );

  router.route<
    { caseIds?: string[]; query?: CaseListQuery; reason: string; description?: string },
    Record<string, unknown>,
    { projectId: string }
  >(
    {
      method: 'post',
      path: '/projects/:projectId/batches',
      object: PROJECT_OBJECT,
      summary:
        "Applies for the unblinding of a selection of the project's cases (case ids or a case-list query; none: the whole project, at study end)",
      permission: PERMISSIONS.batchRun,
      params: projectParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['reason'],
        properties: {
          caseIds: { type: 'array', items: id(), maxItems: 20_000 },
          query: caseListQuerySchema({ paged: false }),
          reason: { type: 'string', maxLength: 2000 },
          description: { type: 'string', maxLength: 4000 },
        },
      },
      bodyLimit: 1024 * 1024,
    },
    async (c, { params, body }) => {
      await member(c, params.projectId);
      return batchView(await applyBatch(callerOf(c), params.projectId, body));
    },
  );

  router.route<
    { batchId: string; result: 'agree' | 'disagree'; opinion?: string; unblindingPersonId?: string },
    Record<string, unknown>,
    { projectId: string }
  >(
    {
      method: 'post',
      path: '/projects/:projectId/batches/approve',
      object: PROJECT_OBJECT,
      summary: 'Agrees (naming the unblinding person) or disagrees with a batch unblinding',
      permission: PERMISSIONS.approve,
      params: projectParams,
      body: pickBody(applicationEntity, ['result', 'opinion', 'unblindingPersonId'], {
        required: ['batchId', 'result'],
        extra: batchId,
      }),
    },
    async (c, { params, body }) => {
      await member(c, params.projectId);
      return batchView(await approveBatch(callerOf(c), params.projectId, body));
    },
  );

  router.route<{ batchId: string }, Record<string, unknown>, { projectId: string }>(
    {
      method: 'post',
      path: '/projects/:projectId/batches/handle',
      object: PROJECT_OBJECT,
      summary:
        'The designated unblinding person starts the handling of an approved batch: a job unblinds each case (GET the batches for its progress)',
      permission: PERMISSIONS.handle,
      params: projectParams,
      body: { type: 'object', additionalProperties: false, required: ['batchId'], properties: batchId },
    },
    async (c, { params, body }) => {
      await member(c, params.projectId);
      return batchView(await handleBatch(callerOf(c), params.projectId, body.batchId));
    },
  );

  type ListQuery = PageQuery & {
    status?: string;
    projectId?: string;
    applicant?: string;
    reportCode?: string;
    from?: string;
    to?: string;
  };
  const listFilters = {
    status: { enum: ['', ...STATES] },
    projectId: { type: 'string', maxLength: 64 },
    applicant: { type: 'string', maxLength: 100 },
    reportCode: { type: 'string', maxLength: 100 },
    from: timeBound,
    to: timeBound,
  };

  /** The applications of the caller's projects matching the list's declared filters. */
  const scopedFilter = async (caller: Caller, query: Omit<ListQuery, 'page' | 'size'>) => {
    const scope = await listScope(caller, PERMISSIONS.list);
    if (emptyScope(scope)) return null;
    const ids = scopeIds(scope);
    const filter: Filter = {};
    if (ids.length) filter.projectId = { $in: ids };
    if (query.projectId) {
      if (ids.length && !ids.includes(query.projectId)) return null;
      filter.projectId = query.projectId;
    }
    if (query.status) filter.status = query.status;
    if (query.reportCode) filter.reportCode = query.reportCode;
    if (query.applicant) filter.$or = [{ applicantId: query.applicant }, { applicantName: query.applicant }];
    const at: Record<string, string> = {};
    if (query.from) at.$gte = query.from;
    if (query.to) at.$lt = /^\d{4}-\d{2}-\d{2}$/.test(query.to) ? `${query.to}T23:59:59.999Z` : query.to;
    if (Object.keys(at).length) filter.appliedAt = at;
    return filter;
  };

  router.route<unknown, ListQuery>(
    {
      method: 'get',
      path: '/applications',
      summary:
        'Unblinding applications of the caller projects, newest first, filtered by state, project, applicant, report code and application date',
      permission: PERMISSIONS.list,
      query: { type: 'object', additionalProperties: false, properties: { ...pageQuery, ...listFilters } },
    },
    async (c, { query }) => {
      const caller = callerOf(c);
      const filter = await scopedFilter(caller, query);
      if (!filter) return { items: [], total: 0, page: query.page, size: query.size };
      const collection = caller.tenant.collection<UnblindingApplication>(U.applications);
      const [docs, total] = await Promise.all([
        collection.find(filter, { sort: { appliedAt: -1 }, ...pageOptions(query) }),
        collection.count(filter),
      ]);
      const items = [];
      for (const doc of docs) items.push(await applicationView(caller, doc));
      return { items, total, page: query.page, size: query.size };
    },
  );

  router.route<unknown, Record<string, unknown>>(
    {
      method: 'get',
      path: '/applications/counts',
      summary:
        "The workbench block: the caller's projects' applications per state, those waiting for the caller's approval and for the caller's handling",
      permission: PERMISSIONS.list,
    },
    async (c) => {
      const caller = callerOf(c);
      const filter = await scopedFilter(caller, {});
      const byState: Record<string, number> = Object.fromEntries(STATES.map((s) => [s, 0]));
      if (!filter) return { byState, toApprove: 0, toHandle: 0 };
      const collection = caller.tenant.collection<UnblindingApplication>(U.applications);
      for (const state of STATES) byState[state] = await collection.count({ ...filter, status: state });
      const approvable = await listScope(caller, PERMISSIONS.approve);
      const toApprove = emptyScope(approvable)
        ? 0
        : await collection.count({
            ...filter,
            status: 'applied',
            ...(scopeIds(approvable).length ? { projectId: { $in: scopeIds(approvable) } } : {}),
          });
      const toHandle = await collection.count({
        ...filter,
        status: 'approved',
        unblindingPersonId: caller.userId,
      });
      return { byState, toApprove, toHandle };
    },
  );
}
