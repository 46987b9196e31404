/** The report pages by route (registered in the shell's built pages). */
import type { ComponentType } from 'react';

export const REPORT_PAGES: { path: string; load: () => Promise<{ default: ComponentType }> }[] = [
  { path: '/reportmanagment/viewReport', load: () => import('./ViewReportPage') },
  { path: '/reportmanagment/exportCimos', load: () => import('./CiomsPreviewPage') },
];
