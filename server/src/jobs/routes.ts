import type { ModuleDeps } from '../http/module';
import type { ModuleRouter } from '../http/route';
import { requirePrincipal } from '../http/context';
import { errors } from '../http/errors';
import type { JobRecord } from './types';

const jobView = {
  type: 'object',
  properties: {
    jobId: { type: 'string' },
    type: { type: 'string' },
    status: { enum: ['queued', 'running', 'succeeded', 'failed', 'canceled'] },
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

export function jobRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  // A caller sees the jobs of their own tenant only; platform jobs are not exposed here.
  async function findOwnJob(c: Parameters<Parameters<ModuleRouter['route']>[1]>[0], jobId: string) {
    const principal = requirePrincipal(c);
    const job = await deps.jobs.get(jobId);
    if (!job || job.jobTenantId !== principal.tenantId) throw errors.notFound('server.jobNotFound');
    return job;
  }

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
