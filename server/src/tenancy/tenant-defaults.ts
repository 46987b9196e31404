/**
 * The defaults of new tenants (set by the platform operator on the tenants page): the limits and
 * the password and session policy a new tenant starts with, whether registered or created by an
 * operator. Changing them never touches existing tenants.
 */
import type { ModuleDeps } from '../http';
import type { SecuritySettings, TenantLimits } from '../auth';
import { DEFAULT_SECURITY } from '../auth';
import { C } from '../auth';

const DEFAULTS_ID = 'tenantDefaults';

export const DEFAULT_LIMITS: TenantLimits = { projects: 20, sponsors: 10, users: 200 };

export interface TenantDefaults {
  limits: TenantLimits;
  security: SecuritySettings;
}

export async function tenantDefaults(deps: ModuleDeps): Promise<TenantDefaults & { rev: number | null }> {
  const stored = await deps.store
    .platform({ userId: 'system:settings' })
    .collection<TenantDefaults>(C.platformSettings)
    .findOne({ _id: DEFAULTS_ID });
  return stored
    ? { limits: stored.limits, security: stored.security, rev: stored.rev }
    : { limits: DEFAULT_LIMITS, security: DEFAULT_SECURITY, rev: null };
}

/** Saves the defaults; `rev` is the revision read (null when nothing was stored yet). */
export async function saveTenantDefaults(
  deps: ModuleDeps,
  actor: string,
  defaults: TenantDefaults,
  rev: number | null,
): Promise<TenantDefaults & { rev: number | null }> {
  const settings = deps.store.platform({ userId: actor }).collection<TenantDefaults>(C.platformSettings);
  const saved =
    rev === null
      ? await settings.insertOne({ _id: DEFAULTS_ID, ...defaults })
      : await settings.updateOne(
          { _id: DEFAULTS_ID },
          { $set: { limits: defaults.limits, security: defaults.security } },
          { expectedRev: rev },
        );
  return saved ? { limits: saved.limits, security: saved.security, rev: saved.rev } : tenantDefaults(deps);
}
