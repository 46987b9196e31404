/**
 * What the identity module asks of the modules built on it, registered by them when they load:
 * the access module answers a caller's permissions, the tenancy module answers tenants (a tenant's
 * state and security settings, expired registrations). Auth imports neither, so access and
 * tenancy can build on auth without a module cycle. Until access registers, nobody holds any
 * permission (fail closed); a tenant lookup without tenancy is a platform error.
 */
import type { AuthorizationContext, AuthorizationScope, ModuleDeps, Principal } from '../http';
import type { Store, StoredDoc } from '../store';
import type { Tenant } from './model';

/** A caller's grants in one project (or tenant-wide): what access computes from roles and memberships. */
export interface CallerGrants {
  /** Holds every permission of the tenant (its administrators). */
  all: boolean;
  /** A member of the project the grants were computed for. */
  member: boolean;
  keys: Set<string>;
  roleIdentifiers: string[];
}

export interface Authorizer {
  grantsOf(deps: ModuleDeps, principal: Principal, projectId: string | null): Promise<CallerGrants>;
  /** grantsOf's answer at once (no await) when the grants are kept, else its promise. */
  grantsNow?(
    deps: ModuleDeps,
    principal: Principal,
    projectId: string | null,
  ): CallerGrants | Promise<CallerGrants>;
  /** A boolean at once when the grants are kept (no await), else a promise. */
  authorize(
    deps: ModuleDeps,
    principal: Principal,
    permission: string,
    context: AuthorizationContext,
    scope?: AuthorizationScope,
  ): Promise<boolean> | boolean;
}

export interface TenantDirectory {
  /** The tenant (possibly from a short cache); null when there is none. */
  getTenant(store: Store, tenantId: string): Promise<StoredDoc<Tenant> | null>;
  /** getTenant's answer when its cache holds one (no await), else undefined. */
  cachedTenant?(store: Store, tenantId: string): StoredDoc<Tenant> | null | undefined;
  /** Refuses a tenant that is unknown, not approved, disabled or expired, with `code` (default 400). */
  assertTenantUsable(tenant: Tenant | null, now: Date, code?: number): void;
  /** Removes registrations left unapproved past their time. */
  purgeExpiredRegistrations(deps: Pick<ModuleDeps, 'store' | 'clock'>): Promise<unknown>;
}

let authorizer: Authorizer | null = null;
let tenants: TenantDirectory | null = null;

/** The access module registers how permissions are answered (again: replaces, as a module loaded twice in tests). */
export function registerAuthorizer(given: Authorizer): void {
  authorizer = given;
}

/** The tenancy module registers how tenants are read and checked. */
export function registerTenantDirectory(given: TenantDirectory): void {
  tenants = given;
}

function directory(): TenantDirectory {
  if (!tenants)
    throw new Error('no tenant directory: the tenancy module registers it with auth when it loads');
  return tenants;
}

export function grantsOf(
  deps: ModuleDeps,
  principal: Principal,
  projectId: string | null,
): Promise<CallerGrants> {
  if (!authorizer)
    return Promise.resolve({ all: false, member: false, keys: new Set(), roleIdentifiers: [] });
  return authorizer.grantsOf(deps, principal, projectId);
}

/** grantsOf, at once when the registered authorizer keeps the grants. */
export function grantsNow(
  deps: ModuleDeps,
  principal: Principal,
  projectId: string | null,
): CallerGrants | Promise<CallerGrants> {
  return authorizer?.grantsNow
    ? authorizer.grantsNow(deps, principal, projectId)
    : grantsOf(deps, principal, projectId);
}

/** The registered authorizer's answer (a boolean at once when it has one); false without one. */
export function authorize(
  deps: ModuleDeps,
  principal: Principal,
  permission: string,
  context: AuthorizationContext,
  scope?: AuthorizationScope,
): Promise<boolean> | boolean {
  return authorizer ? authorizer.authorize(deps, principal, permission, context, scope) : false;
}

export function getTenant(store: Store, tenantId: string): Promise<StoredDoc<Tenant> | null> {
  return directory().getTenant(store, tenantId);
}

/** The tenant when the directory's cache holds it, else undefined (ask getTenant). */
export function cachedTenant(store: Store, tenantId: string): StoredDoc<Tenant> | null | undefined {
  return directory().cachedTenant?.(store, tenantId);
}

export function assertTenantUsable(tenant: Tenant | null, now: Date, code?: number): void {
  directory().assertTenantUsable(tenant, now, code);
}

export function purgeExpiredRegistrations(deps: Pick<ModuleDeps, 'store' | 'clock'>): Promise<unknown> {
  return directory().purgeExpiredRegistrations(deps);
}
