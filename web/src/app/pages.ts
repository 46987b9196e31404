/**
 * The pages that are built, by route path. The router serves exactly these (inside the layout,
 * when the user's menus permit them); the menus show exactly these.
 */
import type { ComponentType } from 'react';
import { ADMIN_PAGES } from '../pages/admin/registry';
import { ANALYTICS_PAGES } from '../pages/analytics/routes';
import { CASE_PAGES } from '../pages/cases/routes';
import { CONFIGURATOR_PAGES } from '../pages/configurator/routes';
import { PROJECT_PAGES } from '../pages/projects/routes';
import { REPORT_PAGES } from '../pages/reports/routes';
import { WORKBENCH_PAGES } from '../pages/workbench/routes';

export interface BuiltPage {
  path: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const builtPages: BuiltPage[] = [
  ...WORKBENCH_PAGES,
  ...CASE_PAGES,
  ...CONFIGURATOR_PAGES,
  ...PROJECT_PAGES,
  ...REPORT_PAGES,
  ...ANALYTICS_PAGES,
  ...Object.keys(ADMIN_PAGES).map((path) => ({ path, load: () => import('../pages/admin/AdminPage') })),
  { path: '/holoxcontrol/scheduledTasks', load: () => import('../pages/scheduled-tasks/ScheduledTasksPage') },
  { path: '/reportmanagment/whodrug', load: () => import('../pages/dictionaries/DictionariesPage') },
  { path: '/reportmanagment/importReport', load: () => import('../pages/imports/ImportPage') },
  { path: '/reportmanagment/lineListing', load: () => import('../pages/imports/SheetImportPage') },
  { path: '/reportmanagment/excel', load: () => import('../pages/imports/SheetImportPage') },
  { path: '/reportmanagment/cimos', load: () => import('../pages/imports/SheetImportPage') },
  { path: '/submittransfer/E2Btransmission', load: () => import('../pages/transmission/TransmissionPage') },
  {
    path: '/submittransfer/supervisionSubmit',
    load: () => import('../pages/submissions/SupervisionSubmitPage'),
  },
  { path: '/submittransfer/bulkReporting', load: () => import('../pages/bulk-reporting/BulkReportingPage') },
  { path: '/casemanagement/batchUnblinding', load: () => import('../pages/unblinding/BatchUnblindingPage') },
  {
    path: '/casemanagement/medicalReviewTasks',
    load: () => import('../pages/coding/MedicalReviewTasksPage'),
  },
];

export const builtPaths: ReadonlySet<string> = new Set(builtPages.map((page) => page.path));
