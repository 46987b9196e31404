/** Calls of the regulatory-submission screens (server/src/submissions/README.md, /api/submissions). */
import type { PlanExplanation } from '@pv/engine';
import { api } from '../../app/api';

export const PLAN_PERMISSIONS = {
  view: 'submittransfer:supervisionSubmit',
  batch: 'submittransfer:supervisionSubmit:batchPlan',
  create: 'submittransfer:supervisionSubmit:createPlan',
  approve: 'submittransfer:supervisionSubmit:approvePlan',
} as const;

/** The fields a user edits on a plan (schemas/case/submission-plans.schema.json). */
export interface PlanFields {
  isSubmit: boolean;
  noneSubmitWhy?: string | null;
  submitTimeLimitType?: string | null;
  transmissionMode?: string | null;
  remark?: string | null;
  medicalEvaluationResult?: string | null;
  measureToCase?: string | null;
  clinicIsSusar?: boolean | null;
  clinicDrugType?: string | null;
  clinicIsBlinding?: boolean | null;
}

export interface Proposal extends PlanFields {
  caseId: string;
  reportCode: string;
  caseVersion: number;
  receiverId: string;
  receiverName: string;
  authority: string;
  ruleId: string;
  ruleLabel: { zh: string; en: string };
  dueDate: string | null;
  days: number | null;
  clockStart: { e2b: string; value: string } | null;
  explanation: PlanExplanation;
}

export type BatchState = 'draft' | 'inReview' | 'reviewed';

export interface BatchRow {
  batchId: string;
  projectId: string;
  sponsor: string;
  state: BatchState;
  createdByName: string | null;
  createdAt: string;
  reviewerId?: string | null;
  reviewerName?: string | null;
  planCount: number;
}

export interface Plan extends Proposal {
  planId: string;
  state: 'planned' | 'inReview' | 'approved' | 'rejected';
  reviewOpinion?: string | null;
  reviewedAt?: string | null;
}

export interface Batch extends BatchRow {
  rev: number;
  plans: Plan[];
}

export interface CaseChoice {
  id: string;
  values: Record<string, unknown>;
}

export const plansApi = {
  /** Cases of the caller's projects whose report code contains the text (the case list's search). */
  findCases: (reportCode: string) =>
    api.request<{ total: number; items: CaseChoice[] }>('/cases/search', {
      body: {
        tab: 'all',
        filters: reportCode.trim() ? { reportCode: reportCode.trim() } : {},
        page: 1,
        size: 50,
      },
    }),
  propose: (projectId: string, caseIds: string[]) =>
    api.request<{ items: Proposal[] }>('/submissions/proposals', { body: { projectId, caseIds } }),
  save: (
    projectId: string,
    sponsor: string,
    plans: (PlanFields & { caseId: string; receiverId: string })[],
  ) =>
    api.request<Batch>('/submissions/batches', {
      body: { projectId, ...(sponsor.trim() ? { sponsor: sponsor.trim() } : {}), plans },
    }),
  list: (mine: boolean, page: number, size: number) =>
    api.request<{ total: number; items: BatchRow[] }>('/submissions/batches', {
      params: { page, size, ...(mine ? { mine: true } : {}) },
    }),
  get: (batchId: string) => api.request<Batch>(`/submissions/batches/${encodeURIComponent(batchId)}`),
  requestReview: (batchId: string, reviewerId: string) =>
    api.request<Batch>(`/submissions/batches/${encodeURIComponent(batchId)}/review-request`, {
      body: { reviewerId },
    }),
  review: (
    batchId: string,
    body: {
      all?: 'agree' | 'disagree';
      decisions?: { planId: string; result: 'agree' | 'disagree' }[];
      opinion: string;
      password: string;
    },
  ) => api.request<Batch>(`/submissions/batches/${encodeURIComponent(batchId)}/review`, { body }),
};
