/** The tenancy module: tenants (registration, approval, limits, expiry, security), organisations, company. */
// The public surface first: other modules read these while this module's routes may still be loading.
export { tenancyCollections } from './collections';
export { assertSponsorLimit, assertTenantLimit } from './limits';
export { getTenant, assertTenantUsable } from './tenants';
export { REGISTRATION_DAYS, onlyRegistered, purgeExpiredRegistrations } from './registrations';
export { createTenant } from './routes';
export { forgetTenant } from './tenants';

import { defineModule } from '../http';
import { tenancyCollections } from './collections';
import type { IdentityOptions } from '../auth';
import { identityOptionsFromEnv, registerTenantDirectory } from '../auth';
import { tenancyRoutes } from './routes';
import { purgeExpiredRegistrations } from './registrations';
import { assertTenantUsable, cachedTenant, getTenant } from './tenants';

// Login and the authenticator check tenants through tenancy (auth imports no tenancy).
registerTenantDirectory({ getTenant, cachedTenant, assertTenantUsable, purgeExpiredRegistrations });

export function createTenancyModule(given?: IdentityOptions) {
  return defineModule({
    name: 'tenancy',
    dependsOn: ['auth'],
    collections: tenancyCollections,
    routes: (router, deps) => tenancyRoutes(router, deps, given ?? identityOptionsFromEnv()),
  });
}

export const tenancyModule = createTenancyModule();
