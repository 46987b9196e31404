/** Tenant limits on projects, sponsors and users (SPEC 6), for the modules that create them. */
import { errors } from '../http/errors';
import type { Store } from '../store/port';
import type { TenantLimits } from '../auth/model';
import { getTenant } from './tenants';

/**
 * Refuses one more `kind` when the tenant already has `current` of them at its limit. The
 * projects and sponsors modules call this before creating one (users call it in users/).
 */
export async function assertTenantLimit(
  store: Store,
  tenantId: string,
  kind: keyof TenantLimits,
  current: number,
): Promise<void> {
  const tenant = await getTenant(store, tenantId);
  const limit = tenant?.limits[kind] ?? 0;
  if (current + 1 > limit) throw errors.badRequest(`tenancy.limit.${kind}`, { limit });
}
