/**
 * Download tasks (personal workbench, /home/downloadstasks): long exports run as background jobs
 * that leave a file in the file store for their owner, kept for a retention period.
 */
import { defineModule } from '../http/module';
import { downloadCollections } from './collections';
import { purgeExpiredDownloads, downloadSchedules } from './housekeeping';
import { caseLineListingJob } from './line-listing';
import { downloadRoutes } from './routes';

export const downloadsModule = defineModule({
  name: 'downloads',
  collections: downloadCollections,
  routes: downloadRoutes,
  jobs: [caseLineListingJob, purgeExpiredDownloads],
  schedules: downloadSchedules,
});

export { DOWNLOAD_PERMISSIONS } from './routes';
export { RETENTION_DAYS } from './collections';
export type { TaskView } from './service';
