/**
 * The case form of a project as its published configuration lays it out (GET
 * /api/configuration/form): custom fields, labels and field order of the project's PRO version, or
 * of its UAT drafts when a configurator tries them. Until it arrives (or when it cannot be read)
 * the base layout is used.
 */
import { useEffect, useState } from 'react';
import { caseTabs } from '@pv/engine';
import type { CaseTabs } from '@pv/engine';
import { api } from '../../app/api';

export function useConfiguredCaseTabs(
  projectId: string | null,
  environment: 'UAT' | 'PRO' = 'PRO',
): CaseTabs {
  const [tabs, setTabs] = useState<{ key: string; tabs: CaseTabs } | null>(null);
  const key = `${environment}|${projectId ?? ''}`;
  useEffect(() => {
    if (!projectId) return;
    let current = true;
    const params = { projectId, environment };
    api.request<CaseTabs>('/configuration/form', { params, silent: true }).then(
      (answer) => {
        if (current) setTabs({ key, tabs: { tabs: answer.tabs, notInTabs: answer.notInTabs } });
      },
      // The base layout stays: the server still checks the case with the project's configuration.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [projectId, environment, key]);
  return tabs && tabs.key === key ? tabs.tabs : caseTabs;
}
