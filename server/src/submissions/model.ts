/** Batch submission plans (SPEC 2 /submittransfer/supervisionSubmit, 3 "Submission plan"): records kept by this module. */
import type { Authority, PlanExplanation } from '@pv/engine';
import type { Correction } from '../exports';

export const S = {
  batches: 'submissionBatches',
  plans: 'submissionPlans',
  bulkRuns: 'submissionBulkRuns',
} as const;

/** The fields a user edits on a plan: the case plan's (schemas/case/submission-plans.schema.json). */
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

export const PLAN_FIELD_NAMES = [
  'isSubmit',
  'noneSubmitWhy',
  'submitTimeLimitType',
  'transmissionMode',
  'remark',
  'medicalEvaluationResult',
  'measureToCase',
  'clinicIsSusar',
  'clinicDrugType',
  'clinicIsBlinding',
] as const;

/** A plan's review state; what happened to the report afterwards comes from the case's transmissions. */
export type PlanReviewState = 'planned' | 'inReview' | 'approved' | 'rejected';

export interface SubmissionPlan extends PlanFields {
  batchId: string;
  projectId: string;
  caseId: string;
  /** C.1.1 of the case when planned. */
  reportCode: string;
  /** The case version the plan is for. */
  caseVersion: number;
  receiverId: string;
  receiverName: string;
  /** N.1.4 of the receiver. */
  receiverIdentifier: string;
  authority: Authority;
  /** What the rules proposed (the user may differ on isSubmit, with a reason). */
  proposedSubmit: boolean;
  ruleId: string;
  explanation: PlanExplanation;
  clockStart: { e2b: string; value: string } | null;
  days: number | null;
  /** ISO day; null when not submitting or the clock start is unknown. */
  dueDate: string | null;
  state: PlanReviewState;
  reviewOpinion?: string | null;
  reviewedBy?: string | null;
  reviewedAt?: string | null;
  signatureId?: string | null;
  /** Why the report went late, as the submitter says (the compliance summary). */
  lateReason?: string | null;
  /** A nullification (C.1.11.1 = 1) or amendment (2) report of a case the receiver had, with C.1.11.2. */
  correction?: Correction | null;
  /** The export (E2B transmission) that carries this plan's report, once bulk reporting wrote it. */
  exportId?: string | null;
  exportedAt?: string | null;
  bulkRunId?: string | null;
}

/**
 * Bulk reporting (/submittransfer/bulkReporting): approved plans of one project and receiver
 * exported as E2B batches (split at the receiver's size limit) and optionally sent, in a job.
 */
export interface BulkRun {
  projectId: string;
  receiverId: string;
  receiverName: string;
  planIds: string[];
  /** Send each written file at once (the transmission page's send). */
  send: boolean;
  /** The reason given for the plans past their due date. */
  lateReason: string | null;
  state: 'queued' | 'running' | 'done' | 'failed';
  /** Reports written so far, of `total`. */
  done: number;
  total: number;
  exports: {
    exportId: string;
    batchId: string;
    fileName: string;
    size: number;
    reports: number;
    status: string;
  }[];
  /** The refusal that stopped the run, translated when read. */
  error: { key: string; params: Record<string, string | number> } | null;
  jobId: string;
  createdBy: string;
  createdAt: string;
  finishedAt: string | null;
}

export type BatchState = 'draft' | 'inReview' | 'reviewed';

export interface SubmissionBatch {
  projectId: string;
  /** The sponsor the batch is submitted for (SPEC: "The sponsor cannot be empty"). */
  sponsor: string;
  state: BatchState;
  createdBy: string;
  createdByName: string | null;
  createdAt: string;
  /** The user who receives the batch for review. */
  reviewerId?: string | null;
  reviewerName?: string | null;
  sentForReviewAt?: string | null;
  planCount: number;
}
