/** Tenant limits on projects, sponsors and users (SPEC 6), for the modules that create them. */
import { errors } from '../http';
import type { Store } from '../store';
import type { TenantLimits } from '../auth';
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

/** A sponsor name as the limit counts it: trimmed, inner spaces folded, case ignored. */
export function sponsorKey(name: string | null | undefined): string | null {
  const key = (name ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
  return key || null;
}

/**
 * Refuses a project naming a sponsor that would take the tenant past its sponsor limit. Sponsors
 * are named on the tenant's projects: one name on several projects counts once, and a sponsor the
 * tenant already has never counts again. `others` are the sponsors of the tenant's other (not
 * deleted) projects.
 */
export async function assertSponsorLimit(
  store: Store,
  tenantId: string,
  others: readonly (string | null | undefined)[],
  sponsor: string | null | undefined,
): Promise<void> {
  const key = sponsorKey(sponsor);
  if (!key) return;
  const known = new Set(others.map(sponsorKey).filter((k): k is string => k !== null));
  if (known.has(key)) return;
  await assertTenantLimit(store, tenantId, 'sponsors', known.size);
}
