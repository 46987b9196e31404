/**
 * The project recode as a background job: a project's cases can be many, so the request only
 * checks and enqueues, and the job runner recodes case by case (progress on the job, the report as
 * its result). Each case is saved through the case service's own save, called with the job's caller:
 * the user who asked, in the job's tenant (membership, permissions and audit as in the request).
 */
import type { Caller } from '../http';
import type { Principal } from '../http';
import type { ModuleDeps } from '../http';
import type { Lang } from '../i18n';
import { defineJob } from '../jobs';
import { recodeProject } from './coding';
import type { DictionaryService } from './service';

export const RECODE_JOB = 'dictionaries.recodeProject';

/**
 * What the request knew of who asked, for the job's caller: their language and display details.
 * The user and the tenant the job acts as are the job record's (requestedBy, tenant), not these.
 */
export interface JobCaller {
  principal: Principal;
  lang: Lang;
}

export interface RecodeJobPayload {
  projectId: string;
  version: string;
  apply: boolean;
  caller: JobCaller;
}

/** The request's caller, without its session (a job outlives it). */
export function jobCallerOf(caller: Caller): JobCaller {
  const { sessionId: _session, ...rest } = caller.principal;
  return { principal: rest as Principal, lang: caller.lang };
}

export function recodeJob(service: (deps: ModuleDeps) => DictionaryService) {
  return defineJob<RecodeJobPayload, unknown>({
    type: RECODE_JOB,
    // A retry after a crash would report the cases already saved as unchanged: the user reruns instead.
    maxAttempts: 1,
    leaseMs: 120_000,
    handler: ({ payload, deps, caller, progress, signal }) =>
      recodeProject(
        caller({ lang: payload.caller.lang, principal: payload.caller.principal }),
        service(deps),
        payload.projectId,
        {
          version: payload.version,
          apply: payload.apply,
          progress,
          signal,
        },
      ),
  });
}
