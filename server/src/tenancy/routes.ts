/** HTTP routes of the tenancy module (prefix /api/tenancy). */
import { randomUUID } from 'node:crypto';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import { requirePrincipal } from '../http';
import { AppError, errors } from '../http';
import { Code, ok } from '../http';
import type { StoredDoc } from '../store';
import { DuplicateKeyError } from '../store';
import { accountsOf, findAccount, findAccountByName, newAccount, userDocId } from '../auth';
import { consumeCaptcha } from '../auth';
import { C } from '../auth';
import { hashPassword } from '../auth';
import { issueLink } from '../auth';
import type { SecuritySettings, Tenant, TenantLimits, User } from '../auth';
import { DEFAULT_SECURITY } from '../auth';
import type { TenantDefaults } from './tenant-defaults';
import { saveTenantDefaults, tenantDefaults } from './tenant-defaults';
import type { IdentityOptions } from '../auth';
import { assertAccount, assertEmail, assertNewPassword, assertPhone } from '../auth';
import { forgetTenant } from './tenants';
import { operatorAccountRoutes } from './operator-accounts';
import { REGISTRATION_DAYS, purgeExpiredRegistrations, registrationCutoff } from './registrations';
import { textMatch } from '../store';
import type { Organisation } from './organisations';
import { organisationRoutes } from './organisations';
import { entityRoutes, loadEntity, pickBody } from '../entities';

const str = (max = 200, min = 0) => ({ type: 'string', minLength: min, maxLength: max }) as const;
// Bodies are the entity schemas' declarations (schemas/entities/tenant.json, organisation.json,
// company.json): the admin forms render the same ones.
const tenantEntity = loadEntity('tenant');
const securityEntity = loadEntity('tenant#/properties/security');
const revision = { rev: { type: 'integer' } };

export function tenantView(t: StoredDoc<Tenant>) {
  return {
    tenantId: t._id,
    name: t.name,
    nameEn: t.nameEn ?? null,
    code: t.code,
    status: t.status,
    expiresAt: t.expiresAt,
    limits: t.limits,
    contact: t.contact,
    detail: t.detail ?? {},
    enterpriseAdminId: t.enterpriseAdminId,
    systemAdminId: t.systemAdminId,
    registeredAt: t.registeredAt,
    decidedAt: t.decidedAt ?? null,
    deleted: t.deleted === true,
    deletedAt: t.deleted ? (t.deletedAt ?? null) : null,
    rev: t.rev,
  };
}

/** The body of an operator's new tenant (tenant.json's create view). */
interface TenantCreate {
  name: string;
  nameEn?: string;
  code: string;
  expiresAt: string | null;
  limits: TenantLimits;
  contact: Tenant['contact'];
  admin: { account: string; name: string; email: string; phone?: string };
}

/** The bodies of the operator's tenant routes: a new tenant, or its settings. */
type TenantInput =
  TenantCreate | { expiresAt: string | null; limits: TenantLimits; status: 'active' | 'disabled' };

/** Creates a tenant with its enterprise administrator (account + user, to be activated). */
export async function createTenant(
  deps: ModuleDeps,
  options: IdentityOptions,
  input: {
    name: string;
    nameEn?: string;
    code: string;
    status: Tenant['status'];
    expiresAt: string | null;
    limits: TenantLimits;
    contact: Tenant['contact'];
    admin: { account: string; name: string; email: string; phone?: string; password?: string };
  },
  actor: string,
): Promise<StoredDoc<Tenant>> {
  assertAccount(input.admin.account);
  assertEmail(input.admin.email);
  assertPhone(input.admin.phone);
  await purgeExpiredRegistrations(deps);
  if (await findAccountByName(deps, input.admin.account)) throw errors.conflict('users.accountTaken');
  const platform = deps.store.platform({ userId: actor });
  if (await platform.collection(C.tenants).findOne({ code: input.code }))
    throw errors.conflict('tenancy.codeTaken');
  const tenantId = randomUUID();
  const adminId = randomUUID();
  const now = deps.clock.now().toISOString();
  const tenant = await platform.collection<Tenant>(C.tenants).insertOne({
    _id: tenantId,
    name: input.name,
    ...(input.nameEn ? { nameEn: input.nameEn } : {}),
    code: input.code,
    status: input.status,
    expiresAt: input.expiresAt,
    limits: input.limits,
    contact: input.contact,
    detail: {},
    security: (await tenantDefaults(deps)).security,
    enterpriseAdminId: adminId,
    systemAdminId: adminId,
    registeredAt: now,
  });
  await accountsOf(deps, actor).insertOne(
    newAccount({
      _id: adminId,
      account: input.admin.account,
      name: input.admin.name,
      passwordHash: input.admin.password
        ? await hashPassword(input.admin.password, options.scryptCost)
        : null,
      passwordChangedAt: now,
      tenantIds: [tenantId],
    }),
  );
  const handle = deps.store.tenant(tenantId, { userId: actor });
  const orgId = randomUUID();
  await handle.collection<Organisation>(C.organisations).insertOne({
    _id: orgId,
    name: input.name,
    ...(input.nameEn ? { nameEn: input.nameEn } : {}),
    kind: 'organisation',
    parentId: null,
    order: 0,
  });
  await handle.collection<User>(C.users).insertOne({
    _id: userDocId(tenantId, adminId),
    accountId: adminId,
    account: input.admin.account,
    accountKey: input.admin.account.toLowerCase(),
    name: input.admin.name,
    email: input.admin.email,
    ...(input.admin.phone ? { phone: input.admin.phone } : {}),
    state: input.admin.password ? 'enabled' : 'inactive',
    organisationIds: [orgId],
    currentOrganisationId: orgId,
    roleIds: [],
  });
  return tenant;
}

