/**
 * The projects the user works in, with their study sites (GET /api/names/projects): what the
 * project and site pickers offer. Read once per page and shared by every picker on it.
 */
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { api } from '../app/api';
import type { DisplayName } from './names';

export interface SiteChoice extends DisplayName {
  id: string;
}

export interface ProjectChoice extends DisplayName {
  id: string;
  code: string;
  sites: SiteChoice[];
}

let cached: { path: string; choices: Promise<ProjectChoice[]> } | null = null;

function load(path: string): Promise<ProjectChoice[]> {
  if (cached?.path !== path) {
    const choices = api.request<ProjectChoice[]>('/names/projects', { silent: true }).catch(() => []);
    cached = { path, choices };
  }
  return cached.choices;
}

/** null while loading. */
export function useProjectChoices(): ProjectChoice[] | null {
  const { pathname } = useLocation();
  const [choices, setChoices] = useState<ProjectChoice[] | null>(null);
  useEffect(() => {
    let live = true;
    void load(pathname).then((list) => live && setChoices(list));
    return () => {
      live = false;
    };
  }, [pathname]);
  return choices;
}
