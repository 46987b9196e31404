/** HTTP routes of the access module (prefix /api/access): roles, menus, project members, operator area. */
import { callerOf } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import { requirePrincipal } from '../http';
import { errors } from '../http';
import type { StoredDoc } from '../store';
import { accountsOf, findAccountByName, newAccount, usersOf } from '../auth';
import { C } from '../auth';
import type { Account, Tenant } from '../auth';
import { OPERATOR_TENANT } from '../auth';
import { endSessions } from '../auth';
import { issueLink } from '../auth';
import type { IdentityOptions } from '../auth';
import { entityRoutes, loadEntity, pickBody } from '../entities';
import { randomUUID } from 'node:crypto';
import { forgetTenant } from '../tenancy';
import { menuItems, permissionsOfArea } from './menus';
import type { OperatorRole, ProjectMember, Role } from './permissions';
import { grantsOf } from './permissions';
import { assertAssignableRoles, assertGrantable } from './service';
import { PROJECT_OBJECT } from '../http';

const str = (max = 200, min = 0) => ({ type: 'string', minLength: min, maxLength: max }) as const;
const idParams = (name: string) => ({ type: 'object', properties: { [name]: str(64) } });

// Bodies are the entity schemas' declarations (schemas/entities/role.json, operator-user.json,
// user.json): the admin forms render the same ones.
const operatorUserEntity = loadEntity('operator-user');
export function roleView(r: StoredDoc<Role>) {
  return {
    roleId: r._id,
    name: r.name,
    nameEn: r.nameEn ?? null,
    type: r.type,
    description: r.description ?? '',
    identifier: r.identifier,
    permissions: r.permissions,
    builtIn: r.builtIn ?? false,
    rev: r.rev,
  };
}

function assertKnownPermissions(permissions: string[], area: 'tenant' | 'operator'): void {
  const known = new Set(permissionsOfArea(area));
  const unknown = permissions.filter((p) => !known.has(p));
  if (unknown.length) throw errors.badRequest('access.permissionUnknown', { permission: unknown[0]! });
}

