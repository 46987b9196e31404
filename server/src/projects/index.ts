/**
 * Project administration (/authoritymanagement/projectInfo, drugInfo, hospitalSiteManagement):
 * projects with their study sites, drugs and lock state, and the tenant's hospital and drug
 * catalogues. Routes: /api/projects..., /api/hospitals..., /api/drug-catalogue... (README.md).
 */
import { defineModule } from '../http/module';
import { caseCollections } from '../cases/collections';
import { caseCollectionNames } from '../cases';
import { catalogueCollections, catalogueRoutes } from './catalogue';
import { projectRoutes } from './routes';

export type { Hospital, CatalogueDrug } from './catalogue';
export { CATALOGUE as catalogueCollectionNames } from './catalogue';

// The projects collection is declared by case management too (declaring is idempotent): this
// module must work whether or not the cases module is mounted beside it.
const projectsCollection = caseCollections.find((c) => c.name === caseCollectionNames.projects)!;

export const projectsModule = defineModule({
  name: 'projects',
  prefix: '',
  collections: [projectsCollection, ...catalogueCollections],
  routes: (router) => {
    projectRoutes(router);
    catalogueRoutes(router);
  },
});
