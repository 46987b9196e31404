/** The access module: roles, menus and permissions, project members, the operator area's roles and users. */
import { defineModule } from '../http/module';
import { accessCollections } from '../auth/collections';
import type { IdentityOptions } from '../auth/options';
import { identityOptionsFromEnv } from '../auth/options';
import { accessRoutes } from './routes';

/** Names of the modules the server runs (server/src/modules.ts plus the platform's own). */
export async function mountedModules(): Promise<Set<string>> {
  const { modules } = await import('../modules');
  return new Set(['health', 'jobs', 'uploads', ...modules.map((m) => m.name)]);
}

export function createAccessModule(options: IdentityOptions = identityOptionsFromEnv()) {
  return defineModule({
    name: 'access',
    collections: accessCollections,
    routes: (router, deps) => accessRoutes(router, deps, options, mountedModules),
  });
}

export const accessModule = createAccessModule();
export { keyGrants, grantsOf, authorize, requirePermission, requireOwner } from './permissions';
export type { Role, ProjectMember, Grants } from './permissions';
export { menuItems } from './menus';
export type { MenuItem } from './menus';
