/**
 * Project administration (/authoritymanagement/projectInfo, drugInfo, hospitalSiteManagement):
 * projects with their study sites, drugs and lock state, and the tenant's hospital and drug
 * catalogues. Routes: /api/projects..., /api/hospitals..., /api/drug-catalogue... (README.md).
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export type { Hospital, CatalogueDrug } from './catalogue';
export { CATALOGUE as catalogueCollectionNames } from './catalogue';
export { CATALOGUE } from './catalogue';
export { PROJECT_OBJECT, projectObject, requireProjectPermission } from './object';
export { PROJECTS, findProject, projectsCollection } from './model';
export { provideProjectReceiverCheck, provideProjectReceiversListener, provideProjectUse } from './service';
export type { ProjectReceiverCheck, ProjectReceiversListener, ProjectUseCounter } from './service';
export type { Project, ProjectDrug, StudySite, StudyStaffMember } from './model';

import { defineModule } from '../http';
import { catalogueCollections, catalogueRoutes } from './catalogue';
import { projectRoutes } from './routes';
import { projectsCollection } from './model';

export const projectsModule = defineModule({
  name: 'projects',
  dependsOn: ['auth', 'tenancy'],
  prefix: '',
  collections: [projectsCollection, ...catalogueCollections],
  routes: (router) => {
    projectRoutes(router);
    catalogueRoutes(router);
  },
});
