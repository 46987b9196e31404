/**
 * The scheduled tasks page of the platform operator (/holoxcontrol/scheduledTasks): the cron
 * schedules of the job runner with their next and last runs, added for the job types that declare
 * themselves schedulable, edited (expression, time zone, payload), suspended and resumed, run once,
 * and the log of the runs each one fired. Module-declared schedules come back at start when
 * missing, so they are suspended rather than deleted.
 */
import { pageOptions, pageQuery } from '../http';
import type { PageQuery } from '../http';
import type { Caller } from '../http';
import { callerOf } from '../http';
import { errors } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import { compileValidator } from '../http';
import { JOB_SCHEDULES, JOBS } from './collections';
import { compileCron, nextCronRun } from './cron';
import type { JobDefinition, JobRecord, ScheduleRecord } from './types';

const PERMISSION = 'holoxcontrol:scheduledTasks';
const NAME = { type: 'string', minLength: 3, maxLength: 100, pattern: '^[A-Za-z][A-Za-z0-9_.-]*$' };
const CRON = { type: 'string', minLength: 9, maxLength: 120 };
const TIMEZONE = { type: 'string', minLength: 1, maxLength: 64 };
const nameParams = { type: 'object', required: ['name'], properties: { name: NAME } };

function isTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The expression's next runs, or the translated refusal of an invalid expression or zone. */
export function previewCron(cron: string, timezone: string, after: Date, count = 5): string[] {
  if (!isTimezone(timezone)) throw errors.badRequest('server.timezoneInvalid', { timezone });
  compileCron(cron, timezone);
  const runs: string[] = [];
  let from = after;
  while (runs.length < count) {
    const next = nextCronRun(cron, from, timezone);
    if (!next) break;
    runs.push(next.toISOString());
    from = next;
  }
  return runs;
}

