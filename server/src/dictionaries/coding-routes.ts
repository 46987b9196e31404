/**
 * Coding routes across cases, under /api/dictionaries/coding: the bulk recode of a project's cases
 * to a MedDRA version (preview, then apply) and the medical review task list.
 */
import type { ModuleRouter } from '../http/route';
import type { JsonSchema } from '../http/validation';
import { medicalReviewTasks, recodeProject } from './coding';
import { MANAGE_PERMISSION } from './routes';
import type { DictionaryService } from './service';

export const REVIEW_TASKS_PERMISSION = 'casemanagement:medicalReviewTasks';

export function codingRoutes(r: ModuleRouter, service: DictionaryService): void {
  r.route<{ version: string; apply?: boolean }, unknown, { projectId: string }>(
    {
      method: 'post',
      path: '/coding/projects/:projectId/recode',
      summary:
        "Recodes the coded MedDRA terms of a project's cases to a version: a report of what changes per case; with apply, each changed case is saved (refusals reported per case)",
      permission: MANAGE_PERMISSION,
      params: {
        type: 'object',
        required: ['projectId'],
        properties: { projectId: { type: 'string', minLength: 1, maxLength: 200 } },
      } as JsonSchema,
      body: {
        type: 'object',
        required: ['version'],
        additionalProperties: false,
        properties: {
          version: { type: 'string', minLength: 1, maxLength: 40 },
          apply: { type: 'boolean' },
        },
      } as JsonSchema,
    },
    (c, { params, body }) =>
      recodeProject(c, service, params.projectId, { version: body.version, apply: body.apply === true }),
  );

  r.route<unknown, { mine?: boolean; page: number; size: number }>(
    {
      method: 'get',
      path: '/coding/medical-review-tasks',
      summary:
        "Cases waiting at a medical review node (the request's projects; the caller's own with mine=true), with their coding status",
      permission: REVIEW_TASKS_PERMISSION,
      query: {
        type: 'object',
        properties: {
          mine: { type: 'boolean' },
          page: { type: 'integer', minimum: 1, default: 1 },
          size: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        },
      } as JsonSchema,
    },
    (c, { query }) =>
      medicalReviewTasks(c, service, { mine: query.mine === true, page: query.page, size: query.size }),
  );
}
