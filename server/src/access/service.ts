/** Rules of role assignment: sub-administrators grant only what they hold. */
import type { Caller } from '../http';
import { errors } from '../http';
import { C } from '../auth';
import type { Role } from './permissions';
import { grantsOf } from './permissions';

/** Refuses roles that do not exist, or that give more than the caller holds (unless the caller holds all). */
export async function assertAssignableRoles(
  caller: Caller,
  roleIds: string[],
  alreadyHeld: string[] = [],
): Promise<void> {
  const added = roleIds.filter((id) => !alreadyHeld.includes(id));
  if (!added.length) return;
  const principal = caller.principal;
  const deps = caller.deps;
  const roles = await deps.store
    .tenant(principal.tenantId, { userId: principal.userId })
    .collection<Role>(C.roles)
    .find({ _id: { $in: added } });
  if (roles.length !== added.length) throw errors.badRequest('access.roleUnknown');
  await assertGrantable(
    caller,
    roles.flatMap((role) => role.permissions),
    roles.some((r) => r.type === 'enterprise-admin'),
  );
}

export async function assertGrantable(
  caller: Caller,
  permissions: string[],
  enterpriseAdmin = false,
): Promise<void> {
  const principal = caller.principal;
  const grants = await grantsOf(caller.deps, principal, null);
  if (grants.all) return;
  if (enterpriseAdmin || permissions.some((p) => !grants.keys.has(p)))
    throw errors.forbidden('access.cannotGrant');
}
