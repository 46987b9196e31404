/** The project administration pages that need a screen of their own (registered in the shell's built pages). */
import type { ComponentType } from 'react';

export const PROJECT_PAGES: { path: string; load: () => Promise<{ default: ComponentType }> }[] = [
  { path: '/authoritymanagement/projectInfo', load: () => import('./ProjectInfoPage') },
  { path: '/authoritymanagement/codeManagement', load: () => import('./CodeManagementPage') },
];
