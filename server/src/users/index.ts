/** The users module: tenant users (states, activation, reset), the user operation log, the demo seed. */
// The public surface first: other modules read these while this module's routes may still be loading.
export { USER_SORTABLE, usersCollections } from './collections';
export type { OperationLogEntry } from './oplog';
export { DEMO_TENANT_CODE, DEMO_ACCOUNTS } from './seed';
export { DEMO_SEED_ACTOR, demoTenantId } from './demo-tenant';

import { defineModule } from '../http';
import { usersCollections } from './collections';
import type { IdentityOptions } from '../auth';
import { identityOptionsFromEnv } from '../auth';
import { operationLogMiddleware } from './oplog';
import { usersRoutes } from './routes';
import { seedDemo } from './seed';

export function createUsersModule(given?: IdentityOptions) {
  return defineModule({
    name: 'users',
    dependsOn: ['access', 'auth', 'messages', 'tenancy'],
    // Read when the app mounts the module, not at import: auth may still be loading then (module cycle).
    get collections() {
      return usersCollections;
    },
    routes: usersRoutes,
    middleware: operationLogMiddleware,
    seed: (deps) => seedDemo(deps, given ?? identityOptionsFromEnv()),
  });
}

export const usersModule = createUsersModule();
