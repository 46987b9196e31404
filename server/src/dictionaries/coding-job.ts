/**
 * The project recode as a background job: a project's cases can be many, so the request only
 * checks and enqueues, and the job runner recodes case by case (progress on the job, the report as
 * its result). Each case is saved through the case module's own save, acting as the user who asked,
 * in a request context rebuilt for that user (membership, permissions and audit as in the request).
 */
import { Context } from 'hono';
import type { AppEnv, Principal, RequestContext } from '../http';
import type { ModuleDeps } from '../http';
import type { Lang } from '../i18n';
import { defineJob } from '../jobs';
import { recodeProject } from './coding';
import type { DictionaryService } from './service';

export const RECODE_JOB = 'dictionaries.recodeProject';

/** Who asked, as the request knew them: enough to act as them later. */
export interface JobCaller {
  principal: Principal;
  lang: Lang;
  sysOrgId: string | null;
}

export interface RecodeJobPayload {
  projectId: string;
  version: string;
  apply: boolean;
  caller: JobCaller;
}

/** The caller of a request, without its session (a job outlives it) or token. */
export function callerOf(c: Context<AppEnv>, principal: Principal): JobCaller {
  const { sessionId: _session, ...rest } = principal;
  const ctx = c.get('ctx');
  return { principal: rest as Principal, lang: ctx.lang, sysOrgId: ctx.sysOrgId };
}

/** A request context for the caller, so code written for requests (the case save) runs in a job. */
export function callerContext(deps: ModuleDeps, caller: JobCaller, jobId: string): Context<AppEnv> {
  const c = new Context<AppEnv>(new Request(`http://job.invalid/jobs/${encodeURIComponent(jobId)}`));
  const ctx: RequestContext = {
    requestId: `job:${jobId}`,
    lang: caller.lang,
    token: null,
    sysOrgId: caller.sysOrgId,
    studyProjectIds: [],
    projectId: null,
    principal: caller.principal,
    authError: null,
  };
  c.set('ctx', ctx);
  c.set('deps', deps);
  c.set('translator', deps.translator);
  c.set('t', (key, params) => deps.translator.t(caller.lang, key, params));
  c.set('log', deps.log);
  c.set('authenticator', null);
  return c;
}

export function recodeJob(service: (deps: ModuleDeps) => DictionaryService) {
  return defineJob<RecodeJobPayload, unknown>({
    type: RECODE_JOB,
    // A retry after a crash would report the cases already saved as unchanged: the user reruns instead.
    maxAttempts: 1,
    leaseMs: 120_000,
    handler: ({ job, payload, deps, progress, signal }) =>
      recodeProject(callerContext(deps, payload.caller, job._id), service(deps), payload.projectId, {
        version: payload.version,
        apply: payload.apply,
        progress,
        signal,
      }),
  });
}
