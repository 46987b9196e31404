/**
 * Download tasks (personal workbench, /home/downloadstasks): long exports run as background jobs
 * that leave a file in the file store for their owner, kept for a retention period.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { DOWNLOAD_PERMISSIONS, taskViewSchema } from './routes';
export { DOWNLOAD_TASKS, RETENTION_DAYS } from './collections';
export type { TaskView } from './service';
export { startTask as startDownload } from './service';
export { declareDownload, downloadKind, downloadKinds } from './kinds';
export type { DownloadKindDeclaration, DownloadProduction, TaskPayload } from './kinds';
export { selectedCaseIds } from './line-listing';

import { defineModule } from '../http';
import { downloadCollections } from './collections';
import { purgeExpiredDownloads, downloadSchedules } from './housekeeping';
import { caseLineListingJob } from './line-listing';
import { downloadRoutes } from './routes';
import { lineListingTemplateObject, templateCollection } from './templates';

export const downloadsModule = defineModule({
  name: 'downloads',
  dependsOn: ['auth', 'cases', 'jobs', 'masterdata', 'names', 'unblinding', 'uploads'],
  collections: [...downloadCollections, templateCollection],
  objects: { lineListingTemplate: lineListingTemplateObject },
  routes: downloadRoutes,
  jobs: [caseLineListingJob, purgeExpiredDownloads],
  schedules: downloadSchedules,
});
