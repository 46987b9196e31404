/** The access module: roles, menus and permissions, project members, the operator area's roles and users. */
// The public surface first: other modules read these while this module's routes may still be loading.
export { accessCollections } from './collections';
export { keyGrants, grantsOf, grantsNow, authorize, requirePermission, requireOwner } from './permissions';
export type { Role, ProjectMember, Grants } from './permissions';
export { menuItems } from './menus';
export type { MenuItem } from './menus';
export { isOperatorPermission, permissionsOfArea } from './menus';
export type { OperatorRole } from './permissions';
export { assertAssignableRoles } from './service';

import { defineModule } from '../http';
import type { ModuleDeps } from '../http';
import { accessCollections } from './collections';
import type { IdentityOptions } from '../auth';
import { identityOptionsFromEnv, registerAuthorizer } from '../auth';
import { accessRoutes } from './routes';
import { authorize, grantsNow, grantsOf } from './permissions';

// The identity module's authenticator answers permissions with access's grants (auth imports no access).
registerAuthorizer({ grantsOf, grantsNow, authorize });

/** Names of the modules the platform mounts: the registry createPlatform hands every module. */
export function mountedModules(deps: ModuleDeps): Set<string> {
  return new Set(deps.modules);
}

export function createAccessModule(given?: IdentityOptions) {
  return defineModule({
    name: 'access',
    dependsOn: ['auth', 'tenancy'],
    collections: accessCollections,
    routes: (router, deps) =>
      accessRoutes(router, deps, given ?? identityOptionsFromEnv(), () =>
        Promise.resolve(mountedModules(deps)),
      ),
  });
}

export const accessModule = createAccessModule();
