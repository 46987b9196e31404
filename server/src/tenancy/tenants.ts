/** Reading tenants, with a few seconds' cache: every request checks its tenant's status and expiry. */
import { AppError } from '../http';
import { Code } from '../http';
import type { Store, StoredDoc } from '../store';
import { C } from '../auth';
import type { Tenant } from '../auth';

const CACHE_MS = 3000;
const caches = new WeakMap<Store, Map<string, { tenant: StoredDoc<Tenant> | null; at: number }>>();

function cacheOf(store: Store) {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  return cache;
}

/** The tenant, from a cache at most three seconds old (status and expiry changes apply within that). */
export async function getTenant(store: Store, tenantId: string): Promise<StoredDoc<Tenant> | null> {
  const cache = cacheOf(store);
  const hit = cache.get(tenantId);
  // The cache's age is a duration: the monotonic clock.
  const now = performance.now();
  if (hit && now - hit.at < CACHE_MS) return hit.tenant;
  const tenant = await store
    .platform({ userId: 'system:auth' })
    .collection<Tenant>(C.tenants)
    .findOne({ _id: tenantId });
  cache.set(tenantId, { tenant, at: now });
  return tenant;
}

/** The tenant when the cache holds it (under three seconds old), else undefined: getTenant without an await. */
export function cachedTenant(store: Store, tenantId: string): StoredDoc<Tenant> | null | undefined {
  const hit = cacheOf(store).get(tenantId);
  return hit && performance.now() - hit.at < CACHE_MS ? hit.tenant : undefined;
}

export function forgetTenant(store: Store, tenantId: string): void {
  cacheOf(store).delete(tenantId);
}

/** Refuses a tenant that is not approved, is disabled or has expired (SPEC 6). */
export function assertTenantUsable(tenant: Tenant | null, now: Date, code: number = Code.badRequest): void {
  if (!tenant || tenant.status === 'rejected')
    throw new AppError(code, 'tenancy.tenantUnknown', {}, code === Code.badRequest ? 400 : undefined);
  if (tenant.status === 'pending')
    throw new AppError(code, 'tenancy.tenantPending', {}, code === Code.badRequest ? 400 : undefined);
  if (tenant.status === 'disabled')
    throw new AppError(code, 'tenancy.tenantDisabled', {}, code === Code.badRequest ? 400 : undefined);
  if (tenant.expiresAt && tenant.expiresAt <= now.toISOString()) {
    throw new AppError(
      code,
      'tenancy.tenantExpired',
      { expiresAt: tenant.expiresAt.slice(0, 10) },
      code === Code.badRequest ? 400 : undefined,
    );
  }
}
