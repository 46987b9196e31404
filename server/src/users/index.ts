/** The users module: tenant users (states, activation, reset), the user operation log, the demo seed. */
import { defineModule } from '../http/module';
import { usersCollections } from '../auth/collections';
import type { IdentityOptions } from '../auth/options';
import { identityOptionsFromEnv } from '../auth/options';
import { operationLogMiddleware } from './oplog';
import { usersRoutes } from './routes';
import { seedDemo } from './seed';

export function createUsersModule(options: IdentityOptions = identityOptionsFromEnv()) {
  return defineModule({
    name: 'users',
    collections: usersCollections,
    routes: usersRoutes,
    middleware: operationLogMiddleware,
    seed: (deps) => seedDemo(deps, options),
  });
}

export const usersModule = createUsersModule();
export type { OperationLogEntry } from './oplog';
export { DEMO_TENANT_CODE, DEMO_ACCOUNTS } from './seed';
