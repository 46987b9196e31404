/**
 * Coding routes across cases, under /api/dictionaries/coding: the bulk recode of a project's cases
 * to a MedDRA version (preview, then apply; a background task) and the medical review task list.
 */
import { callerOf } from '../http';
import { PROJECT_OBJECT, requireProjectPermission } from '../projects';
import { requirePrincipal, tenantHandle } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import type { JsonSchema } from '../http';
import { viewJob } from '../jobs';
import { medicalReviewTasks } from './coding';
import { RECODE_JOB, jobCallerOf } from './coding-job';
import type { RecodeJobPayload } from './coding-job';
import { MANAGE_PERMISSION } from './routes';
import type { DictionaryService } from './service';

export const REVIEW_TASKS_PERMISSION = 'casemanagement:medicalReviewTasks';

export function codingRoutes(r: ModuleRouter, deps: ModuleDeps, service: DictionaryService): void {
  r.route<{ version: string; apply?: boolean }, unknown, { projectId: string }>(
    {
      method: 'post',
      path: '/coding/projects/:projectId/recode',
      // The project's cases are recoded and saved: the permission is checked in that project.
      object: PROJECT_OBJECT,
      summary:
        "Recodes the coded MedDRA terms of a project's cases to a version, as a background task (GET /api/jobs/:jobId: progress, then the report of what changes per case); with apply, each changed case is saved (refusals reported per case)",
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
    async (c, { params, body }) => {
      const principal = requirePrincipal(c);
      // Refused at once, not in the task: a project the caller does not work in, a version not imported.
      await requireProjectPermission(
        callerOf(c),
        params.projectId,
        MANAGE_PERMISSION,
        'required',
        'cases.notProjectMember',
      );
      await service.resolve(tenantHandle(c), 'meddra', { version: body.version }, c.get('ctx').lang);
      const payload: RecodeJobPayload = {
        projectId: params.projectId,
        version: body.version,
        apply: body.apply === true,
        caller: jobCallerOf(callerOf(c)),
      };
      return viewJob(
        await deps.jobs.enqueue(RECODE_JOB, payload, {
          tenantId: principal.tenantId,
          requestedBy: principal.userId,
          maxAttempts: 1,
        }),
      );
    },
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
      medicalReviewTasks(callerOf(c), service, {
        mine: query.mine === true,
        page: query.page,
        size: query.size,
      }),
  );
}
