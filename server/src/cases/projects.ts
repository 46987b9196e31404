/**
 * Projects as case management reads them: lock state, study sites and drugs, the report-code
 * generator and the workflow override. Kept in the tenant's `projects` collection; the
 * administration screens (projects, sites, drugs) edit the same documents.
 */
import type { Handle, StoredDoc } from '../store/port';
import { C } from './collections';

export interface StudySite {
  id: string;
  code: string;
  name: string;
  nameEn?: string;
  country: string;
}

export interface ProjectDrug {
  id: string;
  /** G.k.2.2 as reported. */
  drugName: string;
  /** G.k.CN.1 */
  genericName?: string;
  /** G.k.CN.4 */
  approvalNumber?: string;
  isClinicalDrug: boolean;
  isBlind: boolean;
  /** G.k.2.3.r.1 */
  substanceName?: string;
}

export interface Project {
  code: string;
  name: string;
  nameEn?: string;
  /** Sponsor or marketing authorisation holder. */
  sponsor?: string;
  /** Locked projects accept no edits and no deletions of their cases. */
  locked: boolean;
  /** C.5.4 study type: 1 clinical trial, 2 individual patient use, 3 other study. */
  studyType?: string;
  /** C.5.3 */
  sponsorStudyNumber?: string;
  sites: StudySite[];
  drugs: ProjectDrug[];
  reportCodeGeneratorId?: string | null;
  /** JSON merge patch over schemas/workflows/case.json. */
  workflowOverride?: unknown;
  /** Default H.1 narrative template of the project. */
  narrativeTemplateId?: string | null;
}

export async function findProject(handle: Handle, projectId: string): Promise<StoredDoc<Project> | null> {
  return handle.collection<Project>(C.projects).findOne({ _id: projectId });
}
