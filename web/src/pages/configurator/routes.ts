/** The configurator page by route (registered in the shell's built pages). */
import type { ComponentType } from 'react';

export const CONFIGURATOR_PAGES: { path: string; load: () => Promise<{ default: ComponentType }> }[] = [
  { path: '/authoritymanagement/templateConfiguration', load: () => import('./ConfiguratorPage') },
];
