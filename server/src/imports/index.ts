/**
 * The E2B import (/reportmanagment/importReport): upload of XML or zip files, their parse as a
 * job, the pre-processing comparison with the existing case, the data check, and the generation
 * of new reports or follow-up versions through case management. See README.md for the API.
 */
import { defineModule } from '../http/module';
import { importCollections } from './collections';
import { parseJob } from './parse-job';
import { importRoutes } from './routes';
import { importObject } from './service';

export { IMPORT_RECORDS, IMPORT_REPORTS } from './collections';
export type { ImportRecord, ImportReport, ProcessingStatus, ParseStatus } from './collections';

export const importsModule = defineModule({
  name: 'imports',
  collections: importCollections,
  jobs: [parseJob],
  routes: importRoutes,
  // An import's permissions are checked in its record's project (service.ts).
  objects: { import: importObject },
});
