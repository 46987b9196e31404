/** Where a signed-in user lands: a forced password change first, then their first permitted page. */
import { useCallback } from 'react';
import type { SessionInfo } from '../api/identity';
import { menuPagePaths } from './navigation';
import { firstRoute, visibleMenus } from './menus';

export const HOME_ROUTE = '/home';
export const CHANGE_PASSWORD_ROUTE = '/personal/changePassword';

export function landingRoute(info: SessionInfo): string {
  if (info.mustChangePassword) return CHANGE_PASSWORD_ROUTE;
  return firstRoute(visibleMenus(info.menus, menuPagePaths), menuPagePaths) ?? HOME_ROUTE;
}

export function useLandingRoute(): (info: SessionInfo) => string {
  return useCallback(landingRoute, []);
}
