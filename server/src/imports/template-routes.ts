/**
 * Import template routes (`/api/imports/templates`): list, read, create, edit, delete and copy to
 * another project. Reads need the line listing menu, writes its template button, each in the
 * template's own project (or, for a create or a copy, in the project the body names).
 */
import { IMPORT_TEMPLATE_KINDS } from '@pv/engine';
import { bodySchema, loadEntity } from '../entities';
import { callerOf } from '../http';
import type { JsonSchema, ModuleRouter } from '../http';
import type { ImportTemplateDoc, TemplateQuery } from './templates';
import {
  TEMPLATE_EDIT,
  TEMPLATE_OBJECT,
  TEMPLATE_VIEW,
  copyTemplate,
  createTemplate,
  deleteTemplate,
  listTemplates,
  loadTemplate,
  templateProjects,
  templateView,
  updateTemplate,
} from './templates';

const entity = loadEntity('import-template');
const params: JsonSchema = {
  type: 'object',
  required: ['templateId'],
  properties: { templateId: { type: 'string', minLength: 1, maxLength: 64 } },
};
type ObjectBody = { required: string[]; properties: Record<string, JsonSchema> } & Record<string, unknown>;
const edit = bodySchema(entity, { rev: true }) as ObjectBody;
const { projectId: _project, ...editable } = edit.properties;
// An edit keeps the template's project: the body does not name one.
const updateBody: JsonSchema = {
  ...edit,
  required: edit.required.filter((name) => name !== 'projectId'),
  properties: editable,
};

export function templateRoutes(router: ModuleRouter): void {
  router.route<unknown, TemplateQuery>(
    {
      method: 'get',
      path: '/templates',
      summary:
        'Import templates of the projects where the caller may see them, by name (filters: project, kind, name)',
      permission: TEMPLATE_VIEW,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          page: { type: 'integer', minimum: 1, default: 1 },
          size: { type: 'integer', minimum: 1, maximum: 200, default: 20 },
          projectId: { type: 'string', maxLength: 64 },
          kind: { enum: [...IMPORT_TEMPLATE_KINDS] },
          name: { type: 'string', maxLength: 100 },
        },
      },
    },
    (c, { query }) => listTemplates(callerOf(c), query),
  );

  router.route(
    {
      method: 'get',
      path: '/template-projects',
      summary: 'The projects a template may be made in or copied to: those the caller works in (not locked)',
      permission: TEMPLATE_VIEW,
    },
    async (c) => ({ items: await templateProjects(callerOf(c)) }),
  );

  router.route<unknown, unknown, { templateId: string }>(
    {
      method: 'get',
      path: '/templates/:templateId',
      object: TEMPLATE_OBJECT,
      summary: 'One import template with its column mappings, value mappings, date formats and defaults',
      permission: TEMPLATE_VIEW,
      params,
    },
    async (c, { params: p }) => templateView(await loadTemplate(callerOf(c), p.templateId)),
  );

  router.route<ImportTemplateDoc>(
    {
      method: 'post',
      path: '/templates',
      summary:
        'Creates an import template in the project the body names; refused with the column named when a field is unknown, mapped twice or a code is not in its code list',
      permission: TEMPLATE_EDIT,
      bodyProject: { property: 'projectId', permission: TEMPLATE_EDIT, membership: 'required' },
      body: bodySchema(entity),
    },
    (c, { body }) => createTemplate(callerOf(c), body),
  );

  router.route<ImportTemplateDoc & { rev: number }, unknown, { templateId: string }>(
    {
      method: 'put',
      path: '/templates/:templateId',
      object: TEMPLATE_OBJECT,
      summary: 'Edits an import template from the revision read (its project stays; copy it to move it)',
      permission: TEMPLATE_EDIT,
      params,
      body: updateBody,
    },
    (c, { params: p, body }) => updateTemplate(callerOf(c), p.templateId, body),
  );

  router.route<unknown, unknown, { templateId: string }>(
    {
      method: 'delete',
      path: '/templates/:templateId',
      object: TEMPLATE_OBJECT,
      summary: 'Deletes an import template (imports made with it keep their own copy of it)',
      permission: TEMPLATE_EDIT,
      params,
    },
    async (c, { params: p }) => {
      await deleteTemplate(callerOf(c), p.templateId);
      return null;
    },
  );

  router.route<{ projectId: string; name?: string }, unknown, { templateId: string }>(
    {
      method: 'post',
      path: '/templates/:templateId/copy',
      object: TEMPLATE_OBJECT,
      summary: 'Copies an import template to another project (the target project is required)',
      permission: TEMPLATE_VIEW,
      params,
      bodyProject: { property: 'projectId', permission: TEMPLATE_EDIT, membership: 'required' },
      body: {
        type: 'object',
        required: ['projectId'],
        additionalProperties: false,
        properties: {
          projectId: entity.properties.projectId as JsonSchema,
          name: entity.properties.name as JsonSchema,
        },
      },
    },
    (c, { params: p, body }) => copyTemplate(callerOf(c), p.templateId, body),
  );
}
