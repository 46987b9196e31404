/** HTTP routes of the auth module (prefix /api/auth). */
import type { Context } from 'hono';
import type { AppEnv, Principal } from '../http';
import { requirePrincipal } from '../http';
import { AppError, errors } from '../http';
import { Code } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import type { StoredDoc } from '../store';
import { assertTenantUsable, getTenant, grantsOf } from './providers';
import { accountsOf, findAccount, usersOf } from './accounts';
import { issueCaptcha } from './captcha';
import { C } from './collections';
import { hashPassword } from './crypto';
import type { AccountLink } from './links';
import { exchangeLink, findLiveLink, useLink } from './links';
import { clientAddress } from '../http';
import type { LoginLogEntry } from './login';
import { login, policyOf, reverifyPassword, writeLoginLog } from './login';
import type { Session } from './model';
import { DEFAULT_SECURITY, OPERATOR_TENANT } from './model';
import type { IdentityOptions } from './options';
import type { PageQuery } from '../http';
import { pageOptions, pageQuery, timeBound, timeRange } from '../http';
import { listSort, sortQuery } from '../entities';
import type { SortQuery } from '../entities';
import { assertNewPassword } from './policy';
import { endSessions, findSession, forgetSessions, onlineSessions, openSession } from './sessions';
import type { Crop, SignatureRecord } from './signature';
import { deleteSignature, readSignature, saveSignature, signWithPassword } from './signature';

const str = (max = 200) => ({ type: 'string', maxLength: max }) as const;
const cropSchema = {
  type: 'object',
  required: ['x', 'y', 'width', 'height'],
  additionalProperties: false,
  properties: {
    x: { type: 'number', minimum: 0 },
    y: { type: 'number', minimum: 0 },
    width: { type: 'number', exclusiveMinimum: 0 },
    height: { type: 'number', exclusiveMinimum: 0 },
    rotate: { type: 'number', minimum: -360, maximum: 360 },
  },
};

function clientOf(c: Context<AppEnv>) {
  // X-Forwarded-For counts only from a configured proxy (PV_TRUSTED_PROXIES); X-Real-IP never.
  const ip = clientAddress(c);
  return { ip: ip ? ip.slice(0, 64) : null, userAgent: c.req.header('user-agent')?.slice(0, 300) ?? null };
}

/** What a client keeps after login or switch (the session state of SPEC 3). */
export async function sessionView(deps: ModuleDeps, session: StoredDoc<Session>, token: string) {
  const account = await findAccount(deps, session.accountId);
  const tenants = [];
  for (const tenantId of account?.tenantIds ?? []) {
    const tenant = await getTenant(deps.store, tenantId);
    if (tenant)
      tenants.push({
        tenantId,
        name: tenant.name,
        nameEn: tenant.nameEn ?? null,
        status: tenant.status,
        expiresAt: tenant.expiresAt,
      });
  }
  const tenant = session.operator ? null : await getTenant(deps.store, session.sessionTenantId);
  return {
    token,
    expiresAt: session.expiresAt,
    sessionMinutes: session.sessionMinutes,
    mustChangePassword: session.mustChangePassword,
    operator: session.operator,
    user: {
      userId: session.accountId,
      account: session.account,
      name: session.name,
      organisationId: session.organisationId,
    },
    tenant: tenant
      ? {
          tenantId: session.sessionTenantId,
          name: tenant.name,
          nameEn: tenant.nameEn ?? null,
          expiresAt: tenant.expiresAt,
          limits: tenant.limits,
        }
      : null,
    tenants,
  };
}

const loginLogView = (doc: StoredDoc<LoginLogEntry>) => ({
  logId: doc._id,
  at: doc.at,
  account: doc.account,
  userId: doc.userId,
  tenantId: doc.loginTenantId,
  result: doc.result,
  reasonKey: doc.reason,
  ip: doc.ip,
  userAgent: doc.userAgent,
});

