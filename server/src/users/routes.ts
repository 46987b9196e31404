/** HTTP routes of the users module (prefix /api/users): accounts of the caller's tenant. */
import { callerOf, pageQuery, pageOptions, timeRange } from '../http';
import { randomUUID } from 'node:crypto';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import { requirePrincipal } from '../http';
import { errors } from '../http';
import type { StoredDoc } from '../store';
import { accountsOf, findAccount, findAccountByName, newAccount, userDocId, usersOf } from '../auth';
import { C } from '../auth';
import { USER_SORTABLE } from './collections';
import { listSort, sortQuery } from '../entities';
import type { SortQuery } from '../entities';
import { issueLink } from '../auth';
import { notifyAccountLink } from '../messages';
import { invite, memberState } from '../auth';
import type { Account, User, UserState } from '../auth';
import type { Caller, PageQuery } from '../http';
import { timeBound } from '../http';
import { assertAccount, assertEmail, assertPhone } from '../auth';
import { endSessions } from '../auth';
import { assertTenantLimit } from '../tenancy';
import { getTenant } from '../tenancy';
import { onlyRegistered, purgeExpiredRegistrations } from '../tenancy';
import { assertAssignableRoles } from '../access';
import { requirePermission } from '../access';
import type { OperationLogEntry } from './oplog';
import { textMatch } from '../store';
import { entityRoutes } from '../entities';

const str = (max = 200, min = 0) => ({ type: 'string', minLength: min, maxLength: max }) as const;
const userParams = { type: 'object', properties: { userId: str(64) } };
/**
 * A tenant administrator acts on the account itself (its password, its name, all its sessions) only
 * when every membership of the account is in their tenant; an account shared with other tenants is
 * its holder's (and the platform operator's).
 */
export function soleTenant(account: Account | null, tenantId: string): boolean {
  return (
    !!account &&
    !account.operator &&
    account.tenantIds.length > 0 &&
    account.tenantIds.every((id) => id === tenantId)
  );
}

/** Giving or taking roles is its own button permission, beyond editing the profile. */
const ASSIGN_ROLES = 'authoritymanagement:userAccountManagement:assignRoles';

export function userView(u: StoredDoc<User>) {
  return {
    userId: u.accountId,
    account: u.account,
    name: u.name,
    phone: u.phone ?? null,
    email: u.email,
    job: u.job ?? null,
    state: u.state,
    deleted: u.deleted === true,
    deletedAt: u.deleted ? (u.deletedAt ?? null) : null,
    lockedUntil: u.state === 'locked' ? (u.lockedUntil ?? null) : null,
    organisationIds: u.organisationIds,
    roleIds: u.roleIds,
    duties: u.duties ?? [],
    createdAt: u.createdAt,
    rev: u.rev,
  };
}

// The formats' messages (users.phoneInvalid, users.emailInvalid, users.accountInvalid) answer a bad value
// in a body derived from schemas/entities/user.json.
interface UserInput {
  account: string;
  name: string;
  phone?: string;
  email: string;
  job?: string;
  organisationIds: string[];
  roleIds?: string[];
  duties?: string[];
}

