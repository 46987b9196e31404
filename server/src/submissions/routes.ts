/**
 * Routes of submission plans (`/api/submissions`): batch proposals, batches and their review, the
 * expedited-report list with its XLSX export and compliance summary. A batch is checked in its own
 * project (object kind `submissionBatch`); a new batch in the project its body names.
 */
import { callerOf, pageQuery } from '../http';
import type { ModuleRouter, ObjectResolver, RouteObject } from '../http';
import type { TenantHandle } from '../store';
import type { Signer } from '../workflow';
import { compliance, EXPEDITED_PERMISSION, exportExpedited, listExpedited } from './expedited';
import type { ExpeditedQuery } from './expedited';
import { S } from './model';
import type { SubmissionBatch } from './model';
import { batchView, proposeBatch, reviewBatch, saveBatch, sendForReview } from './service';
import { listBatches } from './batch-list';
import type { BatchListQuery } from './batch-list';
import type { ReviewInput, SaveBatchInput } from './service';

const P = {
  view: 'submittransfer:supervisionSubmit',
  batch: 'submittransfer:supervisionSubmit:batchPlan',
  create: 'submittransfer:supervisionSubmit:createPlan',
  approve: 'submittransfer:supervisionSubmit:approvePlan',
  expedited: EXPEDITED_PERMISSION,
  export: `${EXPEDITED_PERMISSION}:export`,
} as const;

export const batchObject: ObjectResolver = {
  notFound: 'submissions.batchNotFound',
  collections: [S.batches],
  scopeOf: async (handle: TenantHandle, id: string) => {
    const batch = await handle
      .collection<SubmissionBatch>(S.batches)
      .findOne({ _id: id }, { projection: { projectId: 1 } });
    return batch ? { projectId: batch.projectId } : null;
  },
};
const BATCH: RouteObject = { param: 'batchId', kind: 'submissionBatch' };
const batchParams = {
  type: 'object',
  required: ['batchId'],
  properties: { batchId: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const shortText = { type: 'string', maxLength: 2000 } as const;
// The editable plan fields, as the case plan declares them (schemas/case/submission-plans.schema.json).
const planFields = {
  isSubmit: { type: 'boolean' },
  noneSubmitWhy: { type: ['string', 'null'], maxLength: 2000 },
  submitTimeLimitType: { type: ['string', 'null'], maxLength: 4 },
  transmissionMode: { type: ['string', 'null'], maxLength: 2 },
  remark: { type: ['string', 'null'], maxLength: 2000 },
  medicalEvaluationResult: { type: ['string', 'null'], maxLength: 2000 },
  measureToCase: { type: ['string', 'null'], maxLength: 2000 },
  clinicIsSusar: { type: ['boolean', 'null'] },
  clinicDrugType: { type: ['string', 'null'], maxLength: 2 },
  clinicIsBlinding: { type: ['boolean', 'null'] },
} as const;

const expeditedQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pageQuery,
    projectId: { type: 'string', maxLength: 64 },
    receiverId: { type: 'string', maxLength: 64 },
    // The generic list sends an unset filter as an empty value.
    authority: { type: 'string', enum: ['', 'nmpa', 'fda', 'ema', 'ich'] },
    reviewState: { type: 'string', enum: ['', 'planned', 'inReview', 'approved', 'rejected'] },
    reportCode: { type: 'string', maxLength: 100 },
    dueFrom: { type: 'string', pattern: '^$|^\\d{4}-\\d{2}-\\d{2}$' },
    dueTo: { type: 'string', pattern: '^$|^\\d{4}-\\d{2}-\\d{2}$' },
  },
} as const;

