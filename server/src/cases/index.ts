/**
 * Case management: the case list and detail, save/check, the workflow actions, versions,
 * duplicate check and the personal workbench's case feeds. See README.md for the API.
 */
import { defineModule } from '../http/module';
import type { ServerModule } from '../http/module';
import { identitySigner } from '../workflow/signature';
import type { Signer } from '../workflow/signature';
import { caseCollections } from './collections';
import { caseRoutes } from './routes';
import { validatorRoutes } from './validators';
import { workbenchRoutes } from './workbench-routes';
import { seedDemoCases } from './demo/seed';
import { caseObject } from './membership';
// Registers who reaches a case's attachment files through /api/files.
import './file-owner';

export { resolveCaseSelection } from './list';
export type { CaseListQuery } from './list';
export { findDuplicates } from './duplicates';
export { saveCase } from './service';
// For the E2B import (server/src/imports): a report becomes a case or a follow-up version here.
export { createCase, followUpEffect } from './service';
export type { CreateCaseInput, FollowUpInput } from './service';
export { runCaseAction } from './actions';
export type { ActionEffectFn } from './actions';
export { caseContent } from './document';
export { isMissing, provideCaseCheckFindings } from './validation';
export type { CaseCheckSource } from './validation';
export { CASE_OBJECT, callerProjects, listScope, requireProjectMember } from './membership';
export type { DuplicateCandidate } from './duplicates';
export { C as caseCollectionNames } from './collections';
// For the E2B transmission (server/src/exports): each move of a transmission becomes a history line.
export { recordCaseTransmissions } from './transmission';
export type { CaseTransmissionMove, CaseTransmissionStatus } from './transmission';
export type { Project, StudySite, ProjectDrug } from './projects';

export interface CasesModuleOptions {
  /** The electronic-signature function (default: the identity module's signWithPassword). */
  signer?: Signer;
}

export function createCasesModule(options: CasesModuleOptions = {}): ServerModule {
  const signer = options.signer ?? identitySigner;
  return defineModule({
    name: 'cases',
    collections: caseCollections,
    routes: (router) => {
      caseRoutes(router, signer);
      validatorRoutes(router);
    },
    // A case's permissions are checked in its own project (membership.ts).
    objects: { case: caseObject },
    seed: seedDemoCases,
  });
}

/** The workbench's case feeds; mounted as its own module because the menu tree names it (schemas/menus). */
export const workbenchModule: ServerModule = defineModule({
  name: 'workbench',
  routes: workbenchRoutes,
});

export const casesModule: ServerModule = createCasesModule();