export function accessRoutes(
  router: ModuleRouter,
  deps: ModuleDeps,
  options: IdentityOptions,
  mounted: () => Promise<Set<string>>,
): void {
  router.route(
    {
      method: 'get',
      path: '/menus',
      summary:
        'The route and menu tree (schemas/menus) with the caller’s grant and whether the backing module is mounted',
    },
    async (c) => {
      const principal = requirePrincipal(c);
      const grants = await grantsOf(deps, principal, c.get('ctx').projectId);
      const modules = await mounted();
      return menuItems().map((item) => ({
        ...item,
        available: modules.has(item.module),
        granted:
          item.permission === null
            ? item.area !== 'operator' || principal.operator === true
            : grants.keys.has(item.permission) || grants.keys.has(`${item.permission}:${principal.userId}`),
      }));
    },
  );

  const rolesOf = (tenantId: string, userId: string) =>
    deps.store.tenant(tenantId, { userId }).collection<Role>(C.roles);

  router.route(
    {
      method: 'get',
      path: '/roles',
      summary: 'Roles of the tenant',
      permission: 'authoritymanagement:userAccountManagement:roleView',
    },
    async (c) => {
      const principal = requirePrincipal(c);
      return (
        await rolesOf(principal.tenantId, principal.userId).find({}, { sort: { name: 1 }, limit: 1000 })
      ).map(roleView);
    },
  );

  // Add, edit and delete are the generic entity CRUD over schemas/entities/role.json (the role
  // form renders the same declaration); the permission tree is the hook: every permission is a
  // declared one of the tenant's menus, and a sub-administrator grants only what they hold.
  entityRoutes<Role>(router, {
    path: '/roles',
    collection: C.roles,
    scope: 'tenant',
    entity: 'role',
    permission: 'authoritymanagement:userAccountManagement:roleView',
    permissions: {
      create: 'authoritymanagement:userAccountManagement:roleAdd',
      update: 'authoritymanagement:userAccountManagement:roleEdit',
      delete: 'authoritymanagement:userAccountManagement:roleDelete',
    },
    operations: ['create', 'update', 'delete'],
    summaries: {
      create: 'Add a role (menu and button permissions)',
      update: 'Edit a role (the whole entry)',
      delete: 'Delete a role that no user holds',
    },
    idParam: 'roleId',
    deletion: 'hard',
    async prepare(input, { caller, before }) {
      if (before?.type === 'enterprise-admin') throw errors.forbidden('access.builtInRole');
      assertKnownPermissions(input.permissions, 'tenant');
      // An edit is judged by what it adds: keeping a permission one does not hold is not granting it.
      await assertGrantable(
        caller,
        before ? input.permissions.filter((p) => !before.permissions.includes(p)) : input.permissions,
      );
      return input;
    },
    async assertUnused(id, handle, context) {
      if (context?.before?.builtIn) throw errors.forbidden('access.builtInRole');
      if (
        (await handle.collection(C.users).count({ roleIds: id })) ||
        (await handle.collection(C.projectMembers).count({ roleIds: id }))
      )
        throw errors.badRequest('access.roleInUse');
    },
    view: roleView,
  });

  router.route<{ userId: string }>(
    {
      method: 'put',
      path: '/system-admin',
      summary: 'Change the tenant system administrator (enterprise administrator only)',
      permission: 'authoritymanagement:userAccountManagement:systemAdmin',
      body: pickBody(loadEntity('user#/$defs/systemAdmin'), ['userId']),
    },
    async (c, { body }) => {
      const principal = requirePrincipal(c);
      const platform = deps.store.platform({ userId: principal.userId });
      const tenant = await platform.collection<Tenant>(C.tenants).findOne({ _id: principal.tenantId });
      if (!tenant || tenant.enterpriseAdminId !== principal.userId)
        throw errors.forbidden('access.enterpriseAdminOnly');
      const user = await usersOf(deps, principal.tenantId, principal.userId).findOne({
        accountId: body.userId,
      });
      if (!user || user.state === 'disabled') throw errors.badRequest('users.userUnknown');
      await platform
        .collection<Tenant>(C.tenants)
        .updateOne({ _id: tenant._id }, { $set: { systemAdminId: body.userId } });
      forgetTenant(deps.store, tenant._id);
      return { systemAdminId: body.userId };
    },
  );

  // Per-project members: roles and permission keys held per project.
  const membersOf = (tenantId: string, userId: string) =>
    deps.store.tenant(tenantId, { userId }).collection<ProjectMember>(C.projectMembers);
  const memberView = (m: StoredDoc<ProjectMember>) => ({
    projectId: m.projectId,
    userId: m.userId,
    roleIds: m.roleIds,
    permissionKeys: m.permissionKeys,
    rev: m.rev,
  });

  router.route<unknown, unknown, { projectId: string }>(
    {
      method: 'get',
      path: '/projects/:projectId/members',
      object: PROJECT_OBJECT,
      summary: 'Users assigned to a project with their project roles and permission keys',
      permission: 'authoritymanagement:projectInfo:members',
      params: idParams('projectId'),
    },
    async (c, { params }) => {
      const principal = requirePrincipal(c);
      return (
        await membersOf(principal.tenantId, principal.userId).find(
          { projectId: params.projectId },
          { limit: 5000 },
        )
      ).map(memberView);
    },
  );

  router.route<
    { roleIds: string[]; permissionKeys: string[] },
    unknown,
    { projectId: string; userId: string }
  >(
    {
      method: 'put',
      path: '/projects/:projectId/members/:userId',
      object: PROJECT_OBJECT,
      summary:
        'Assign a user to a project by role, with extra permission keys (`<permission>:<userId>` for that user only)',
      permission: 'authoritymanagement:projectInfo:members',
      params: { type: 'object', properties: { projectId: str(64), userId: str(64) } },
      body: {
        type: 'object',
        required: ['roleIds', 'permissionKeys'],
        additionalProperties: false,
        properties: {
          roleIds: { type: 'array', items: str(64, 1), maxItems: 50, uniqueItems: true },
          permissionKeys: { type: 'array', items: str(260, 1), maxItems: 500, uniqueItems: true },
        },
      },
    },
    async (c, { body, params }) => {
      const principal = requirePrincipal(c);
      const user = await usersOf(deps, principal.tenantId, principal.userId).findOne({
        accountId: params.userId,
      });
      if (!user) throw errors.badRequest('users.userUnknown');
      const known = new Set(permissionsOfArea('tenant'));
      for (const key of body.permissionKeys) {
        const base = key.endsWith(`:${params.userId}`) ? key.slice(0, -params.userId.length - 1) : key;
        if (!known.has(base)) throw errors.badRequest('access.permissionUnknown', { permission: key });
      }
      const members = membersOf(principal.tenantId, principal.userId);
      const current = await members.findOne({ projectId: params.projectId, userId: params.userId });
      await assertAssignableRoles(callerOf(c), body.roleIds, current?.roleIds ?? []);
      await assertGrantable(
        callerOf(c),
        body.permissionKeys
          .filter((k) => !(current?.permissionKeys ?? []).includes(k))
          .map((k) => (k.endsWith(`:${params.userId}`) ? k.slice(0, -params.userId.length - 1) : k)),
      );
      const saved = current
        ? await members.updateOne({ _id: current._id }, { $set: body })
        : await members.insertOne({ projectId: params.projectId, userId: params.userId, ...body });
      return saved ? memberView(saved) : null;
    },
  );

  router.route<unknown, unknown, { projectId: string; userId: string }>(
    {
      method: 'delete',
      path: '/projects/:projectId/members/:userId',
      object: PROJECT_OBJECT,
      summary: 'Remove a user from a project',
      permission: 'authoritymanagement:projectInfo:members',
      params: { type: 'object', properties: { projectId: str(64), userId: str(64) } },
    },
    async (c, { params }) => {
      const principal = requirePrincipal(c);
      if (
        !(await membersOf(principal.tenantId, principal.userId).deleteOne({
          projectId: params.projectId,
          userId: params.userId,
        }))
      )
        throw errors.notFound();
      return null;
    },
  );

  operatorAccessRoutes(router, deps);
}

function operatorAccessRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  const roles = (actor: string) =>
    deps.store.platform({ userId: actor }).collection<OperatorRole>(C.operatorRoles);
  // Operator roles are roles without a type (the platform's menus only): role.json's `operator`
  // view, through the generic entity CRUD; the permission tree is the hook.
  const view = (r: StoredDoc<OperatorRole>) => ({
    roleId: r._id,
    name: r.name,
    nameEn: r.nameEn ?? null,
    identifier: r.identifier,
    description: r.description ?? '',
    permissions: r.permissions,
    rev: r.rev,
  });

  router.route(
    {
      method: 'get',
      path: '/operator/roles',
      summary: 'Operator roles',
      permission: 'holoxcontrol:roleConfig',
    },
    async (c) =>
      (await roles(requirePrincipal(c).userId).find({}, { sort: { name: 1 }, limit: 1000 })).map(view),
  );
  entityRoutes<OperatorRole>(router, {
    path: '/operator/roles',
    collection: C.operatorRoles,
    scope: 'platform',
    entity: 'role#/$defs/operator',
    permission: 'holoxcontrol:roleConfig',
    operations: ['create', 'update', 'delete'],
    summaries: {
      create: 'Add an operator role',
      update: 'Edit an operator role (the whole entry)',
      delete: 'Delete an operator role no operator holds',
    },
    idParam: 'roleId',
    deletion: 'hard',
    prepare(input) {
      assertKnownPermissions(input.permissions, 'operator');
      return input;
    },
    async assertUnused(id, _handle, context) {
      if (await accountsOf(deps, context!.caller.userId).count({ operatorRoleIds: id }))
        throw errors.badRequest('access.roleInUse');
    },
    view,
  });

  const operatorView = (a: StoredDoc<Account>) => ({
    userId: a._id,
    account: a.account,
    name: a.name,
    operatorRoleIds: a.operatorRoleIds,
    jurisdiction: a.jurisdiction,
    locked: Boolean(a.lockedUntil && a.lockedUntil > deps.clock.now().toISOString()),
  });
  router.route(
    {
      method: 'get',
      path: '/operator/users',
      summary: 'Operator accounts with their roles and jurisdiction',
      permission: 'holoxcontrol:userRole',
    },
    async (c) =>
      (
        await accountsOf(deps, requirePrincipal(c).userId).find(
          { operator: true },
          { sort: { accountKey: 1 }, limit: 1000 },
        )
      ).map(operatorView),
  );
  router.route<{ account: string; name: string; operatorRoleIds: string[] }>(
    {
      method: 'post',
      path: '/operator/users',
      summary: 'Add an operator account; answers its activation link path',
      permission: 'holoxcontrol:userRole:add',
      body: pickBody(operatorUserEntity, ['account', 'name', 'operatorRoleIds']),
    },
    async (c, { body: input }) => {
      const actor = requirePrincipal(c).userId;
      if (await findAccountByName(deps, input.account)) throw errors.conflict('users.accountTaken');
      if (
        (await roles(actor).count({ _id: { $in: input.operatorRoleIds } })) !== input.operatorRoleIds.length
      )
        throw errors.badRequest('access.roleUnknown');
      const account = await accountsOf(deps, actor).insertOne(
        newAccount({
          _id: randomUUID(),
          account: input.account,
          name: input.name,
          operator: true,
          operatorRoleIds: input.operatorRoleIds,
        }),
      );
      const link = await issueLink(
        deps,
        { accountId: account._id, tenantId: OPERATOR_TENANT, purpose: 'activate' },
        actor,
      );
      return { user: operatorView(account), activationPath: link.path, activationExpiresAt: link.expiresAt };
    },
  );
  router.route<{ operatorRoleIds?: string[]; jurisdiction?: string[] }, unknown, { userId: string }>(
    {
      method: 'put',
      path: '/operator/users/:userId',
      summary:
        'Set an operator’s roles (user roles) and the tenants they look after (user jurisdiction; empty: all)',
      permission: 'holoxcontrol:userRole:assign',
      params: idParams('userId'),
      body: pickBody(operatorUserEntity, ['operatorRoleIds', 'jurisdiction'], { required: [] }),
    },
    async (c, { body: input, params }) => {
      const actor = requirePrincipal(c).userId;
      if (
        input.jurisdiction &&
        !(await grantsOf(deps, requirePrincipal(c), null)).keys.has('holoxcontrol:userJurisdiction:assign')
      )
        throw errors.forbidden();
      if (
        input.operatorRoleIds &&
        (await roles(actor).count({ _id: { $in: input.operatorRoleIds } })) !== input.operatorRoleIds.length
      )
        throw errors.badRequest('access.roleUnknown');
      const updated = await accountsOf(deps, actor).updateOne(
        { _id: params.userId, operator: true },
        { $set: input },
      );
      if (!updated) throw errors.notFound();
      return operatorView(updated);
    },
  );

  router.route<unknown, unknown, { userId: string }>(
    {
      method: 'post',
      path: '/operator/users/:userId/reset-password',
      summary:
        'Reset an operator’s password: the old one stops working, their session ends; answers a single-use link path',
      permission: 'holoxcontrol:userRole:resetPassword',
      params: idParams('userId'),
    },
    async (c, { params }) => {
      const actor = requirePrincipal(c).userId;
      if (params.userId === actor) throw errors.badRequest('users.notOnSelf');
      const updated = await accountsOf(deps, actor).updateOne(
        { _id: params.userId, operator: true },
        { $set: { passwordHash: null, failedCount: 0, lockedUntil: null } },
      );
      if (!updated) throw errors.notFound();
      await endSessions(deps, { accountId: params.userId }, 'forced');
      const link = await issueLink(
        deps,
        { accountId: params.userId, tenantId: OPERATOR_TENANT, purpose: 'reset' },
        actor,
      );
      return { resetPath: link.path, expiresAt: link.expiresAt };
    },
  );

  router.route<{ jurisdiction: string[] }, unknown, { userId: string }>(
    {
      method: 'put',
      path: '/operator/users/:userId/jurisdiction',
      summary: 'Set the tenants an operator looks after (user jurisdiction; empty: all)',
      permission: 'holoxcontrol:userJurisdiction:assign',
      params: idParams('userId'),
      body: pickBody(operatorUserEntity, ['jurisdiction'], { required: ['jurisdiction'] }),
    },
    async (c, { body: input, params }) => {
      const actor = requirePrincipal(c).userId;
      const known = await deps.store
        .platform({ userId: actor })
        .collection<Tenant>(C.tenants)
        .count({ _id: { $in: input.jurisdiction } });
      if (known !== input.jurisdiction.length) throw errors.badRequest('tenancy.tenantUnknown');
      const updated = await accountsOf(deps, actor).updateOne(
        { _id: params.userId, operator: true },
        { $set: { jurisdiction: input.jurisdiction } },
      );
      if (!updated) throw errors.notFound();
      return operatorView(updated);
    },
  );
}
