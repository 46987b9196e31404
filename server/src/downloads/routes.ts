/** The routes of download tasks (`/api/downloads`), each with its permission from schemas/menus. */
import { DOWNLOAD_TASK_STATUSES } from '@pv/engine';
import { tenantHandle } from '../http';
import { callerOf } from '../http';
import { errors } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import type { JsonSchema } from '../http';
import type { CaseListQuery } from '../cases';
import { caseListQuerySchema } from '../cases';
import { emptyScope, listScope, scopeIds } from '../cases';
import { bodySchema, loadEntity } from '../entities';
import { fileResponse } from '../uploads';
import { BLINDINGS, requireListingBlinding } from '../unblinding';
import type { Blinding } from '../unblinding';
import { LINE_LISTING_COLUMNS, LINE_LISTING_KIND } from './line-listing';
import { deleteTask, listTasks, ownTask, startTask } from './service';
import { LINE_LISTING_TYPES } from '@pv/engine';
import type { LineListingType } from '@pv/engine';
import {
  TEMPLATE_EDIT,
  TEMPLATE_OBJECT,
  TEMPLATE_VIEW,
  catalogueFields,
  copyTemplate,
  createTemplate,
  deleteTemplate,
  listTemplates,
  templateFieldsFor,
  updateTemplate,
} from './templates';
import type { TemplateInput } from './templates';

export const DOWNLOAD_PERMISSIONS = {
  list: 'home:downloadstasks',
  download: 'home:downloadstasks:download',
  delete: 'home:downloadstasks:delete',
  /** Starting a line listing is the case list's export. */
  start: 'casemanagement:caseview:export',
} as const;

// What the case list shows (a line listing takes every row: no paging).
const caseListQuery = caseListQuerySchema({ paged: false });

/** A task as its owner sees it (any declared kind). */
export const taskViewSchema: JsonSchema = {
  type: 'object',
  properties: {
    taskId: { type: 'string' },
    kind: { type: 'string' },
    label: {
      type: 'object',
      properties: { zh: { type: 'string' }, en: { type: 'string' } },
    },
    status: { enum: [...DOWNLOAD_TASK_STATUSES] },
    percent: { type: 'number' },
    fileName: { type: 'string' },
    size: { type: ['integer', 'null'] },
    rows: { type: ['integer', 'null'] },
    requestedAt: { type: 'string' },
    finishedAt: { type: ['string', 'null'] },
    expiresAt: { type: 'string' },
    error: { type: ['string', 'null'] },
  },
};

const taskIdParams: JsonSchema = {
  type: 'object',
  required: ['taskId'],
  properties: { taskId: { type: 'string', minLength: 1, maxLength: 64 } },
};

export function downloadRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  router.route<{ query?: CaseListQuery; columns?: string[]; blinding?: Blinding; templateId?: string }>(
    {
      method: 'post',
      path: '/case-line-listing',
      summary:
        'Starts a download task: an XLSX line listing of every case the case-list query selects (tab, filters, sort; the caller’s projects), with the chosen list columns and headers in the caller’s language',
      permission: DOWNLOAD_PERMISSIONS.start,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          query: caseListQuery,
          columns: {
            type: 'array',
            minItems: 1,
            uniqueItems: true,
            items: { enum: LINE_LISTING_COLUMNS },
          },
          // Unasked: each case unblinded where the caller holds the unblinded-view permission, else blinded.
          blinding: { enum: [...BLINDINGS] },
          // A line-listing template (built-in or of one of the caller's projects) instead of list columns.
          templateId: { type: 'string', minLength: 1, maxLength: 64 },
        },
      },
      response: taskViewSchema,
    },
    async (c, { body }) => {
      // The projects where the caller may start it: a role of the header's project lends nothing to others.
      const scope = await listScope(callerOf(c), DOWNLOAD_PERMISSIONS.start);
      // A user of no project selects nothing; [] would mean every project to the job.
      if (emptyScope(scope)) throw errors.badRequest('downloads.nothingSelected');
      await requireListingBlinding(callerOf(c), scopeIds(scope), body.blinding);
      return startTask(callerOf(c), deps, LINE_LISTING_KIND, {
        query: body.query ?? {},
        projectIds: scopeIds(scope),
        columns: body.columns ?? LINE_LISTING_COLUMNS,
        ...(body.blinding ? { blinding: body.blinding } : {}),
        // The template's fields as they are now: editing it later does not change a running task.
        ...(body.templateId ? { fields: await templateFieldsFor(callerOf(c), body.templateId) } : {}),
      });
    },
  );

  lineListingTemplateRoutes(router);

  router.route<unknown, { page: number; size: number }>(
    {
      method: 'get',
      path: '/tasks',
      summary: 'My download tasks, newest first: status, progress, file name, size, times and expiry',
      permission: DOWNLOAD_PERMISSIONS.list,
      query: {
        type: 'object',
        properties: {
          page: { type: 'integer', minimum: 1, default: 1 },
          size: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        },
      },
    },
    (c, { query }) => listTasks(callerOf(c), deps, query),
  );

  router.route<unknown, unknown, { taskId: string }>(
    {
      method: 'get',
      path: '/tasks/:taskId/file',
      summary: 'Downloads the file of one of my finished download tasks',
      permission: DOWNLOAD_PERMISSIONS.download,
      params: taskIdParams,
      download: true,
    },
    async (c, { params }) => {
      const task = await ownTask(callerOf(c), params.taskId);
      if (!task.fileId) throw errors.badRequest('downloads.notReady');
      if (task.expiresAt <= deps.clock.now().toISOString()) throw errors.notFound('downloads.expired');
      if (!deps.files) throw new Error('the file store is not configured');
      const { info, stream } = await deps.files.forTenant(tenantHandle(c)).getStream(task.fileId);
      return fileResponse(stream, { ...info, fileName: task.fileName });
    },
  );

  router.route<unknown, unknown, { taskId: string }>(
    {
      method: 'delete',
      path: '/tasks/:taskId',
      summary: 'Deletes one of my download tasks and its file (a task still running is stopped)',
      permission: DOWNLOAD_PERMISSIONS.delete,
      params: taskIdParams,
    },
    async (c, { params }) => {
      await deleteTask(callerOf(c), deps, params.taskId);
      return { deleted: true };
    },
  );
}