export function scheduleRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  const platform = (caller: Caller) => deps.store.platform({ userId: caller.userId });
  const schedules = (caller: Caller) =>
    platform(caller).collection<Omit<ScheduleRecord, '_id'>>(JOB_SCHEDULES);
  const schedulable = (type: string): JobDefinition & Required<Pick<JobDefinition, 'schedulable'>> => {
    const definition = deps.jobs.definitions().find((d) => d.type === type);
    if (!definition?.schedulable) throw errors.badRequest('server.jobNotSchedulable', { type });
    return definition as JobDefinition & Required<Pick<JobDefinition, 'schedulable'>>;
  };
  const checkPayload = (definition: JobDefinition, payload: unknown) => {
    const schema = definition.schedulable?.payload ?? { type: 'object', additionalProperties: false };
    compileValidator(schema, 'body')(payload ?? {});
  };
  const find = async (caller: Caller, name: string) => {
    const schedule = await schedules(caller).findOne({ _id: name });
    if (!schedule) throw errors.notFound('server.scheduleNotFound');
    return schedule;
  };
  const label = (type: string) =>
    deps.jobs.definitions().find((d) => d.type === type)?.schedulable?.label ?? null;

  router.route(
    {
      method: 'get',
      path: '/schedule-types',
      summary: 'Job types the operator may schedule',
      permission: PERMISSION,
    },
    () =>
      deps.jobs
        .definitions()
        .filter((d) => d.schedulable)
        .map((d) => ({ type: d.type, label: d.schedulable!.label, payload: d.schedulable!.payload ?? null })),
  );

  router.route<{ cron: string; timezone: string }>(
    {
      method: 'post',
      path: '/cron-preview',
      summary: 'The next five runs of a cron expression in a time zone (the cron builder shows them)',
      permission: PERMISSION,
      body: {
        type: 'object',
        required: ['cron', 'timezone'],
        additionalProperties: false,
        properties: { cron: CRON, timezone: TIMEZONE },
      },
    },
    (_c, { body }) => ({ runs: previewCron(body.cron, body.timezone, deps.clock.now()) }),
  );

  router.route(
    {
      method: 'get',
      path: '/schedules',
      summary: 'Scheduled tasks with their next run, last run and its outcome',
      permission: PERMISSION,
    },
    async (c) => {
      const items = await schedules(callerOf(c)).find({}, { sort: { _id: 1 } });
      const lastJobs = await platform(callerOf(c))
        .collection<Omit<JobRecord, '_id'>>(JOBS)
        .find({ _id: { $in: items.map((s) => s.lastJobId).filter((id): id is string => Boolean(id)) } });
      const statusOf = new Map(lastJobs.map((job) => [job._id, job.status]));
      return {
        items: items.map((s) => ({
          name: s._id,
          type: s.type,
          typeLabel: label(s.type),
          cron: s.cron,
          timezone: s.timezone,
          payload: s.payload,
          enabled: s.enabled,
          origin: s.origin ?? 'module',
          nextRunAt: s.enabled ? s.nextRunAt : null,
          lastRunAt: s.lastRunAt,
          lastStatus: s.lastJobId ? (statusOf.get(s.lastJobId) ?? null) : null,
          rev: s.rev,
        })),
      };
    },
  );

  router.route<{ name: string; type: string; cron: string; timezone?: string; payload?: unknown }>(
    {
      method: 'post',
      path: '/schedules',
      summary: 'Add a scheduled task of a schedulable job type',
      permission: `${PERMISSION}:add`,
      body: {
        type: 'object',
        required: ['name', 'type', 'cron'],
        additionalProperties: false,
        properties: {
          name: NAME,
          type: { type: 'string', maxLength: 100 },
          cron: CRON,
          timezone: TIMEZONE,
          payload: { type: 'object' },
        },
      },
    },
    async (c, { body }) => {
      const definition = schedulable(body.type);
      checkPayload(definition, body.payload);
      const timezone = body.timezone ?? 'UTC';
      previewCron(body.cron, timezone, deps.clock.now(), 1);
      if (await schedules(callerOf(c)).findOne({ _id: body.name }))
        throw errors.badRequest('server.scheduleNameTaken', { name: body.name });
      const next = nextCronRun(body.cron, deps.clock.now(), timezone);
      await schedules(callerOf(c)).insertOne({
        _id: body.name,
        name: body.name,
        type: body.type,
        cron: body.cron.trim(),
        timezone,
        payload: body.payload ?? {},
        scheduleTenantId: null,
        enabled: true,
        origin: 'operator',
        nextRunAt: next ? next.toISOString() : null,
        lastRunAt: null,
        lastJobId: null,
      } as Omit<ScheduleRecord, '_id'> & { _id: string });
      return { name: body.name };
    },
  );

  router.route<{ cron: string; timezone: string; payload?: unknown; rev: number }, unknown, { name: string }>(
    {
      method: 'put',
      path: '/schedules/:name',
      summary: 'Change a scheduled task’s expression, time zone or payload (from the revision read)',
      permission: `${PERMISSION}:edit`,
      params: nameParams,
      body: {
        type: 'object',
        required: ['cron', 'timezone', 'rev'],
        additionalProperties: false,
        properties: {
          cron: CRON,
          timezone: TIMEZONE,
          payload: { type: 'object' },
          rev: { type: 'integer', minimum: 1 },
        },
      },
    },
    async (c, { body, params }) => {
      const current = await find(callerOf(c), params.name);
      const definition = deps.jobs.definitions().find((d) => d.type === current.type);
      if (body.payload !== undefined && definition) checkPayload(definition, body.payload);
      previewCron(body.cron, body.timezone, deps.clock.now(), 1);
      const next = nextCronRun(body.cron, deps.clock.now(), body.timezone);
      await schedules(callerOf(c)).updateOne(
        { _id: params.name },
        {
          $set: {
            cron: body.cron.trim(),
            timezone: body.timezone,
            ...(body.payload !== undefined ? { payload: body.payload } : {}),
            // A suspended task gets its next run when it resumes.
            ...(current.enabled ? { nextRunAt: next ? next.toISOString() : null } : {}),
          },
        },
        { expectedRev: body.rev },
      );
      return { name: params.name };
    },
  );

  for (const [action, enabled] of [
    ['suspend', false],
    ['resume', true],
  ] as const) {
    router.route<unknown, unknown, { name: string }>(
      {
        method: 'post',
        path: `/schedules/:name/${action}`,
        summary: enabled
          ? 'Resume a suspended scheduled task (from its next occurrence)'
          : 'Suspend a scheduled task',
        permission: `${PERMISSION}:pause`,
        params: nameParams,
      },
      async (c, { params }) => {
        const current = await find(callerOf(c), params.name);
        const next = enabled ? nextCronRun(current.cron, deps.clock.now(), current.timezone) : null;
        await schedules(callerOf(c)).updateOne(
          { _id: params.name },
          { $set: { enabled, ...(enabled ? { nextRunAt: next ? next.toISOString() : null } : {}) } },
          { expectedRev: current.rev },
        );
        return { name: params.name, enabled };
      },
    );
  }

  router.route<unknown, unknown, { name: string }>(
    {
      method: 'post',
      path: '/schedules/:name/run',
      summary: 'Run a scheduled task once now (its log records the run)',
      permission: `${PERMISSION}:run`,
      params: nameParams,
    },
    async (c, { params }) => {
      const schedule = await find(callerOf(c), params.name);
      const principal = callerOf(c).principal;
      const job = await deps.jobs.enqueue(schedule.type, schedule.payload, {
        tenantId: schedule.scheduleTenantId,
        requestedBy: principal.userId,
      });
      // The log lists the jobs a schedule fired; a manual run belongs to it too.
      await platform(callerOf(c))
        .collection<Omit<JobRecord, '_id'>>(JOBS)
        .updateOne({ _id: job._id }, { $set: { scheduleName: schedule._id } });
      return { jobId: job._id };
    },
  );

  router.route<unknown, unknown, { name: string }>(
    {
      method: 'delete',
      path: '/schedules/:name',
      summary: 'Delete a scheduled task the operator added (module tasks are suspended instead)',
      permission: `${PERMISSION}:delete`,
      params: nameParams,
    },
    async (c, { params }) => {
      const schedule = await find(callerOf(c), params.name);
      if ((schedule.origin ?? 'module') === 'module') throw errors.badRequest('server.scheduleDeclared');
      await schedules(callerOf(c)).deleteOne({ _id: params.name });
      return null;
    },
  );

  router.route<unknown, PageQuery, { name: string }>(
    {
      method: 'get',
      path: '/schedules/:name/log',
      summary: 'Runs of a scheduled task, newest first: status, times, attempts, error, result',
      permission: `${PERMISSION}:log`,
      params: nameParams,
      query: { type: 'object', additionalProperties: false, properties: { ...pageQuery } },
    },
    async (c, { params, query }) => {
      await find(callerOf(c), params.name);
      const jobs = platform(callerOf(c)).collection<Omit<JobRecord, '_id'>>(JOBS);
      const filter = { scheduleName: params.name };
      const items = await jobs.find(filter, { sort: { createdAt: -1 }, ...pageOptions(query) });
      return {
        total: await jobs.count(filter),
        items: items.map((job) => ({
          jobId: job._id,
          status: job.status,
          requestedBy: job.requestedBy,
          createdAt: job.createdAt ?? null,
          startedAt: job.startedAt,
          finishedAt: job.finishedAt,
          attempts: job.attempts,
          error: job.lastError,
          result: job.result,
        })),
      };
    },
  );
}
