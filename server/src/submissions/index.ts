/**
 * Submission plans (SPEC 1, 2 /submittransfer, 3 "Submission plan", 4 regulatory submission):
 * which receivers a case goes to and by when, from the project's receivers and their authorities'
 * reporting rules (schemas/rules/reporting). Gives case management its deadlines (the earliest
 * open due date over the receivers); batch plans with their review; the expedited-report list.
 * See README.md.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { submissionDeadline, projectReceivers } from './deadline';
export { S as submissionCollectionNames } from './model';
export type { SubmissionPlan, SubmissionBatch } from './model';

import { provideCaseDeadline, provideReportDueDates, refreshCaseDeadlines } from '../cases';
import { defineModule } from '../http';
import type { ServerModule } from '../http';
import { provideProjectReceiverCheck, provideProjectReceiversListener } from '../projects';
import { provideSendParticipant } from '../exports';
import type { CollectionDefinition } from '../store';
import { identitySigner } from '../workflow';
import type { Signer } from '../workflow';
import { assertTenantReceivers, reportDueDates, submissionDeadline } from './deadline';
import { S } from './model';
import { batchObject, submissionRoutes } from './routes';
import { bulkJob, DEFAULT_BULK_MAX_BYTES, keepLateReason } from './bulk';
import { bulkRoutes } from './bulk-routes';
import { seedDemoReceivers } from './seed';

const collections: CollectionDefinition[] = [
  { name: S.batches, scope: 'tenant', audited: true, indexes: [{ fields: { projectId: 1, createdAt: -1 } }] },
  {
    name: S.plans,
    scope: 'tenant',
    audited: true,
    indexes: [
      { fields: { batchId: 1 } },
      // The expedited list's filter (project, to submit) and order (due date, report code, receiver) on
      // index columns: SQLite pages it instead of every plan being read and sorted (27 s at 100,000 cases).
      { fields: { projectId: 1, isSubmit: 1, dueDate: 1, reportCode: 1, receiverName: 1 } },
      { fields: { caseId: 1, receiverId: 1 } },
    ],
  },
  {
    name: S.bulkRuns,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { projectId: 1, createdAt: -1 } }],
  },
];

export interface SubmissionsModuleOptions {
  /** The electronic-signature function of plan review (default: the identity module's). */
  signer?: Signer;
  /** The bulk-reporting file size limit in bytes for receivers that name none (default 20 MB). */
  bulkMaxBytes?: number;
}

export function createSubmissionsModule(options: SubmissionsModuleOptions = {}): ServerModule {
  const signer = options.signer ?? identitySigner;
  return defineModule({
    name: 'submissions',
    dependsOn: ['auth', 'cases', 'exports', 'projects', 'unblinding', 'workflow'],
    collections,
    routes: (router) => {
      // Case management asks this module for a case's deadline on every save and transmission.
      provideCaseDeadline(submissionDeadline);
      // And the due dates of the reports a case delivered (pooled analysis's on-time count).
      provideReportDueDates(reportDueDates);
      // A project names only receivers of its own tenant.
      provideProjectReceiverCheck(assertTenantReceivers);
      // A project's receivers changed: its cases' deadlines follow at once.
      provideProjectReceiversListener('submissions', async (handle, projectId) => {
        await refreshCaseDeadlines(handle, { 'report.studyProjectId': projectId });
      });
      // A send of a report past its plan's due date needs the late reason, kept on the plan.
      provideSendParticipant('submissions', keepLateReason);
      submissionRoutes(router, signer);
      bulkRoutes(router);
    },
    jobs: [bulkJob(options.bulkMaxBytes ?? DEFAULT_BULK_MAX_BYTES)],
    objects: { submissionBatch: batchObject },
    seed: seedDemoReceivers,
  });
}

export const submissionsModule = createSubmissionsModule();