export function tenancyRoutes(router: ModuleRouter, deps: ModuleDeps, options: IdentityOptions): void {
  const tenants = (actor: string) => deps.store.platform({ userId: actor }).collection<Tenant>(C.tenants);

  router.route<{
    tenantName: string;
    tenantNameEn?: string;
    code: string;
    contactName: string;
    account: string;
    email: string;
    phone?: string;
    password: string;
    confirmPassword: string;
    captchaId?: string;
    captchaCode?: string;
  }>(
    {
      method: 'post',
      path: '/registrations',
      summary: 'Register a tenant (public); it waits for the platform operator’s approval',
      auth: 'none',
      // The tenant, its contact and the account are tenant.json's registration view (the shared
      // formats of name, code, account, email and phone); the password (judged by the tenant
      // defaults' policy below) and the captcha are the route's own.
      body: pickBody(
        loadEntity('tenant#/$defs/registration'),
        ['tenantName', 'tenantNameEn', 'code', 'contactName', 'account', 'email', 'phone'],
        {
          required: ['tenantName', 'code', 'contactName', 'account', 'email', 'password', 'confirmPassword'],
          extra: {
            password: str(128, 1),
            confirmPassword: str(128, 1),
            captchaId: str(64),
            captchaCode: str(16),
          },
        },
      ),
    },
    async (c, { body }) => {
      const platform = deps.store.platform({ userId: 'system:registration' });
      if (
        options.captcha &&
        !(await consumeCaptcha(platform, body.captchaId, body.captchaCode, deps.clock.now()))
      ) {
        throw errors.badRequest('auth.captchaWrong');
      }
      // Everything checkable without knowing who exists comes first, so that a refusal never
      // depends on an existing account name or tenant code.
      const defaults = await tenantDefaults(deps);
      assertNewPassword(body.password, body.confirmPassword, defaults.security);
      assertAccount(body.account);
      assertEmail(body.email);
      assertPhone(body.phone);
      await purgeExpiredRegistrations(deps);
      // One answer whether or not the registration can go ahead: a receipt number and "you will
      // hear back" (a refused one gets a receipt that names nothing, after the same hashing work).
      const received = (tenantId: string) =>
        ok(c, { tenantId, status: 'pending' as const }, 'tenancy.registrationReceived');
      const taken =
        (await findAccountByName(deps, body.account)) !== null ||
        (await platform.collection(C.tenants).findOne({ code: body.code })) !== null;
      if (taken) {
        await hashPassword(body.password, options.scryptCost);
        return received(randomUUID());
      }
      try {
        const tenant = await createTenant(
          deps,
          options,
          {
            name: body.tenantName,
            nameEn: body.tenantNameEn,
            code: body.code,
            status: 'pending',
            expiresAt: null,
            limits: defaults.limits,
            contact: {
              name: body.contactName,
              email: body.email,
              ...(body.phone ? { phone: body.phone } : {}),
            },
            admin: {
              account: body.account,
              name: body.contactName,
              email: body.email,
              phone: body.phone,
              password: body.password,
            },
          },
          'system:registration',
        );
        return received(tenant._id);
      } catch (error) {
        // Taken between the check and the write (a concurrent registration): the same answer.
        if ((error instanceof AppError && error.code === Code.conflict) || error instanceof DuplicateKeyError)
          return received(randomUUID());
        throw error;
      }
    },
  );

  router.route(
    { method: 'get', path: '/tenant', summary: 'The caller’s tenant: detail, limits, expiry, usage' },
    async (c) => {
      const principal = requirePrincipal(c);
      const tenant = await tenants(principal.userId).findOne({ _id: principal.tenantId });
      if (!tenant) throw errors.notFound();
      const users = await deps.store
        .tenant(tenant._id, { userId: principal.userId })
        .collection(C.users)
        .count({});
      return { ...tenantView(tenant), usage: { users } };
    },
  );

  router.route<{
    name: string;
    nameEn?: string;
    contact: Tenant['contact'];
    detail: Tenant['detail'];
    rev: number;
  }>(
    {
      method: 'put',
      path: '/tenant',
      summary:
        'Edit the caller’s tenant detail (name, contact, address ...); limits and expiry are the operator’s',
      permission: 'authoritymanagement:sysTenantConfig:edit',
      body: pickBody(tenantEntity, ['name', 'nameEn', 'contact', 'detail'], {
        required: ['name', 'contact', 'rev'],
        extra: revision,
      }),
    },
    async (c, { body }) => {
      const principal = requirePrincipal(c);
      assertEmail(body.contact.email);
      assertPhone(body.contact.phone);
      const { rev, ...fields } = body;
      const updated = await tenants(principal.userId).updateOne(
        { _id: principal.tenantId },
        { $set: fields },
        { expectedRev: rev },
      );
      forgetTenant(deps.store, principal.tenantId);
      return updated ? tenantView(updated) : null;
    },
  );

  router.route(
    {
      method: 'get',
      path: '/security',
      summary: 'Password policy and session expiry of the caller’s tenant',
    },
    async (c) => {
      const principal = requirePrincipal(c);
      const tenant = await tenants(principal.userId).findOne({ _id: principal.tenantId });
      // The tenant's revision: a save names it, so two administrators cannot overwrite each other.
      return { ...(tenant?.security ?? DEFAULT_SECURITY), rev: tenant?.rev ?? null };
    },
  );

  router.route<SecuritySettings & { rev: number }>(
    {
      method: 'put',
      path: '/security',
      summary:
        'Set the password policy and session expiry (every field required; session 30-360 minutes); rev is the one GET answered, a stale one is refused (409)',
      permission: 'authoritymanagement:sysTenantConfig:security',
      // Every field required (SPEC 5): the entity's security settings as declared.
      body: pickBody(securityEntity, Object.keys(securityEntity.properties), { rev: true }),
    },
    async (c, { body }) => {
      const principal = requirePrincipal(c);
      const { rev, ...security } = body;
      const updated = await tenants(principal.userId).updateOne(
        { _id: principal.tenantId },
        { $set: { security } },
        { expectedRev: rev },
      );
      forgetTenant(deps.store, principal.tenantId);
      return { ...security, rev: updated?.rev ?? null };
    },
  );

  organisationRoutes(router);

  // Company information: one document per tenant.
  const companySchema = pickBody(loadEntity('company'), Object.keys(loadEntity('company').properties), {
    extra: revision,
  });
  router.route(
    {
      method: 'get',
      path: '/company',
      summary: 'Company information of the tenant (null before it is filled)',
      permission: 'authoritymanagement:companyInfo',
    },
    async (c) => {
      const principal = requirePrincipal(c);
      return deps.store
        .tenant(principal.tenantId, { userId: principal.userId })
        .collection(C.company)
        .findOne({ _id: 'company' });
    },
  );
  router.route<Record<string, unknown> & { rev?: number; email?: string }>(
    {
      method: 'put',
      path: '/company',
      summary: 'Save the company information',
      permission: 'authoritymanagement:companyInfo:edit',
      body: companySchema,
    },
    async (c, { body }) => {
      const principal = requirePrincipal(c);
      if (body.email) assertEmail(body.email);
      const company = deps.store
        .tenant(principal.tenantId, { userId: principal.userId })
        .collection(C.company);
      const { rev, ...fields } = body;
      const existing = await company.findOne({ _id: 'company' });
      if (!existing) return company.insertOne({ _id: 'company', ...fields });
      // Once saved, every save names the revision it read: without one it cannot say it is current.
      if (rev === undefined) throw errors.conflict('tenancy.companyChanged');
      return company.updateOne({ _id: 'company' }, { $set: fields }, { expectedRev: rev });
    },
  );

  operatorRoutes(router, deps, options);
}

