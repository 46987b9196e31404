import { describe, expect, it } from 'vitest';
import type { MenuNode, SessionInfo } from '../api/identity';
import { landingRoute } from './landing';
import { visibleMenus } from './menus';
import { RECORD_PAGES, menuPagePaths } from './navigation';
import { builtPaths } from './pages';

const node = (path: string, children: MenuNode[] = []): MenuNode => ({
  id: path,
  type: 'menu',
  path,
  permission: path,
  label: { zh: path, en: path },
  children,
});

// In the order of schemas/menus: the history version preview comes first.
const menus = [
  node('/previewHistoryVersion'),
  node('/home', [node('/home/personalhome')]),
  node('/activecase'),
  node('/casemanagement', [node('/casemanagement/caseview')]),
];

const info = (over: Partial<SessionInfo> = {}): SessionInfo => ({
  user: { id: 'u1', account: 'a', name: 'A' },
  tenant: null,
  tenants: [],
  operator: false,
  organisations: [],
  currentOrgId: null,
  menus,
  permissions: [],
  mustChangePassword: false,
  sessionMinutes: 30,
  ...over,
});

describe('navigation', () => {
  it('serves the record pages but offers them neither in the menus nor as the landing page', () => {
    for (const path of RECORD_PAGES) {
      expect(builtPaths.has(path), path).toBe(true);
      expect(menuPagePaths.has(path), path).toBe(false);
    }
    expect(visibleMenus(menus, menuPagePaths).map((m) => m.path)).toEqual(['/home', '/casemanagement']);
    expect(landingRoute(info())).toBe('/home/personalhome');
  });

  it('still sends a password past its cycle to the change page first', () => {
    expect(landingRoute(info({ mustChangePassword: true }))).toBe('/personal/changePassword');
  });
});
