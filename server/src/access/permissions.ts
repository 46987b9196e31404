/**
 * Who may do what. A tenant caller's permissions are the union of their tenant roles, plus, in a
 * project, their project roles and the project's permission keys. The project is the one of the
 * object a route acts on (its `scope`: a case's own project), where only the project's members (and
 * tenant administrators) hold anything; without an object, the `projectId` header's (the context
 * of lists), which lends nothing to another project's objects. A key
 * `<permission>:<userId>` grants the control to that user only. The enterprise administrator and
 * the tenant system administrator hold every tenant permission. Operator permissions
 * (holoxcontrol:*) belong to platform operators only, and operators hold no tenant permission.
 */
import type { Caller } from '../http';
import type { AuthorizationContext, AuthorizationScope, Principal } from '../http';
import type { ModuleDeps } from '../http';
import type { Store, WriteCounter } from '../store';
import { errors, KeptTable } from '../http';
import { C } from '../auth';
import type { Account, User } from '../auth';
import { getTenant } from '../tenancy';
import { isOperatorPermission, permissionsOfArea } from './menus';

export type RoleType = 'enterprise-admin' | 'sub-admin' | 'business' | 'project';

export interface Role {
  name: string;
  nameEn?: string;
  type: RoleType;
  description?: string;
  /** Permission identifier of the role itself (e.g. `dataEntry`), unique in the tenant. */
  identifier: string;
  /** Menu and button permission identifiers (schemas/menus). */
  permissions: string[];
  builtIn?: boolean;
}

export interface ProjectMember {
  projectId: string;
  userId: string;
  roleIds: string[];
  /** Extra permission keys for this user in this project; `<permission>:<userId>` style allowed. */
  permissionKeys: string[];
}

export interface OperatorRole {
  name: string;
  nameEn?: string;
  identifier: string;
  description?: string;
  permissions: string[];
}

/** True when the keys grant the permission, directly or for this user only. */
export function keyGrants(keys: ReadonlySet<string>, permission: string, userId: string): boolean {
  return keys.has(permission) || keys.has(`${permission}:${userId}`);
}

export interface Grants {
  all: boolean;
  /** The caller is a member of the project the grants were computed for. */
  member: boolean;
  keys: Set<string>;
  roleIdentifiers: string[];
}

/**
 * Grants are kept across requests for at most this long (real time), as sessions are
 * (SESSION_CACHE_MS): a change made by another server instance counts within this window.
 */
export const GRANTS_CACHE_MS = 2000;
/** What grants are computed from: a write to any of them in this process drops every kept grant. */
const GRANT_SOURCES = [C.tenants, C.accounts, C.users, C.roles, C.projectMembers, C.operatorRoles];
interface KeptGrants {
  grants: Promise<Grants>;
  /** The grants once computed: a check then needs no await. */
  value: Grants | null;
  generation: number;
  at: number;
}
/** Per store: the kept grants by tenant, user, then project ('' for none); the sources' write count. */
interface StoreGrants {
  table: KeptTable<Map<string, KeptGrants>>;
  sources: WriteCounter;
}
const kept = new WeakMap<Store, StoreGrants>();

function keptOf(store: Store): StoreGrants {
  let perStore = kept.get(store);
  if (!perStore)
    kept.set(store, (perStore = { table: new KeptTable(), sources: store.writeCounter(GRANT_SOURCES) }));
  return perStore;
}

/** An operator's grants never answer for a tenant user of the same ids. */
const tenantKey = (principal: Principal): string =>
  principal.operator === true ? `operator\n${principal.tenantId}` : principal.tenantId;

/**
 * The caller's kept grants (grantsOf) when they are computed and still current, else null:
 * what lets `authorize` answer without an await.
 */
function currentGrants(deps: ModuleDeps, principal: Principal, projectId: string | null): Grants | null {
  const perStore = kept.get(deps.store);
  if (!perStore) return null;
  const hit = perStore.table.get(tenantKey(principal), principal.userId)?.get(projectId ?? '');
  if (!hit?.value) return null;
  return hit.generation === perStore.sources.count && performance.now() - hit.at < GRANTS_CACHE_MS
    ? hit.value
    : null;
}

/**
 * The caller's grants, kept from an earlier request (or check) while none of their sources changed
 * in this process and GRANTS_CACHE_MS has not passed (a permission check then costs no store
 * read); computed otherwise.
 */
export function grantsOf(deps: ModuleDeps, principal: Principal, projectId: string | null): Promise<Grants> {
  const { table, sources } = keptOf(deps.store);
  const tenant = tenantKey(principal);
  let perUser = table.get(tenant, principal.userId);
  if (!perUser) table.set(tenant, principal.userId, (perUser = new Map()));
  const key = projectId ?? '';
  // Read before the sources are: a write landing meanwhile leaves the entry stale, and unused.
  const generation = sources.count;
  const now = performance.now();
  const hit = perUser.get(key);
  if (hit && hit.generation === generation && now - hit.at < GRANTS_CACHE_MS) return hit.grants;
  const entry: KeptGrants = {
    grants: computeGrants(deps, principal, projectId),
    value: null,
    generation,
    at: now,
  };
  const entries = perUser;
  entries.set(key, entry);
  entry.grants.then(
    (grants) => (entry.value = grants),
    () => {
      if (entries.get(key) === entry) entries.delete(key);
    },
  );
  return entry.grants;
}

