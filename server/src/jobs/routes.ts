import type { Context } from 'hono';
import type { AppEnv, Principal } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import { requirePrincipal } from '../http';
import { errors } from '../http';
import { InvalidStoreRequestError } from '../store';
import { JOB_STATUSES } from '@pv/engine';
import type { JobRecord, JobStatus } from './types';

const jobView = {
  type: 'object',
  properties: {
    jobId: { type: 'string' },
    type: { type: 'string' },
    status: { enum: [...JOB_STATUSES] },
    progress: {
      type: ['object', 'null'],
      properties: { percent: { type: 'number' }, message: { type: 'string' } },
    },
    result: {},
    error: { type: ['string', 'null'] },
    attempts: { type: 'integer' },
    createdAt: { type: 'string' },
    startedAt: { type: ['string', 'null'] },
    finishedAt: { type: ['string', 'null'] },
  },
};

const jobIdParams = {
  type: 'object',
  properties: { jobId: { type: 'string', minLength: 1, maxLength: 200 } },
};

/** What a caller may see of a job: no lease internals, no payload (it may hold other people's data). */
export function viewJob(job: JobRecord) {
  return {
    jobId: job._id,
    type: job.type,
    status: job.status,
    progress: job.progress,
    result: job.result,
    error: job.status === 'failed' ? job.lastError : null,
    attempts: job.attempts,
    createdAt: job.createdAt ?? null,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  };
}

/** Tenant administrator (enterprise or system administrator): sees and cancels the tenant's jobs. */
async function isTenantAdministrator(c: Context<AppEnv>, principal: Principal): Promise<boolean> {
  try {
    return (await c.get('authenticator')?.administers?.(principal)) ?? false;
  } catch (error) {
    // Without the identity modules (tenants, roles) there is no administrator to find.
    if (error instanceof InvalidStoreRequestError) return false;
    throw error;
  }
}

export function jobRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  /**
   * A caller reaches the jobs they started, a tenant administrator every job of the tenant; platform
   * jobs and other tenants' are not exposed here (404), another user's job is refused (403).
   */
  async function findOwnJob(c: Context<AppEnv>, jobId: string) {
    const principal = requirePrincipal(c);
    const job = await deps.jobs.get(jobId);
    if (!job || job.jobTenantId !== principal.tenantId) throw errors.notFound('server.jobNotFound');
    if (job.requestedBy !== principal.userId && !(await isTenantAdministrator(c, principal)))
      throw errors.forbidden('server.jobForbidden');
    return job;
  }

  router.route<unknown, { status?: JobStatus; page: number; size: number }>(
    {
      method: 'get',
      path: '/',
      summary:
        "The caller's background tasks, newest first (a tenant administrator: every task of the tenant)",
      query: {
        type: 'object',
        properties: {
          status: { enum: [...JOB_STATUSES] },
          page: { type: 'integer', minimum: 1, maximum: 10000, default: 1 },
          size: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        },
      },
      response: {
        type: 'object',
        properties: {
          total: { type: 'integer' },
          page: { type: 'integer' },
          size: { type: 'integer' },
          items: { type: 'array', items: jobView },
        },
      },
    },
    async (c, { query }) => {
      const principal = requirePrincipal(c);
      const admin = await isTenantAdministrator(c, principal);
      const { total, items } = await deps.jobs.list({
        tenantId: principal.tenantId,
        ...(admin ? {} : { requestedBy: principal.userId }),
        ...(query.status ? { status: query.status } : {}),
        skip: (query.page - 1) * query.size,
        limit: query.size,
      });
      return { total, page: query.page, size: query.size, items: items.map(viewJob) };
    },
  );

  router.route<unknown, unknown, { jobId: string }>(
    {
      method: 'get',
      path: '/:jobId',
      summary: 'Status, progress and result of a background task (export, import, DSUR generation ...)',
      params: jobIdParams,
      response: jobView,
    },
    async (c, { params }) => viewJob(await findOwnJob(c, params.jobId)),
  );

  router.route<unknown, unknown, { jobId: string }>(
    {
      method: 'post',
      path: '/:jobId/cancel',
      summary: 'Cancel a queued task, or ask a running one to stop',
      params: jobIdParams,
      response: jobView,
    },
    async (c, { params }) => {
      await findOwnJob(c, params.jobId);
      return viewJob(await deps.jobs.cancel(params.jobId));
    },
  );
}
