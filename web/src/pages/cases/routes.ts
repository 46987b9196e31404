/** The case pages by route (registered in the shell's built pages). */
import type { ComponentType } from 'react';

export const CASE_PAGES: { path: string; load: () => Promise<{ default: ComponentType }> }[] = [
  { path: '/activecase', load: () => import('./CaseDetailPage') },
  { path: '/casemanagement/caseview', load: () => import('./CaseListPage') },
  { path: '/casemanagement/casebookin', load: () => import('./CaseRegistrationPage') },
  { path: '/previewHistoryVersion', load: () => import('./CasePreviewPage') },
];
