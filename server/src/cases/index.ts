/**
 * Case management: the case list and detail, save/check, the workflow actions, versions,
 * duplicate check and the personal workbench's case feeds. See README.md for the API.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { resolveCaseSelection } from './list';
export type { CaseListQuery } from './list';
export { findDuplicates } from './duplicates';
export { saveCase } from './service';
export type { SaveInput, SaveWithin } from './service';
export { FIELD_CORRECTIONS_SCHEMA, provideSaveParticipant } from './save-participants';
export type { CaseSaveEvent, FieldCorrection, SaveParticipant } from './save-participants';
export { describeField, fieldChanges } from './diff';
export { findHandler, handlerNames } from './directory';
export { fieldLines, reasonOf } from './versions';
export type { FieldChange } from './diff';
export { createCase, followUpEffect } from './service';
export type { CreateCaseInput, FollowUpInput } from './service';
export { runCaseAction } from './actions';
export type { ActionEffectFn } from './actions';
export { caseContent } from './document';
export { isMissing, provideCaseCheckFindings } from './validation';
export { provideCheckRunListener } from './check-runs';
export type { CaseCheckRun } from './check-runs';
export type { CaseCheckSource } from './validation';
export { CASE_OBJECT, callerProjects, listScope, requireProjectMember } from './membership';
export type { DuplicateCandidate } from './duplicates';
export { C as caseCollectionNames } from './collections';
export { recordCaseTransmissions } from './transmission';
export { provideCaseDeadline, refreshCaseDeadlines } from './deadline';
export { provideReportDueDates, SUBMISSION_TIMELINESS } from './submitted';
export type { DeliveredReport, ReportDueDates, SubmissionTimeliness, SubmittedFacts } from './submitted';
export type { CaseDeadlineSource } from './deadline';
export type { CaseTransmissionMove, CaseTransmissionStatus } from './transmission';
export { recordCaseHistoryLine } from './history-line';
export type { CaseHistoryLine } from './history-line';
export type { Project, StudySite, ProjectDrug } from './projects';
export { C, caseCollections } from './collections';
export { REACTION_TERMS, demoCaseContent } from './demo/factory';
export { DEMO_PROJECT_CODE, DEMO_SEED_ACTOR, demoTenantId } from './demo/tenant';
export type { CaseDocument } from './document';
export { caseListQuerySchema, listFilter, listSort, MAX_ALTERNATIVES, toRow } from './list';
export { emptyScope, projectIdOf, requireCaseAccess, requireCasesAccess, scopeIds } from './membership';
export { loadCase } from './persistence';
export { findProject } from './projects';
export { pointerKey } from './summary';
export { isDay, withinCondition } from './e2b-range';
export type { CaseSummary } from './summary';

import { defineModule } from '../http';
import type { ServerModule } from '../http';
import { identitySigner } from '../workflow';
import type { Signer } from '../workflow';
import { C as caseCollectionNames, caseCollections } from './collections';
import { projectsCollection, provideProjectUse } from '../projects';
import { caseRoutes } from './routes';
import { validatorRoutes } from './validators';
import { templatePreviewRoutes } from './template-preview-routes';
import { workbenchRoutes } from './workbench-routes';
import { seedDemoCases } from './demo/seed';
import { refreshSummaryLayout } from './summary-layout';
import { caseObject } from './membership';
// Registers who reaches a case's attachment files through /api/files.
import './file-owner';
// Hands the dictionaries' coding the case save (the dictionaries module does not import cases).
import './dictionary-coding';

// For the E2B import (server/src/imports): a report becomes a case or a follow-up version here.
// For the E2B transmission (server/src/exports): each move of a transmission becomes a history line.

export interface CasesModuleOptions {
  /** The electronic-signature function (default: the identity module's signWithPassword). */
  signer?: Signer;
}

export function createCasesModule(options: CasesModuleOptions = {}): ServerModule {
  const signer = options.signer ?? identitySigner;
  return defineModule({
    name: 'cases',
    dependsOn: [
      'access',
      'auth',
      'configuration',
      'configurator',
      'dictionaries',
      'messages',
      'projects',
      'report-codes',
      'uploads',
      'users',
      'workflow',
    ],
    // The projects module's definition beside the case collections: cases read projects. Read when
    // the app mounts the module, not at import.
    get collections() {
      return [...caseCollections, projectsCollection];
    },
    routes: (router) => {
      caseRoutes(router, signer);
      validatorRoutes(router);
      templatePreviewRoutes(router);
      // A project or a study site that cases name is not deleted (the projects module asks here).
      provideProjectUse('cases', (handle, { projectId, siteId }) =>
        handle
          .collection(caseCollectionNames.cases)
          .count({ 'report.studyProjectId': projectId, ...(siteId ? { 'report.hospitalId': siteId } : {}) }),
      );
    },
    // A case's permissions are checked in its own project (membership.ts).
    objects: { case: caseObject },
    // Summaries first: the demo cases a first start inserts are built with the current layout.
    seed: async (deps) => {
      await refreshSummaryLayout(deps.store);
      await seedDemoCases(deps);
    },
  });
}

/** The workbench's case feeds; mounted as its own module because the menu tree names it (schemas/menus). */
export const workbenchModule: ServerModule = defineModule({
  name: 'workbench',
  routes: workbenchRoutes,
});

export const casesModule: ServerModule = createCasesModule();