/** The caller's grants: kept ones at once (no await) while current, else grantsOf's promise. */
export function grantsNow(
  deps: ModuleDeps,
  principal: Principal,
  projectId: string | null,
): Grants | Promise<Grants> {
  return currentGrants(deps, principal, projectId) ?? grantsOf(deps, principal, projectId);
}

async function computeGrants(
  deps: ModuleDeps,
  principal: Principal,
  projectId: string | null,
): Promise<Grants> {
  if (principal.operator === true) {
    const platform = deps.store.platform({ userId: principal.userId });
    const account = await platform.collection<Account>(C.accounts).findOne({ _id: principal.userId });
    const roles = account?.operatorRoleIds.length
      ? await platform
          .collection<OperatorRole>(C.operatorRoles)
          .find({ _id: { $in: account.operatorRoleIds } })
      : [];
    return {
      all: false,
      member: false,
      keys: new Set(roles.flatMap((role) => role.permissions).filter(isOperatorPermission)),
      roleIdentifiers: roles.map((role) => role.identifier),
    };
  }
  const handle = deps.store.tenant(principal.tenantId, { userId: principal.userId });
  const tenant = await getTenant(deps.store, principal.tenantId);
  const user = await handle.collection<User>(C.users).findOne({ accountId: principal.userId });
  const keys = new Set<string>();
  const roleIds = new Set(user?.roleIds ?? []);
  let projectKeys: string[] = [];
  let member: ProjectMember | null = null;
  if (projectId) {
    member = await handle
      .collection<ProjectMember>(C.projectMembers)
      .findOne({ projectId, userId: principal.userId });
    for (const id of member?.roleIds ?? []) roleIds.add(id);
    projectKeys = member?.permissionKeys ?? [];
  }
  const roles = roleIds.size
    ? await handle.collection<Role>(C.roles).find({ _id: { $in: [...roleIds] } })
    : [];
  for (const role of roles) for (const permission of role.permissions) keys.add(permission);
  for (const key of projectKeys) keys.add(key);
  const all =
    tenant?.enterpriseAdminId === principal.userId ||
    tenant?.systemAdminId === principal.userId ||
    roles.some((role) => role.type === 'enterprise-admin');
  if (all) for (const permission of permissionsOfArea('tenant')) keys.add(permission);
  for (const key of [...keys]) if (isOperatorPermission(key)) keys.delete(key);
  return { all, member: member !== null, keys, roleIdentifiers: roles.map((role) => role.identifier) };
}

/**
 * The authenticator's `authorize`: route permissions are checked here, on the server, always. With
 * a `scope` (the object's own project) the header's project plays no part, and a caller who is not
 * a member of the scope's project holds nothing there (tenant administrators excepted).
 */
export function authorize(
  deps: ModuleDeps,
  principal: Principal,
  permission: string,
  context: AuthorizationContext,
  scope?: AuthorizationScope,
): Promise<boolean> | boolean {
  if (principal.mustChangePassword === true) return false;
  const operatorPermission = isOperatorPermission(permission);
  if (operatorPermission !== (principal.operator === true)) return false;
  const projectId = scope ? scope.projectId : context.projectId;
  // Kept and current grants answer at once; otherwise they are read (or awaited) first.
  const grants = currentGrants(deps, principal, projectId);
  if (grants) return grantsAllow(grants, principal, permission, scope);
  return grantsOf(deps, principal, projectId).then((read) => grantsAllow(read, principal, permission, scope));
}

function grantsAllow(
  grants: Grants,
  principal: Principal,
  permission: string,
  scope: AuthorizationScope | undefined,
): boolean {
  if (scope && scope.membership !== 'optional' && !grants.all && !grants.member) return false;
  return keyGrants(grants.keys, permission, principal.userId);
}

/**
 * For services: refuses unless the caller holds the permission - in `scope`'s project when the
 * service acts on an object (a case's own project), else in the request's context.
 */
export async function requirePermission(
  caller: Caller,
  permission: string,
  scope?: AuthorizationScope,
): Promise<void> {
  const { principal, projectId } = caller;
  if (!(await authorize(caller.deps, principal, permission, { projectId }, scope))) throw errors.forbidden();
}

/** Owner-only controls: the caller must be the document's owner (its creator unless told). */
export function requireOwner(
  principal: Principal,
  doc: { createdBy?: string },
  ownerId = doc.createdBy,
): void {
  if (!ownerId || ownerId !== principal.userId) throw errors.forbidden('access.ownerOnly');
}
