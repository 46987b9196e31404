/**
 * Projects, owned by this module: lock state, study sites and drugs, the report-code generator and
 * the workflow override, in the tenant's `projects` collection. Case management, the workflow
 * and the configurator read them through this module.
 */
import type { CollectionDefinition, Handle, StoredDoc } from '../store';

/** The projects collection. */
export const PROJECTS = 'projects';

/**
 * Its one definition. Modules that read projects (case management) declare this same definition
 * beside their own, so a platform mounting them without this module still has the collection.
 */
export const projectsCollection: CollectionDefinition = {
  name: PROJECTS,
  scope: 'tenant',
  audited: true,
  indexes: [{ fields: { code: 1 }, unique: true }],
};

export interface StudySite {
  id: string;
  code: string;
  name: string;
  nameEn?: string;
  country: string;
  /** The tenant's hospital or research centre the site is (projects module, additive). */
  hospitalId?: string | null;
  /** Principal investigator (projects module, additive). */
  investigator?: string;
}

/** One band of a project's age-stratification rule: lower bound included, upper excluded (none: open). */
export interface AgeBand {
  nameZh: string;
  nameEn: string;
  fromYears: number;
  toYears?: number;
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
  /** The tenant drug catalogue entry it was taken from (projects module, additive). */
  catalogueDrugId?: string | null;
}

/** A member of the study staff (projects module, additive). */
export interface StudyStaffMember {
  name: string;
  duty: string;
  phone?: string;
  email?: string;
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
  /** JSON merge patch over schemas/workflows/unblinding.json (e.g. the e-signature of approve and handle). */
  unblindingWorkflowOverride?: unknown;
  /** Default H.1 narrative template of the project. */
  narrativeTemplateId?: string | null;
  // Administration fields (projects module, additive; SPEC section 3 "Project").
  diseases?: string;
  treatmentMethods?: string;
  plannedEnrollment?: number;
  startDate?: string;
  endDate?: string;
  studyStaff?: StudyStaffMember[];
  /** C.5.1.r study registrations. */
  registrations?: { number: string; country: string }[];
  /** The receivers (exports' receivers) this project's cases are reported to; their authorities' rules give the plans. */
  receiverIds?: string[];
  /** The age-stratification rule (SPEC 3): bands of the age at onset in years, [fromYears, toYears). */
  ageGroups?: AgeBand[];
  lockedAt?: string | null;
  lockedBy?: string | null;
  lockedByName?: string | null;
  /** Soft-deleted projects are hidden from every reader and restorable by the administrator. */
  deleted?: boolean;
  deletedAt?: string;
}

export async function findProject(handle: Handle, projectId: string): Promise<StoredDoc<Project> | null> {
  const project = await handle.collection<Project>(PROJECTS).findOne({ _id: projectId });
  return project?.deleted ? null : project;
}