/** Login log columns a list sorts by (each indexed in auth/collections.ts). */
const LOGIN_LOG_SORTABLE = ['at', 'account'];

const loginLogQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...pageQuery,
    ...sortQuery,
    account: str(64),
    result: { enum: ['success', 'failure', 'logout', 'forced'] },
    from: timeBound,
    to: timeBound,
    tenantId: str(64),
  },
};

export function authRoutes(router: ModuleRouter, deps: ModuleDeps, options: IdentityOptions): void {
  router.route<unknown, { replaces?: string }>(
    {
      method: 'get',
      path: '/captcha',
      summary: 'A new login verification code image (SVG data URL); `replaces` retires the previous one',
      auth: 'none',
      query: { type: 'object', properties: { replaces: str(64) } },
    },
    async (_c, { query }) => {
      if (!options.captcha) return { enabled: false, captchaId: null, image: null, expiresAt: null };
      const platform = deps.store.platform({ userId: 'system:auth' });
      const issued = await issueCaptcha(platform, deps.clock.now(), options.captchaCode, query.replaces);
      return { enabled: true, ...issued };
    },
  );

  router.route<unknown, { kind?: string }>(
    {
      method: 'get',
      path: '/privacy',
      summary: 'Privacy policy and user privacy policy texts in the request language',
      auth: 'none',
    },
    (c) => {
      const t = c.get('t');
      return {
        privacyPolicy: { title: t('auth.privacyPolicyTitle'), content: t('auth.privacyPolicyText') },
        userPrivacyPolicy: {
          title: t('auth.userPrivacyPolicyTitle'),
          content: t('auth.userPrivacyPolicyText'),
        },
      };
    },
  );

  router.route<{
    account: string;
    password: string;
    captchaId?: string;
    captchaCode?: string;
    tenantId?: string;
  }>(
    {
      method: 'post',
      path: '/login',
      summary: 'Log in with account, password and verification code; ends the account’s other session',
      auth: 'none',
      body: {
        type: 'object',
        required: ['account', 'password'],
        additionalProperties: false,
        properties: {
          account: { type: 'string', minLength: 1, maxLength: 64 },
          password: { type: 'string', minLength: 1, maxLength: 128 },
          captchaId: str(64),
          captchaCode: str(16),
          tenantId: str(64),
        },
      },
    },
    async (c, { body }) => {
      const { token, session } = await login(deps, options, { ...body, ...clientOf(c) });
      return sessionView(deps, session, token);
    },
  );

  router.route({ method: 'post', path: '/logout', summary: 'End the current session' }, async (c) => {
    const principal = requirePrincipal(c);
    await endSessions(deps, { _id: principal.sessionId }, 'logout');
    await writeLoginLog(deps, {
      at: deps.clock.now().toISOString(),
      account: String(principal.account),
      userId: principal.userId,
      loginTenantId: principal.tenantId,
      result: 'logout',
      reason: 'auth.loggedOut',
      ...clientOf(c),
    });
    return null;
  });

  router.route(
    {
      method: 'get',
      path: '/me',
      summary: 'The caller: profile, tenant, tenants, organisations, permissions (per projectId header)',
    },
    async (c) => {
      const principal = requirePrincipal(c);
      const session = await findSession(deps, String(principal.sessionId));
      if (!session) throw errors.sessionInvalid();
      const view = await sessionView(deps, session, '');
      const grants = await grantsOf(deps, principal, c.get('ctx').projectId);
      let profile = null;
      let organisations: { organisationId: string; name: string }[] = [];
      if (!principal.operator) {
        const handle = deps.store.tenant(principal.tenantId, { userId: principal.userId });
        const user = await handle.collection(C.users).findOne({ accountId: principal.userId });
        if (user) {
          profile = {
            name: user.name,
            email: user.email,
            phone: user.phone ?? null,
            job: user.job ?? null,
            state: user.state,
            duties: user.duties ?? [],
            roleIds: user.roleIds,
            organisationIds: user.organisationIds,
          };
          const orgs = await handle
            .collection<{ name: string }>(C.organisations)
            .find({ _id: { $in: (user.organisationIds as string[]) ?? [] } });
          organisations = orgs.map((o) => ({ organisationId: o._id, name: o.name }));
        }
      }
      const { token: _omitted, ...rest } = view;
      return {
        ...rest,
        profile,
        organisations,
        permissions: [...grants.keys].sort(),
        allPermissions: grants.all,
        roleIdentifiers: grants.roleIdentifiers,
      };
    },
  );

  router.route<{ tenantId?: string; organisationId?: string }>(
    {
      method: 'post',
      path: '/switch',
      summary: 'Switch tenant and/or organisation; answers a new session (the old token ends)',
      body: {
        type: 'object',
        additionalProperties: false,
        properties: { tenantId: str(64), organisationId: str(64) },
      },
    },
    async (c, { body }) => {
      const principal = requirePrincipal(c);
      if (principal.operator) throw errors.forbidden();
      const account = await findAccount(deps, principal.userId);
      const tenantId = body.tenantId ?? principal.tenantId;
      if (!account || !account.tenantIds.includes(tenantId)) throw errors.forbidden('auth.notMember');
      const tenant = await getTenant(deps.store, tenantId);
      assertTenantUsable(tenant, deps.clock.now());
      const users = usersOf(deps, tenantId, principal.userId);
      const user = await users.findOne({ accountId: principal.userId });
      // The lock counts per tenant: a membership locked (and not yet run out) is refused as such.
      const nowIso = deps.clock.now().toISOString();
      if (user?.state === 'locked' && user.lockedUntil && user.lockedUntil > nowIso)
        throw errors.forbidden('auth.accountLocked', { until: user.lockedUntil });
      if (!user || (user.state !== 'enabled' && user.state !== 'locked'))
        throw errors.forbidden('auth.userDisabled');
      const organisationId =
        body.organisationId ?? user.currentOrganisationId ?? user.organisationIds[0] ?? null;
      if (organisationId && !user.organisationIds.includes(organisationId))
        throw errors.forbidden('auth.notMember');
      await users.updateOne(
        { _id: user._id },
        {
          $set: {
            currentOrganisationId: organisationId,
            ...(user.state === 'locked' ? { state: 'enabled', failedCount: 0, lockedUntil: null } : {}),
          },
        },
      );
      await accountsOf(deps, principal.userId).updateOne(
        { _id: account._id },
        { $set: { lastTenantId: tenantId } },
      );
      const previous = await findSession(deps, String(principal.sessionId));
      const { token, session } = await openSession(
        deps,
        {
          accountId: account._id,
          account: account.account,
          name: user.name,
          sessionTenantId: tenantId,
          organisationId,
          operator: false,
          sessionMinutes: policyOf(tenant).sessionMinutes,
          mustChangePassword: previous?.mustChangePassword ?? false,
          ...clientOf(c),
        },
        'switched',
      );
      return sessionView(deps, session, token);
    },
  );

  router.route<{ oldPassword: string; newPassword: string; confirmPassword: string }>(
    {
      method: 'post',
      path: '/password',
      summary: 'Change the caller’s password (old password, new password twice, tenant policy)',
      body: {
        type: 'object',
        required: ['oldPassword', 'newPassword', 'confirmPassword'],
        additionalProperties: false,
        properties: { oldPassword: str(128), newPassword: str(128), confirmPassword: str(128) },
      },
    },
    async (c, { body }) => {
      const principal = requirePrincipal(c);
      const tenant = principal.operator ? null : await getTenant(deps.store, principal.tenantId);
      const policy = tenant?.security ?? DEFAULT_SECURITY;
      assertNewPassword(body.newPassword, body.confirmPassword, policy);
      const account = await reverifyPassword(deps, principal.userId, principal.tenantId, body.oldPassword);
      if (body.newPassword === body.oldPassword) throw errors.badRequest('auth.passwordUnchanged');
      await accountsOf(deps, principal.userId).updateOne(
        { _id: account._id },
        {
          $set: {
            passwordHash: await hashPassword(body.newPassword, options.scryptCost),
            passwordChangedAt: deps.clock.now().toISOString(),
            mustChangePassword: false,
          },
        },
      );
      await deps.store
        .platform({ userId: principal.userId })
        .collection<Session>(C.sessions)
        .updateOne({ _id: principal.sessionId }, { $set: { mustChangePassword: false } });
      forgetSessions(deps.store);
      return null;
    },
  );

  router.route<{ password: string }>(
    {
      method: 'post',
      path: '/verify-password',
      summary: 'Re-verify the caller’s password ("Password verification failed." when wrong)',
      body: {
        type: 'object',
        required: ['password'],
        additionalProperties: false,
        properties: { password: str(128) },
      },
    },
    async (c, { body }) => {
      const principal = requirePrincipal(c);
      await reverifyPassword(deps, principal.userId, principal.tenantId, body.password);
      return { verified: true };
    },
  );

  router.route<unknown, { token?: string }>(
    {
      method: 'get',
      path: '/activation',
      summary: 'Check an activation or reset link: the account and the password rules to meet',
      auth: 'none',
      query: { type: 'object', properties: { token: str(256) } },
    },
    async (_c, { query }) => activationInfo(await findLiveLink(deps, query.token)),
  );

  /** What the password form shows for a live link: the account and the rules to meet. */
  async function activationInfo(link: StoredDoc<AccountLink>) {
    const account = await findAccount(deps, link.accountId);
    if (!account) throw errors.notFound();
    const tenant = await getTenant(deps.store, link.linkTenantId);
    const {
      sessionMinutes: _s,
      maxLoginErrors: _m,
      autoUnlockHours: _a,
      passwordChangeDays: _p,
      ...rules
    } = policyOf(tenant);
    return {
      account: account.account,
      name: account.name,
      purpose: link.purpose,
      expiresAt: link.expiresAt,
      passwordRules: rules,
    };
  }

  router.route<{ token: string }>(
    {
      method: 'post',
      path: '/activation/exchange',
      summary:
        'Exchange the token of an activation or reset link, as it arrived in the page address, for a code held by the page (the token stops working); answers the code, the account and the password rules',
      auth: 'none',
      body: {
        type: 'object',
        required: ['token'],
        additionalProperties: false,
        properties: { token: str(256) },
      },
    },
    async (_c, { body }) => {
      const { code, link } = await exchangeLink(deps, body.token);
      return { code, ...(await activationInfo(link)) };
    },
  );

  router.route<{ token: string; password: string; confirmPassword: string }>(
    {
      method: 'post',
      path: '/activation',
      summary: 'Set the password through an activation or reset link (single use); activates the user',
      auth: 'none',
      body: {
        type: 'object',
        required: ['token', 'password', 'confirmPassword'],
        additionalProperties: false,
        properties: { token: str(256), password: str(128), confirmPassword: str(128) },
      },
    },
    async (_c, { body }) => {
      const link = await findLiveLink(deps, body.token);
      const tenant = await getTenant(deps.store, link.linkTenantId);
      assertNewPassword(body.password, body.confirmPassword, policyOf(tenant));
      const passwordHash = await hashPassword(body.password, options.scryptCost);
      if (!(await useLink(deps, link)))
        throw new AppError(Code.badRequest, 'auth.linkInvalid', {}, 400, { data: { linkInvalid: true } });
      const now = deps.clock.now().toISOString();
      await accountsOf(deps, link.accountId).updateOne(
        { _id: link.accountId },
        {
          $set: {
            passwordHash,
            passwordChangedAt: now,
            mustChangePassword: false,
            failedCount: 0,
            lockedUntil: null,
          },
        },
      );
      await usersOf(deps, link.linkTenantId, link.accountId).updateOne(
        { accountId: link.accountId, state: { $in: ['inactive', 'locked'] } },
        { $set: { state: 'enabled' } },
      );
      // A reset ends any session that was open with the old password.
      await endSessions(deps, { accountId: link.accountId }, 'forced');
      return null;
    },
  );

  router.route(
    {
      method: 'get',
      path: '/online',
      summary: 'Online users of the caller’s tenant',
      permission: 'authoritymanagement:onlineUser',
    },
    async (c) => {
      const principal = requirePrincipal(c);
      return (await onlineSessions(deps, principal.tenantId)).map((s) => ({
        sessionId: s._id,
        userId: s.accountId,
        account: s.account,
        name: s.name,
        organisationId: s.organisationId,
        loginAt: s.createdAt,
        lastSeenAt: s.lastSeenAt,
        expiresAt: s.expiresAt,
        ip: s.ip,
        userAgent: s.userAgent,
        current: s._id === principal.sessionId,
      }));
    },
  );

  router.route<unknown, unknown, { sessionId: string }>(
    {
      method: 'post',
      path: '/online/:sessionId/logout',
      summary: 'Forced logout of an online user ("Forced withdrawal failed" when not possible)',
      permission: 'authoritymanagement:onlineUser:forceLogout',
      params: { type: 'object', properties: { sessionId: str(64) } },
    },
    async (c, { params }) => {
      const principal = requirePrincipal(c);
      const failed = () => new AppError(Code.error, 'auth.forcedWithdrawalFailed', {}, 400);
      const session = await findSession(deps, params.sessionId);
      if (!session || session.sessionTenantId !== principal.tenantId || session._id === principal.sessionId)
        throw failed();
      const ended = await endSessions(deps, { _id: session._id }, 'forced');
      if (ended !== 1) throw failed();
      await writeLoginLog(deps, {
        at: deps.clock.now().toISOString(),
        account: session.account,
        userId: session.accountId,
        loginTenantId: session.sessionTenantId,
        result: 'forced',
        reason: 'auth.forcedOut',
        ...clientOf(c),
      });
      return null;
    },
  );

  router.route<
    unknown,
    PageQuery & SortQuery & { account?: string; result?: string; from?: string; to?: string }
  >(
    {
      method: 'get',
      path: '/login-log',
      summary: 'Login log of the caller’s tenant',
      permission: 'checklog:loginOperationLog',
      query: loginLogQuery,
    },
    async (c, { query }) => {
      const handle = deps.store.tenant(requirePrincipal(c).tenantId, { userId: requirePrincipal(c).userId });
      const filter = {
        ...timeRange(query.from, query.to),
        ...(query.account ? { account: query.account } : {}),
        ...(query.result ? { result: query.result } : {}),
      };
      const log = handle.collection<LoginLogEntry>(C.loginLog);
      const items = await log.find(filter, {
        sort: listSort(query, LOGIN_LOG_SORTABLE, { at: -1 }),
        ...pageOptions(query),
      });
      return { total: await log.count(filter), items: items.map(loginLogView) };
    },
  );

  router.route<
    unknown,
    PageQuery &
      SortQuery & { account?: string; result?: string; from?: string; to?: string; tenantId?: string }
  >(
    {
      method: 'get',
      path: '/operator/login-log',
      summary: 'Login log of the whole platform (operators; limited to their jurisdiction)',
      permission: 'holoxcontrol:loginLog',
      query: loginLogQuery,
    },
    async (c, { query }) => {
      const principal = requirePrincipal(c);
      const account = await findAccount(deps, principal.userId);
      const jurisdiction = account?.jurisdiction ?? [];
      const filter: Record<string, unknown> = {
        ...timeRange(query.from, query.to),
        ...(query.account ? { account: query.account } : {}),
        ...(query.result ? { result: query.result } : {}),
      };
      if (query.tenantId) {
        if (jurisdiction.length && !jurisdiction.includes(query.tenantId)) throw errors.forbidden();
        filter.loginTenantId = query.tenantId;
      } else if (jurisdiction.length) filter.loginTenantId = { $in: [...jurisdiction, OPERATOR_TENANT] };
      const log = deps.store
        .platform({ userId: principal.userId })
        .collection<LoginLogEntry>(C.platformLoginLog);
      const items = await log.find(filter, {
        sort: listSort(query, LOGIN_LOG_SORTABLE, { at: -1 }),
        ...pageOptions(query),
      });
      return { total: await log.count(filter), items: items.map(loginLogView) };
    },
  );

  signatureRoutes(router, deps);
}

function signatureRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  router.route(
    {
      method: 'get',
      path: '/signature',
      summary: 'The caller’s signature picture and crop (null when none)',
    },
    async (c) => readSignature(deps, requirePrincipal(c)),
  );

  router.route<{ image: string; crop: Crop }>(
    {
      method: 'put',
      path: '/signature',
      summary: 'Upload the caller’s signature picture (PNG or JPEG data URL, at most 512 KiB) with its crop',
      body: {
        type: 'object',
        required: ['image', 'crop'],
        additionalProperties: false,
        properties: { image: { type: 'string', maxLength: 700_000 }, crop: cropSchema },
      },
      bodyLimit: 1024 * 1024,
    },
    async (c, { body }) => {
      await saveSignature(deps, requirePrincipal(c), body);
      return readSignature(deps, requirePrincipal(c));
    },
  );

  router.route(
    { method: 'delete', path: '/signature', summary: 'Delete the caller’s signature picture' },
    async (c) => {
      if (!(await deleteSignature(deps, requirePrincipal(c))))
        throw errors.badRequest('auth.signatureMissing');
      return null;
    },
  );

  router.route<{ password: string; meaning: string; subjectType?: string; subjectId?: string }>(
    {
      method: 'post',
      path: '/signature/sign',
      summary: 'Sign as the caller with a password re-verification; answers the signature record',
      body: {
        type: 'object',
        required: ['password', 'meaning'],
        additionalProperties: false,
        properties: {
          password: str(128),
          meaning: { type: 'string', minLength: 1, maxLength: 200 },
          subjectType: str(64),
          subjectId: str(64),
        },
      },
    },
    async (c, { body }) =>
      signatureRecordView(
        await signWithPassword(deps, requirePrincipal(c), body.password, body.meaning, {
          type: body.subjectType,
          id: body.subjectId,
        }),
      ),
  );

  router.route<unknown, PageQuery & { subjectType?: string; subjectId?: string; userId?: string }>(
    {
      method: 'get',
      path: '/signature/records',
      summary: 'Signature records of the tenant, by subject or user',
      query: {
        type: 'object',
        additionalProperties: false,
        properties: { ...pageQuery, subjectType: str(64), subjectId: str(64), userId: str(64) },
      },
    },
    async (c, { query }) => {
      const principal: Principal = requirePrincipal(c);
      const records = deps.store
        .tenant(principal.tenantId, { userId: principal.userId })
        .collection(C.signatureRecords);
      const filter = {
        ...(query.subjectType ? { subjectType: query.subjectType } : {}),
        ...(query.subjectId ? { subjectId: query.subjectId } : {}),
        ...(query.userId ? { userId: query.userId } : {}),
      };
      const items = await records.find(filter, { sort: { signedAt: -1 }, ...pageOptions(query) });
      return { total: await records.count(filter), items: items.map((r) => signatureRecordView(r as never)) };
    },
  );
}

function signatureRecordView(record: StoredDoc<SignatureRecord>) {
  return {
    signatureId: record._id,
    userId: record.userId,
    account: record.account,
    name: record.name,
    meaning: record.meaning,
    subjectType: record.subjectType,
    subjectId: record.subjectId,
    signedAt: record.signedAt,
  };
}