export function usersRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  async function assertOrganisations(tenantId: string, userId: string, ids: string[]) {
    const found = await deps.store
      .tenant(tenantId, { userId })
      .collection(C.organisations)
      .count({ _id: { $in: ids } });
    if (found !== ids.length) throw errors.badRequest('users.organisationUnknown');
  }

  // Declared before /:userId so that the literal path wins.
  router.route<
    unknown,
    PageQuery & SortQuery & { userId?: string; from?: string; to?: string; method?: string }
  >(
    {
      method: 'get',
      path: '/operation-log',
      summary: 'User operation log of the tenant: every changing API call (who, when, route, result)',
      permission: 'authoritymanagement:userAccountManagement:operationLog',
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...pageQuery,
          ...sortQuery,
          userId: str(64),
          from: timeBound,
          to: timeBound,
          method: { enum: ['POST', 'PUT', 'PATCH', 'DELETE'] },
        },
      },
    },
    async (c, { query }) => {
      const principal = requirePrincipal(c);
      const log = deps.store
        .tenant(principal.tenantId, { userId: principal.userId })
        .collection<OperationLogEntry>(C.operationLog);
      const filter = {
        ...timeRange(query.from, query.to),
        ...(query.userId ? { userId: query.userId } : {}),
        ...(query.method ? { method: query.method } : {}),
      };
      const items = await log.find(filter, {
        sort: listSort(query, ['at', 'account'], { at: -1 }),
        ...pageOptions(query),
      });
      return {
        total: await log.count(filter),
        items: items.map(({ _id, at, userId, account, method, path, status, code, ms }) => ({
          logId: _id,
          at,
          userId,
          account,
          method,
          path,
          status,
          code,
          ms,
        })),
      };
    },
  );

  router.route<
    unknown,
    PageQuery &
      SortQuery & {
        state?: UserState;
        name?: string;
        organisationId?: string;
        roleId?: string;
        deleted?: 'true' | 'false';
      }
  >(
    {
      method: 'get',
      path: '/',
      summary: 'Users of the tenant (filters: state, name or account, organisation, role)',
      permission: 'authoritymanagement:userAccountManagement',
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...pageQuery,
          ...sortQuery,
          state: { enum: ['invited', 'inactive', 'enabled', 'disabled', 'locked'] },
          name: str(64),
          organisationId: str(64),
          roleId: str(64),
          deleted: { enum: ['true', 'false'] },
        },
      },
    },
    async (c, { query }) => {
      const principal = requirePrincipal(c);
      const users = usersOf(deps, principal.tenantId, principal.userId);
      // Deleted users only when asked for (the list's "deleted" tab).
      const filter: Record<string, unknown> =
        query.deleted === 'true' ? { deleted: true } : { deleted: { $ne: true } };
      if (query.state) filter.state = query.state;
      if (query.organisationId) filter.organisationIds = query.organisationId;
      if (query.roleId) filter.roleIds = query.roleId;
      if (query.name) {
        const match = textMatch(query.name);
        filter.$or = [{ name: match }, { account: match }];
      }
      const items = await users.find(filter, {
        sort: listSort(query, USER_SORTABLE, { account: 1 }),
        ...pageOptions(query),
      });
      return { total: await users.count(filter), items: items.map((u) => userView(u)) };
    },
  );

  router.route<unknown, unknown, { userId: string }>(
    {
      method: 'get',
      path: '/:userId',
      summary: 'One user of the tenant',
      permission: 'authoritymanagement:userAccountManagement',
      params: userParams,
    },
    async (c, { params }) => {
      const principal = requirePrincipal(c);
      const user = await usersOf(deps, principal.tenantId, principal.userId).findOne({
        accountId: params.userId,
      });
      if (!user) throw errors.notFound();
      return userView(user);
    },
  );

  // Create and edit are the generic entity CRUD over schemas/entities/user.json (the user form
  // renders the same declaration; the account is fixed at creation). What differs is in the hooks:
  // the tenant's user limit, the organisations and roles given, and on creation the account to
  // open (or to invite into this tenant) with its activation link.
  entityRoutes<UserInput>(router, {
    path: '/',
    collection: C.users,
    scope: 'tenant',
    entity: 'user',
    permission: 'authoritymanagement:userAccountManagement',
    operations: ['create', 'update'],
    summaries: {
      create:
        'Create a user (to be activated; answers the activation link path), or invite an existing account of another tenant (state invited until its holder accepts)',
      update: 'Edit a user’s profile, organisations, roles and duties',
    },
    idParam: 'userId',
    idField: 'accountId',
    deletedRefusal: 'users.deletedRestoreFirst',
    // Roles or duties left out of an edit stay as they are.
    clearOmitted: false,
    async prepare(input, { caller, before }) {
      if (!before) assertAccount(input.account);
      assertEmail(input.email);
      assertPhone(input.phone);
      if (!before) {
        const count = await caller.tenant.collection(C.users).count({ deleted: { $ne: true } });
        await assertTenantLimit(deps.store, caller.principal.tenantId, 'users', count);
      }
      await assertOrganisations(caller.principal.tenantId, caller.userId, input.organisationIds);
      if (!before) {
        if (input.roleIds?.length) await requirePermission(caller, ASSIGN_ROLES);
        await assertAssignableRoles(caller, input.roleIds ?? []);
        return input;
      }
      const current = before as StoredDoc<User>;
      if (input.roleIds) {
        const held = [...current.roleIds].sort().join();
        if ([...input.roleIds].sort().join() !== held) await requirePermission(caller, ASSIGN_ROLES);
        await assertAssignableRoles(caller, input.roleIds, current.roleIds);
      }
      const currentOrganisationId = input.organisationIds.includes(current.currentOrganisationId ?? '')
        ? current.currentOrganisationId
        : input.organisationIds[0]!;
      return { ...input, currentOrganisationId } as UserInput;
    },
    create: (input, { caller }) => createUser(caller, input),
    async afterWrite(_updated, { caller, id }) {
      // The account's own name is changed only by the tenant that holds every membership of it.
      if (_updated && id && soleTenant(await findAccount(deps, id), caller.principal.tenantId))
        await accountsOf(deps, caller.userId).updateOne(
          { _id: id },
          { $set: { name: (_updated as StoredDoc<UserInput>).name } },
        );
    },
    view: (u) => userView(u as unknown as StoredDoc<User>),
  });

  /** Opens the account (or invites an existing one of another tenant) and its membership here. */
  async function createUser(caller: Caller, body: UserInput): Promise<{ answer: unknown; message?: string }> {
    const principal = caller.principal;
    const users = usersOf(deps, principal.tenantId, principal.userId);
    await purgeExpiredRegistrations(deps);
    const existing = await findAccountByName(deps, body.account);
    if (
      existing &&
      (existing.operator ||
        existing.tenantIds.includes(principal.tenantId) ||
        (await users.findOne({ accountId: existing._id })))
    )
      throw errors.conflict('users.accountTaken');
    // A pending (or rejected) registration's account is usable nowhere, so it is never invited.
    if (existing && (await onlyRegistered(deps, existing))) throw errors.conflict('users.accountUnavailable');
    const accountId = existing?._id ?? randomUUID();
    if (!existing) {
      await accountsOf(deps, principal.userId).insertOne(
        newAccount({
          _id: accountId,
          account: body.account,
          name: body.name,
          tenantIds: [principal.tenantId],
        }),
      );
    }
    const user = await users.insertOne({
      _id: userDocId(principal.tenantId, accountId),
      accountId,
      // The account's own spelling: an invitation does not rename anybody.
      account: existing?.account ?? body.account,
      accountKey: body.account.toLowerCase(),
      name: body.name,
      email: body.email,
      ...(body.phone ? { phone: body.phone } : {}),
      ...(body.job ? { job: body.job } : {}),
      // An existing account is invited: the membership does nothing until its holder accepts.
      state: existing ? 'invited' : 'inactive',
      organisationIds: body.organisationIds,
      currentOrganisationId: body.organisationIds[0]!,
      roleIds: body.roleIds ?? [],
      duties: body.duties ?? [],
    });
    if (existing) {
      await invite(deps, {
        accountId,
        tenantId: principal.tenantId,
        invitedBy: principal.userId,
        invitedByName:
          typeof principal.name === 'string' && principal.name ? principal.name : principal.userId,
      });
      // The form shows this message (no link to pass on): the holder accepts while signed in.
      return {
        answer: { user: userView(user), invited: true, activationPath: null, activationExpiresAt: null },
        message: 'users.invited',
      };
    }
    const link = await issueLink(
      deps,
      { accountId, tenantId: principal.tenantId, purpose: 'activate' },
      principal.userId,
    );
    await notifyAccountLink(caller, 'account.activation', user, link);
    return {
      answer: {
        user: userView(user),
        invited: false,
        activationPath: link.path,
        activationExpiresAt: link.expiresAt,
      },
    };
  }

  const stateChange = (
    path: string,
    summary: string,
    permission: string,
    apply: (user: StoredDoc<User>, actor: string, tenantId: string) => Promise<Partial<User>>,
  ) =>
    router.route<unknown, unknown, { userId: string }>(
      { method: 'post', path: `/:userId/${path}`, summary, permission, params: userParams },
      async (c, { params }) => {
        const principal = requirePrincipal(c);
        if (params.userId === principal.userId) throw errors.badRequest('users.notOnSelf');
        const users = usersOf(deps, principal.tenantId, principal.userId);
        const user = await users.findOne({ accountId: params.userId });
        if (!user) throw errors.notFound();
        const set = await apply(user, principal.userId, principal.tenantId);
        const updated = Object.keys(set).length
          ? await users.updateOne({ _id: user._id }, { $set: set })
          : user;
        return userView(updated ?? user);
      },
    );

  stateChange(
    'enable',
    'Enable a disabled user',
    'authoritymanagement:userAccountManagement:enable',
    async (user, _actor, tenantId) => {
      if (user.deleted) throw errors.badRequest('users.deletedRestoreFirst');
      if (user.state !== 'disabled') throw errors.badRequest('users.stateNotAllowed', { state: user.state });
      // A membership never accepted goes back to invited, never straight to enabled.
      return { state: memberState(await findAccount(deps, user.accountId), tenantId) };
    },
  );
  stateChange(
    'disable',
    'Disable a user (ends their session)',
    'authoritymanagement:userAccountManagement:disable',
    async (user, _actor, tenantId) => {
      await endSessions(deps, { accountId: user.accountId, sessionTenantId: tenantId }, 'disabled');
      return { state: 'disabled' };
    },
  );
  stateChange(
    'unlock',
    'Unlock a user locked by wrong passwords in this tenant (the lock counts per account and tenant)',
    'authoritymanagement:userAccountManagement:unlock',
    async (user) => ({
      failedCount: 0,
      lockedUntil: null,
      ...(user.state === 'locked' ? { state: 'enabled' } : {}),
    }),
  );

  stateChange(
    'delete',
    'Delete a user from the tenant: kept disabled with who and when (audit trail), their session ends; restorable',
    'authoritymanagement:userAccountManagement:delete',
    async (user, actor, tenantId) => {
      if (user.deleted) throw errors.badRequest('users.alreadyDeleted');
      const tenant = await getTenant(deps.store, tenantId);
      if (tenant && (tenant.enterpriseAdminId === user.accountId || tenant.systemAdminId === user.accountId))
        throw errors.badRequest('users.administratorKept');
      await endSessions(deps, { accountId: user.accountId, sessionTenantId: tenantId }, 'disabled');
      return {
        deleted: true,
        deletedAt: deps.clock.now().toISOString(),
        deletedBy: actor,
        state: 'disabled',
      };
    },
  );
  stateChange(
    'restore',
    'Restore a deleted user (disabled until enabled again), within the tenant user limit',
    'authoritymanagement:userAccountManagement:delete',
    async (user, _actor, tenantId) => {
      if (!user.deleted) throw errors.badRequest('users.notDeleted');
      const count = await usersOf(deps, tenantId, _actor).count({ deleted: { $ne: true } });
      await assertTenantLimit(deps.store, tenantId, 'users', count);
      return { deleted: false, state: 'disabled' };
    },
  );

  router.route<unknown, unknown, { userId: string }>(
    {
      method: 'post',
      path: '/:userId/reset-password',
      summary:
        'Reset a user’s password: the old one stops working, their session ends; answers a single-use link path. Refused (after ending the sessions in this tenant) for an account that also belongs to other tenants',
      permission: 'authoritymanagement:userAccountManagement:resetPassword',
      params: userParams,
    },
    async (c, { params }) => {
      const principal = requirePrincipal(c);
      const user = await usersOf(deps, principal.tenantId, principal.userId).findOne({
        accountId: params.userId,
      });
      if (!user) throw errors.notFound();
      if (user.deleted) throw errors.badRequest('users.deletedRestoreFirst');
      if (!soleTenant(await findAccount(deps, user.accountId), principal.tenantId)) {
        // Another tenant's person too (or only invited here): what is this tenant's ends here, the
        // account itself stays its holder's.
        await endSessions(deps, { accountId: user.accountId, sessionTenantId: principal.tenantId }, 'forced');
        throw errors.forbidden('users.accountShared');
      }
      await accountsOf(deps, principal.userId).updateOne(
        { _id: user.accountId },
        { $set: { passwordHash: null, failedCount: 0, lockedUntil: null } },
      );
      await endSessions(deps, { accountId: user.accountId }, 'forced');
      await usersOf(deps, principal.tenantId, principal.userId).updateOne(
        { _id: user._id },
        {
          $set: {
            failedCount: 0,
            lockedUntil: null,
            ...(user.state === 'enabled' || user.state === 'locked' ? { state: 'inactive' } : {}),
          },
        },
      );
      const link = await issueLink(
        deps,
        { accountId: user.accountId, tenantId: principal.tenantId, purpose: 'reset' },
        principal.userId,
      );
      await notifyAccountLink(callerOf(c), 'account.passwordReset', user, link);
      return { resetPath: link.path, expiresAt: link.expiresAt };
    },
  );
}