export function submissionRoutes(router: ModuleRouter, signer: Signer): void {
  router.route<{ projectId: string; caseIds: string[] }>(
    {
      method: 'post',
      path: '/proposals',
      summary:
        'Plans the rules propose for the selected cases and every receiver of their project (nothing saved)',
      permission: P.batch,
      bodyProject: { property: 'projectId', permission: P.batch, membership: 'required' },
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['projectId', 'caseIds'],
        properties: { projectId: id, caseIds: { type: 'array', maxItems: 500, items: id } },
      },
    },
    async (c, { body }) => ({ items: await proposeBatch(callerOf(c), body.projectId, body.caseIds) }),
  );

  router.route<SaveBatchInput>(
    {
      method: 'post',
      path: '/batches',
      summary: 'Save edited plans as one batch (draft); each keeps the rules’ proposal and explanation',
      permission: P.batch,
      bodyProject: { property: 'projectId', permission: P.batch, membership: 'required' },
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['projectId', 'plans'],
        properties: {
          projectId: id,
          sponsor: { type: 'string', maxLength: 200 },
          plans: {
            type: 'array',
            maxItems: 2000,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['caseId', 'receiverId', 'isSubmit'],
              properties: { caseId: id, receiverId: id, ...planFields },
            },
          },
        },
      },
    },
    async (c, { body }) => saveBatch(callerOf(c), body),
  );

  router.route<unknown, BatchListQuery>(
    {
      method: 'get',
      path: '/batches',
      summary:
        "Batches of the caller's projects, newest first (filters: projectId, state, mine: waiting for my review)",
      permission: P.view,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...pageQuery,
          projectId: { type: 'string', maxLength: 64 },
          state: { type: 'string', enum: ['', 'draft', 'inReview', 'reviewed'] },
          mine: { type: 'boolean' },
        },
      },
    },
    async (c, { query }) => listBatches(callerOf(c), query, P.view),
  );

  router.route<unknown, unknown, { batchId: string }>(
    {
      method: 'get',
      path: '/batches/:batchId',
      object: BATCH,
      summary: 'A batch with its plans',
      permission: P.view,
      params: batchParams,
    },
    async (c, { params }) => batchView(callerOf(c), params.batchId),
  );

  router.route<{ reviewerId?: string }, unknown, { batchId: string }>(
    {
      method: 'post',
      path: '/batches/:batchId/review-request',
      object: BATCH,
      summary: 'Send a saved batch to the user who reviews it',
      permission: P.create,
      params: batchParams,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: { reviewerId: { type: 'string', maxLength: 64 } },
      },
    },
    async (c, { body, params }) => sendForReview(callerOf(c), params.batchId, body.reviewerId),
  );

  router.route<ReviewInput, unknown, { batchId: string }>(
    {
      method: 'post',
      path: '/batches/:batchId/review',
      object: BATCH,
      summary: 'Approve or reject the plans of a batch, each or all, with the reviewer’s e-signature',
      permission: P.approve,
      params: batchParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['password'],
        properties: {
          all: { type: 'string', enum: ['agree', 'disagree'] },
          decisions: {
            type: 'array',
            maxItems: 2000,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['planId', 'result'],
              properties: { planId: id, result: { type: 'string', enum: ['agree', 'disagree'] } },
            },
          },
          opinion: shortText,
          password: { type: 'string', minLength: 1, maxLength: 200 },
        },
      },
    },
    async (c, { body, params }) => reviewBatch(callerOf(c), signer, params.batchId, body),
  );

  router.route<unknown, ExpeditedQuery>(
    {
      method: 'get',
      path: '/expedited',
      summary:
        'Expedited reports: each plan to submit with receiver, rule, clock start, due date, days left, state',
      permission: P.expedited,
      query: expeditedQuery,
    },
    async (c, { query }) => listExpedited(callerOf(c), query),
  );

  router.route<unknown, ExpeditedQuery>(
    {
      method: 'get',
      path: '/expedited/export',
      summary: 'The expedited-report list as XLSX',
      permission: P.export,
      query: expeditedQuery,
      download: true,
    },
    async (c, { query }) => {
      const file = await exportExpedited(callerOf(c), query);
      return new Response(new Uint8Array(file), {
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-disposition': 'attachment; filename="expedited-reports.xlsx"',
        },
      });
    },
  );

  router.route<unknown, ExpeditedQuery>(
    {
      method: 'get',
      path: '/expedited/compliance',
      summary:
        'Approved reports per receiver and month of their due date: on time, late (with reasons), open',
      permission: P.expedited,
      query: expeditedQuery,
    },
    async (c, { query }) => compliance(callerOf(c), query),
  );
}