// The body is the entity's (schemas/entities/line-listing-template.json, the template editor's form);
// an edit keeps the template's project (declared createOnly).
const templateEntity = loadEntity('line-listing-template');
const createBody = bodySchema(templateEntity);
const editBody = bodySchema(templateEntity, { rev: true });

const templateIdParams: JsonSchema = {
  type: 'object',
  required: ['templateId'],
  properties: { templateId: { type: 'string', minLength: 1, maxLength: 64 } },
};

/** Line-listing templates (/api/downloads/line-listing-templates), each checked in its own project. */
function lineListingTemplateRoutes(router: ModuleRouter): void {
  const base = '/line-listing-templates';
  router.route<unknown, { projectId?: string; type?: LineListingType }>(
    {
      method: 'get',
      path: base,
      summary:
        'Line-listing templates: the built-in ones (DSUR serious ADR), then those of the projects where the caller may see them',
      permission: TEMPLATE_VIEW,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          projectId: { type: 'string', minLength: 1, maxLength: 64 },
          type: { enum: [...LINE_LISTING_TYPES] },
        },
      },
    },
    (c, { query }) => listTemplates(callerOf(c), query),
  );
  router.route<unknown, { page?: number; size?: number }>(
    {
      method: 'get',
      path: '/line-listing-fields',
      summary:
        "The line-listing field catalogue's fields in use (the platform's, shared by every tenant): the choices of a template's columns",
      permission: TEMPLATE_VIEW,
      // The generic form's choice loader sends page and size; the catalogue is answered whole.
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          page: { type: 'integer', minimum: 1 },
          size: { type: 'integer', minimum: 1, maximum: 500 },
        },
      },
    },
    (c) => catalogueFields(callerOf(c)),
  );
  router.route<TemplateInput>(
    {
      method: 'post',
      path: base,
      summary:
        "Creates a project's line-listing template: type, name and fields of the line-listing field catalogue in order with zh/en names (duplicates refused)",
      permission: TEMPLATE_EDIT,
      bodyProject: { property: 'projectId', permission: TEMPLATE_EDIT, membership: 'required' },
      body: createBody,
    },
    (c, { body }) => createTemplate(callerOf(c), body),
  );
  router.route<Omit<TemplateInput, 'projectId'> & { rev: number }, unknown, { templateId: string }>(
    {
      method: 'put',
      path: `${base}/:templateId`,
      object: TEMPLATE_OBJECT,
      summary: 'Edits a line-listing template (its project stays; copy it to move it)',
      permission: TEMPLATE_EDIT,
      params: templateIdParams,
      body: editBody,
    },
    (c, { body, params }) => updateTemplate(callerOf(c), params.templateId, body),
  );
  router.route<unknown, unknown, { templateId: string }>(
    {
      method: 'delete',
      path: `${base}/:templateId`,
      object: TEMPLATE_OBJECT,
      summary: 'Deletes a line-listing template',
      permission: TEMPLATE_EDIT,
      params: templateIdParams,
    },
    async (c, { params }) => {
      await deleteTemplate(callerOf(c), params.templateId);
      return { deleted: true };
    },
  );
  router.route<{ projectId: string; name?: string }, unknown, { templateId: string }>(
    {
      method: 'post',
      path: `${base}/:templateId/copy`,
      object: TEMPLATE_OBJECT,
      summary: 'Copies a line-listing template to another project (the target project is required)',
      permission: TEMPLATE_EDIT,
      bodyProject: { property: 'projectId', permission: TEMPLATE_EDIT, membership: 'required' },
      params: templateIdParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['projectId'],
        properties: {
          projectId: { type: 'string', minLength: 1, maxLength: 64 },
          name: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' },
        },
      },
    },
    (c, { body, params }) => copyTemplate(callerOf(c), params.templateId, body),
  );
}
