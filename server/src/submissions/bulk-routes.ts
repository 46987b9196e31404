/**
 * Routes of bulk reporting and of nullification / amendment reports (`/api/submissions`). A run
 * belongs to the project in its path (object `project`, its members only); a correction to the
 * case in its path (object `case`).
 */
import { callerOf } from '../http';
import { loadEntity, pickBody } from '../entities';
import type { ModuleRouter } from '../http';
import { CASE_OBJECT, requireCasesAccess, requireProjectMember } from '../cases';
import { PROJECT_OBJECT } from '../projects';
import { BULK_PERMISSION, BULK_RUN_PERMISSION, bulkCandidates, bulkRunView, startBulk } from './bulk';
import type { BulkInput } from './bulk';
import { createCorrection } from './corrections';
import type { CorrectionInput } from './corrections';
import { projectReceivers } from './deadline';
import { S } from './model';
import type { BulkRun } from './model';

const correctionEntity = loadEntity('submission-correction');
const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const projectParams = { type: 'object', required: ['projectId'], properties: { projectId: id } } as const;

export function bulkRoutes(router: ModuleRouter): void {
  router.route<unknown, { receiverId?: string }, { projectId: string }>(
    {
      method: 'get',
      path: '/bulk/projects/:projectId',
      object: PROJECT_OBJECT,
      summary:
        "Bulk reporting of a project: its receivers, the approved plans not yet exported to the chosen receiver, and the project's latest runs with their progress",
      permission: BULK_PERMISSION,
      params: projectParams,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: { receiverId: { type: 'string', maxLength: 64 } },
      },
    },
    async (c, { params, query }) => {
      const caller = callerOf(c);
      await requireProjectMember(caller, params.projectId);
      const receivers = await projectReceivers(caller.tenant, params.projectId);
      const receiverId = receivers.find((r) => r._id === query.receiverId)?._id ?? null;
      const runs = await caller.tenant
        .collection<BulkRun>(S.bulkRuns)
        .find(
          { projectId: params.projectId, ...(receiverId ? { receiverId } : {}) },
          { sort: { createdAt: -1 }, limit: 20, projection: { _id: 1 } },
        );
      return {
        receivers: receivers.map((r) => ({ receiverId: r._id, name: r.name, format: r.format })),
        candidates: receiverId ? await bulkCandidates(caller, params.projectId, receiverId) : [],
        runs: await Promise.all(runs.map((r) => bulkRunView(caller, r._id))),
      };
    },
  );

  router.route<Omit<BulkInput, 'projectId'>, unknown, { projectId: string }>(
    {
      method: 'post',
      path: '/bulk/projects/:projectId/runs',
      object: PROJECT_OBJECT,
      summary:
        'Exports approved plans of one receiver as E2B batches (split at the size limit) in a job, and sends them when asked',
      description:
        'Refused (400, nothing queued) when a plan is not approved, of another receiver, already exported, its case ' +
        'has a newer version, a follow-up precedes its unsent initial, the version was acknowledged (except ' +
        'amendments and nullifications), or a late plan is sent without lateReason. Progress: GET /api/jobs/:jobId ' +
        'or the runs of GET /bulk/projects/:projectId.',
      permission: BULK_RUN_PERMISSION,
      params: projectParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['receiverId', 'planIds'],
        properties: {
          receiverId: id,
          planIds: { type: 'array', maxItems: 2000, items: id },
          send: { type: 'boolean' },
          lateReason: { type: 'string', maxLength: 2000 },
        },
      },
    },
    async (c, { body, params }) => {
      const caller = callerOf(c);
      await requireProjectMember(caller, params.projectId);
      return startBulk(caller, { ...body, projectId: params.projectId });
    },
  );

  router.route<CorrectionInput, unknown, { caseId: string }>(
    {
      method: 'post',
      path: '/cases/:caseId/corrections',
      object: CASE_OBJECT,
      summary:
        'A nullification (C.1.11.1 = 1) or amendment (C.1.11.1 = 2) report of the case to every project receiver that had it, as a draft batch of plans',
      permission: 'submittransfer:supervisionSubmit:batchPlan',
      params: { type: 'object', required: ['caseId'], properties: { caseId: id } },
      body: pickBody(correctionEntity, ['kind', 'reason', 'sponsor']),
    },
    async (c, { body, params }) => {
      const caller = callerOf(c);
      await requireCasesAccess(caller, [params.caseId], 'submittransfer:supervisionSubmit:batchPlan');
      return createCorrection(caller, params.caseId, body);
    },
  );
}
