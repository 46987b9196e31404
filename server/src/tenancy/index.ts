/** The tenancy module: tenants (registration, approval, limits, expiry, security), organisations, company. */
import { defineModule } from '../http/module';
import { tenancyCollections } from '../auth/collections';
import type { IdentityOptions } from '../auth/options';
import { identityOptionsFromEnv } from '../auth/options';
import { tenancyRoutes } from './routes';

export function createTenancyModule(options: IdentityOptions = identityOptionsFromEnv()) {
  return defineModule({
    name: 'tenancy',
    collections: tenancyCollections,
    routes: (router, deps) => tenancyRoutes(router, deps, options),
  });
}

export const tenancyModule = createTenancyModule();
export { assertSponsorLimit, assertTenantLimit } from './limits';
export { getTenant, assertTenantUsable } from './tenants';
