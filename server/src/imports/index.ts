/**
 * The E2B import (/reportmanagment/importReport): upload of XML or zip files, their parse as a
 * job, the pre-processing comparison with the existing case, the data check, and the generation
 * of new reports or follow-up versions through case management. See README.md for the API.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { IMPORT_RECORDS, IMPORT_REPORTS } from './collections';
export type { ImportRecord, ImportReport, ProcessingStatus, ParseStatus } from './collections';

import { defineModule } from '../http';
import { importCollections } from './collections';
import { parseJob } from './parse-job';
import { importRoutes } from './routes';
import { KIND_ROUTES, kindObject } from './kinds';
import { IMPORT_KINDS } from './collections';
import { templateCollection, templateObject } from './templates';

export const importsModule = defineModule({
  name: 'imports',
  dependsOn: ['cases', 'configuration', 'dictionaries', 'jobs', 'uploads', 'workflow'],
  collections: [...importCollections, templateCollection],
  jobs: [parseJob],
  routes: importRoutes,
  // An import's (a template's) permissions are checked in its record's (template's) project; each
  // kind's records through their own object kind.
  objects: {
    ...Object.fromEntries(IMPORT_KINDS.map((kind) => [KIND_ROUTES[kind].object.kind, kindObject(kind)])),
    importTemplate: templateObject,
  },
});
