/** The personal workbench's pages by route (registered in the shell's built pages). */
import type { ComponentType } from 'react';

export const WORKBENCH_PAGES: { path: string; load: () => Promise<{ default: ComponentType }> }[] = [
  { path: '/home/personalhome', load: () => import('./WorkbenchPage') },
  { path: '/home/casetodo', load: () => import('./CaseFeedPage') },
  { path: '/home/overduecases', load: () => import('./CaseFeedPage') },
  { path: '/home/preduealerts', load: () => import('./CaseFeedPage') },
  { path: '/home/downloadstasks', load: () => import('./DownloadTasksPage') },
];
