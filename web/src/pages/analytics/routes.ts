/** The pooled-analysis pages by route (registered in the shell's built pages). */
import type { ComponentType } from 'react';

export const ANALYTICS_PAGES: { path: string; load: () => Promise<{ default: ComponentType }> }[] = [
  { path: '/pooledanalysis/secondTitle', load: () => import('./SummaryPage') },
  { path: '/pooledanalysis/multidimensionalCrossover', load: () => import('./PivotPage') },
  { path: '/pooledanalysis/eventLevel', load: () => import('./SignalsPage') },
];
