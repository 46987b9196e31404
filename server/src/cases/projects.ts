/** Projects as case management reads them: the projects module owns them (projects/model.ts). */
export type { Project, ProjectDrug, StudySite, StudyStaffMember } from '../projects';
export { findProject } from '../projects';
