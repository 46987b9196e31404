/** Workflow history: one line per workflow action on a case (SPEC 3 "Workflow history"). */
export interface WorkflowHistoryEntry {
  caseId: string;
  reportCode: string;
  action: string;
  /** Result key in the workflow namespace (`submitted`, `returned`, `planReviewed` ...). */
  result: string;
  /** The option chosen (challenge kind, approval result), if any. */
  option: string | null;
  /** Node the case was at. */
  node: string;
  opinion: string | null;
  processerId: string;
  processerName: string;
  nextNode: string;
  nextProcesserId: string | null;
  nextProcesserName: string | null;
  at: string;
  /** The case version and revision the action was taken on. */
  dataVersion: { version: number; rev: number };
  signatureId: string | null;
  /** Action-specific facts (follow-up reason and dates, validity before deletion ...). */
  details?: Record<string, unknown>;
}
