/**
 * The case form of a project as its published configuration lays it out (GET
 * /api/configuration/form): custom fields, labels and field order of the project's PRO version.
 * Until it arrives (or when it cannot be read) the base layout is used.
 */
import { useEffect, useState } from 'react';
import { caseTabs } from '../../../../engine/src/index';
import type { CaseTabs } from '../../../../engine/src/index';
import { api } from '../../app/api';

export function useConfiguredCaseTabs(projectId: string | null): CaseTabs {
  const [tabs, setTabs] = useState<{ projectId: string; tabs: CaseTabs } | null>(null);
  useEffect(() => {
    if (!projectId) return;
    let current = true;
    api.request<CaseTabs>('/configuration/form', { params: { projectId }, silent: true }).then(
      (answer) => {
        if (current) setTabs({ projectId, tabs: { tabs: answer.tabs, notInTabs: answer.notInTabs } });
      },
      // The base layout stays: the server still checks the case with the project's configuration.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [projectId]);
  return tabs && tabs.projectId === projectId ? tabs.tabs : caseTabs;
}