function operatorRoutes(router: ModuleRouter, deps: ModuleDeps, options: IdentityOptions): void {
  router.route(
    {
      method: 'get',
      path: '/operator/tenant-defaults',
      summary: 'The limits and the password and session policy new tenants start with',
      permission: 'holoxcontrol:lessee',
    },
    () => tenantDefaults(deps),
  );
  router.route<TenantDefaults & { rev?: number | null }>(
    {
      method: 'put',
      path: '/operator/tenant-defaults',
      summary:
        'Set the limits and the password and session policy of new tenants (every field required; existing tenants keep theirs)',
      permission: 'holoxcontrol:lessee:edit',
      body: pickBody(loadEntity('tenant#/$defs/defaults'), ['limits', 'security'], {
        extra: { rev: { type: ['integer', 'null'] } },
      }),
    },
    async (c, { body }) => {
      const { rev, ...defaults } = body;
      const current = await tenantDefaults(deps);
      // The first save has nothing to compare with; later ones must name the revision they read.
      if (current.rev !== null && rev !== current.rev) throw errors.conflict('tenancy.tenantDefaultsChanged');
      return saveTenantDefaults(deps, requirePrincipal(c).userId, defaults, current.rev);
    },
  );

  const tenants = (actor: string) => deps.store.platform({ userId: actor }).collection<Tenant>(C.tenants);
  const tenantParams = { type: 'object', properties: { tenantId: str(64) } };

  async function inJurisdiction(userId: string, tenantId?: string): Promise<string[]> {
    const account = await findAccount(deps, userId);
    const jurisdiction = account?.jurisdiction ?? [];
    if (tenantId && jurisdiction.length && !jurisdiction.includes(tenantId)) throw errors.forbidden();
    return jurisdiction;
  }

  router.route<unknown, { status?: string; name?: string; deleted?: 'true' | 'false' }>(
    {
      method: 'get',
      path: '/operator/tenants',
      summary: 'Tenants of the platform (operators), filtered by status or name',
      permission: 'holoxcontrol:lessee',
      query: {
        type: 'object',
        properties: {
          status: { enum: ['pending', 'active', 'rejected', 'disabled'] },
          name: str(100),
          deleted: { enum: ['true', 'false'] },
        },
      },
    },
    async (c, { query }) => {
      const principal = requirePrincipal(c);
      const jurisdiction = await inJurisdiction(principal.userId);
      await purgeExpiredRegistrations(deps);
      // Deleted tenants only when asked for (the list's "deleted" tab).
      const filter: Record<string, unknown> =
        query.deleted === 'true' ? { deleted: true } : { deleted: { $ne: true } };
      if (query.status) filter.status = query.status;
      if (query.name) filter.name = textMatch(query.name);
      if (jurisdiction.length) filter._id = { $in: jurisdiction };
      return (await tenants(principal.userId).find(filter, { sort: { registeredAt: -1 }, limit: 1000 })).map(
        tenantView,
      );
    },
  );

  // Creating a tenant and setting its limits, expiry and status are the generic entity CRUD over
  // schemas/entities/tenant.json's create and settings views; the enterprise administrator's
  // account and activation link, the operator's jurisdiction, the decision first and the tenant
  // cache are the hooks.
  entityRoutes<TenantInput>(router, {
    path: '/operator/tenants',
    collection: C.tenants,
    scope: 'platform',
    entity: 'tenant',
    bodies: { create: 'tenant#/$defs/create', update: 'tenant#/$defs/settings' },
    permission: 'holoxcontrol:lessee',
    operations: ['create', 'update'],
    summaries: {
      create: 'Create an active tenant with its enterprise administrator; answers the activation link path',
      update: 'Set a tenant’s limits, expiry and status (active or disabled)',
    },
    idParam: 'tenantId',
    deletedRefusal: 'tenancy.deletedRestoreFirst',
    // The settings view is part of the tenant: what it does not name stays as it is.
    clearOmitted: false,
    async prepare(input, { caller, id, before }) {
      if (!id) return input;
      await inJurisdiction(caller.userId, id);
      const status = (before as StoredDoc<Tenant> | undefined)?.status;
      if (status === 'pending' || status === 'rejected') throw errors.badRequest('tenancy.decideFirst');
      return input;
    },
    async create(input, { caller }) {
      const body = input as TenantCreate;
      const tenant = await createTenant(deps, options, { ...body, status: 'active' }, caller.userId);
      const link = await issueLink(
        deps,
        { accountId: tenant.enterpriseAdminId!, tenantId: tenant._id, purpose: 'activate' },
        caller.userId,
      );
      return {
        answer: {
          tenant: tenantView(tenant),
          activationPath: link.path,
          activationExpiresAt: link.expiresAt,
        },
      };
    },
    afterWrite: (_updated, { id }) => {
      if (id) forgetTenant(deps.store, id);
    },
    view: (t) => tenantView(t as unknown as StoredDoc<Tenant>),
  });

  router.route<
    { approve: boolean; note?: string; expiresAt?: string | null; limits?: TenantLimits },
    unknown,
    { tenantId: string }
  >(
    {
      method: 'post',
      path: '/operator/tenants/:tenantId/decision',
      summary: 'Approve or reject a registered tenant (with limits and expiry on approval)',
      permission: 'holoxcontrol:lessee:approve',
      params: tenantParams,
      body: pickBody(loadEntity('tenant#/$defs/decision'), ['approve', 'note', 'expiresAt', 'limits']),
    },
    async (c, { body, params }) => {
      const principal = requirePrincipal(c);
      await inJurisdiction(principal.userId, params.tenantId);
      const current = await tenants(principal.userId).findOne({ _id: params.tenantId });
      if (!current) throw errors.notFound();
      if (current.status !== 'pending')
        throw new AppError(Code.badRequest, 'tenancy.alreadyDecided', {}, 400);
      if (current.registeredAt <= registrationCutoff(deps.clock.now())) {
        await purgeExpiredRegistrations(deps);
        throw errors.badRequest('tenancy.registrationExpired', { days: REGISTRATION_DAYS });
      }
      const updated = await tenants(principal.userId).updateOne(
        { _id: params.tenantId, status: 'pending' },
        {
          $set: {
            status: body.approve ? 'active' : 'rejected',
            decidedAt: deps.clock.now().toISOString(),
            decisionNote: body.note ?? '',
            ...(body.expiresAt !== undefined ? { expiresAt: body.expiresAt } : {}),
            ...(body.limits ? { limits: body.limits } : {}),
          },
        },
      );
      forgetTenant(deps.store, params.tenantId);
      return updated ? tenantView(updated) : null;
    },
  );

  const deletion = (action: 'delete' | 'restore', summary: string) =>
    router.route<unknown, unknown, { tenantId: string }>(
      {
        method: 'post',
        path: `/operator/tenants/:tenantId/${action}`,
        summary,
        permission: 'holoxcontrol:lessee:delete',
        params: tenantParams,
      },
      async (c, { params }) => {
        const principal = requirePrincipal(c);
        await inJurisdiction(principal.userId, params.tenantId);
        const current = await tenants(principal.userId).findOne({ _id: params.tenantId });
        if (!current) throw errors.notFound();
        if (action === 'delete') {
          if (current.deleted) throw errors.badRequest('tenancy.alreadyDeleted');
          // Only a tenant nobody can use any more: disable (or reject) first, so deleting ends nothing by surprise.
          if (current.status !== 'disabled' && current.status !== 'rejected')
            throw errors.badRequest('tenancy.disableFirst');
        } else if (!current.deleted) throw errors.badRequest('tenancy.notDeleted');
        const updated = await tenants(principal.userId).updateOne(
          { _id: params.tenantId },
          {
            $set:
              action === 'delete'
                ? { deleted: true, deletedAt: deps.clock.now().toISOString(), deletedBy: principal.userId }
                : { deleted: false },
          },
        );
        forgetTenant(deps.store, params.tenantId);
        return updated ? tenantView(updated) : null;
      },
    );
  deletion(
    'delete',
    'Delete a disabled or rejected tenant: kept with who and when (audit trail), hidden from the list unless asked for; restorable',
  );
  deletion('restore', 'Restore a deleted tenant (its status is unchanged: still disabled or rejected)');
  operatorAccountRoutes(router, deps);
}
