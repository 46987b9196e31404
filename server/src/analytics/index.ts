/**
 * Pooled analysis (`/api/analytics`, issue 22): the statistics and pivots declared in
 * schemas/analytics, counted by the store over the caller's projects, blinded as the unblinding
 * module defines. The disproportionality figures live in the engine (engine/src/analytics).
 */
export {
  BLINDED_VALUE,
  PERMISSIONS as ANALYTICS_PERMISSIONS,
  runPivot,
  runSignals,
  runStatistic,
} from './service';
export { runEventTree } from './events';
export { signalThresholds } from './thresholds';
export type { EventTreeAnswer, TreeNode } from './events';
export type {
  AnalyticsAnswer,
  PivotMargins,
  AnalyticsFilters,
  AnalyticsQuery,
  AnalyticsRow,
  SignalAnswer,
  SignalRow,
} from './service';

import { defineModule } from '../http';
import { analyticsRoutes } from './routes';
import { analyticsExportJobs } from './export';
import { analyticsCollections } from './thresholds';

export const analyticsModule = defineModule({
  name: 'analytics',
  dependsOn: ['cases', 'dictionaries', 'downloads', 'reports', 'unblinding'],
  collections: analyticsCollections,
  routes: analyticsRoutes,
  jobs: analyticsExportJobs,
});
