/**
 * Login: verification code, account, tenant status and expiry, user state, lock and password
 * policy, then a new session (ending the account's other session). Every attempt is logged
 * (tenant login log and the operator's platform login log) without the password or the code.
 */
import { randomUUID } from 'node:crypto';
import { AppError, errors } from '../http/errors';
import { Code } from '../http/envelope';
import type { ModuleDeps } from '../http/module';
import type { StoredDoc } from '../store/port';
import { assertTenantUsable, getTenant } from '../tenancy/tenants';
import { accountsOf, findAccountByName, usersOf } from './accounts';
import { consumeCaptcha } from './captcha';
import { C } from './collections';
import { burnVerification, verifyPassword } from './crypto';
import type { Account, SecuritySettings, Session, Tenant } from './model';
import { DEFAULT_SECURITY, OPERATOR_TENANT } from './model';
import type { IdentityOptions } from './options';
import { openSession } from './sessions';

export interface LoginInput {
  account: string;
  password: string;
  captchaId?: string;
  captchaCode?: string;
  /** Tenant to enter when the account belongs to several; the last one used otherwise. */
  tenantId?: string;
  ip: string | null;
  userAgent: string | null;
}

export interface LoginResult {
  token: string;
  session: StoredDoc<Session>;
}

export interface LoginLogEntry {
  at: string;
  account: string;
  userId: string | null;
  loginTenantId: string | null;
  result: 'success' | 'failure' | 'logout' | 'forced';
  /** Message key of the outcome. */
  reason: string;
  ip: string | null;
  userAgent: string | null;
}

export async function writeLoginLog(deps: ModuleDeps, entry: LoginLogEntry): Promise<void> {
  const _id = randomUUID();
  await deps.store
    .platform({ userId: 'system:auth' })
    .collection<LoginLogEntry>(C.platformLoginLog)
    .insertOne({ _id, ...entry });
  if (entry.loginTenantId && entry.loginTenantId !== OPERATOR_TENANT) {
    await deps.store
      .tenant(entry.loginTenantId, { userId: 'system:auth' })
      .collection<LoginLogEntry>(C.loginLog)
      .insertOne({ _id, ...entry });
  }
}

/** The policy that governs an account: its tenant's, or the default for operators. */
export function policyOf(tenant: Tenant | null): SecuritySettings {
  return tenant?.security ?? DEFAULT_SECURITY;
}

function chooseTenant(account: Account, requested?: string): string | null {
  if (account.operator) return OPERATOR_TENANT;
  if (requested) return account.tenantIds.includes(requested) ? requested : null;
  if (account.lastTenantId && account.tenantIds.includes(account.lastTenantId)) return account.lastTenantId;
  return account.tenantIds[0] ?? null;
}

export async function login(
  deps: ModuleDeps,
  options: IdentityOptions,
  input: LoginInput,
): Promise<LoginResult> {
  const now = deps.clock.now();
  const platform = deps.store.platform({ userId: 'system:auth' });
  const log = (
    reason: string,
    result: LoginLogEntry['result'],
    userId: string | null,
    tenantId: string | null,
  ) =>
    writeLoginLog(deps, {
      at: now.toISOString(),
      account: input.account.slice(0, 64),
      userId,
      loginTenantId: tenantId,
      result,
      reason,
      ip: input.ip,
      userAgent: input.userAgent,
    });
  const refuse = async (key: string, userId: string | null, tenantId: string | null, params = {}) => {
    await log(key, 'failure', userId, tenantId);
    return new AppError(Code.badRequest, key, params, 400);
  };

  if (options.captcha && !(await consumeCaptcha(platform, input.captchaId, input.captchaCode, now))) {
    throw await refuse('auth.captchaWrong', null, null);
  }

  const account = await findAccountByName(deps, input.account);
  if (!account || !account.passwordHash) {
    await burnVerification(options.scryptCost);
    throw await refuse('auth.badCredentials', account?._id ?? null, null);
  }
  const tenantId = chooseTenant(account, input.tenantId);
  if (!tenantId) throw await refuse('auth.noTenant', account._id, null);
  const tenant = account.operator ? null : await getTenant(deps.store, tenantId);
  if (!account.operator) {
    try {
      assertTenantUsable(tenant, now);
    } catch (error) {
      if (error instanceof AppError)
        throw await refuse(error.messageKey, account._id, tenantId, error.params);
      throw error;
    }
  }
  const policy = policyOf(tenant);
  const users = account.operator ? null : usersOf(deps, tenantId);
  const user = users ? await users.findOne({ accountId: account._id }) : null;
  if (users && !user) throw await refuse('auth.noTenant', account._id, tenantId);
  if (user?.state === 'disabled') throw await refuse('auth.userDisabled', account._id, tenantId);
  if (user?.state === 'inactive') throw await refuse('auth.userInactive', account._id, tenantId);

  const accounts = accountsOf(deps);
  if (account.lockedUntil) {
    if (account.lockedUntil > now.toISOString()) {
      await burnVerification(options.scryptCost);
      throw await refuse('auth.accountLocked', account._id, tenantId, { until: account.lockedUntil });
    }
    await unlockAccount(deps, account);
    account.failedCount = 0;
  }

  if (!(await verifyPassword(input.password, account.passwordHash))) {
    const failedCount = (account.failedCount ?? 0) + 1;
    if (failedCount >= policy.maxLoginErrors) {
      const lockedUntil = new Date(now.getTime() + policy.autoUnlockHours * 3600_000).toISOString();
      await accounts.updateOne({ _id: account._id }, { $set: { failedCount, lockedUntil } });
      for (const member of account.tenantIds) {
        await usersOf(deps, member).updateOne(
          { accountId: account._id, state: 'enabled' },
          { $set: { state: 'locked' } },
        );
      }
      throw await refuse('auth.accountLockedNow', account._id, tenantId, {
        count: policy.maxLoginErrors,
        hours: policy.autoUnlockHours,
      });
    }
    await accounts.updateOne({ _id: account._id }, { $set: { failedCount } });
    throw await refuse('auth.badCredentialsLeft', account._id, tenantId, {
      left: policy.maxLoginErrors - failedCount,
    });
  }

  const cycleOver =
    policy.passwordChangeDays > 0 &&
    (!account.passwordChangedAt ||
      Date.parse(account.passwordChangedAt) + policy.passwordChangeDays * 86_400_000 <= now.getTime());
  await accounts.updateOne({ _id: account._id }, { $set: { failedCount: 0, lastTenantId: tenantId } });
  const opened = await openSession(deps, {
    accountId: account._id,
    account: account.account,
    name: user?.name ?? account.name,
    sessionTenantId: tenantId,
    organisationId: user?.currentOrganisationId ?? user?.organisationIds[0] ?? null,
    operator: account.operator,
    sessionMinutes: policy.sessionMinutes,
    mustChangePassword: account.mustChangePassword || cycleOver,
    ip: input.ip,
    userAgent: input.userAgent,
  });
  await log('auth.loginSucceeded', 'success', account._id, tenantId);
  return opened;
}

export async function unlockAccount(
  deps: ModuleDeps,
  account: StoredDoc<Account>,
  actor = 'system:auth',
): Promise<void> {
  await accountsOf(deps, actor).updateOne(
    { _id: account._id },
    { $set: { failedCount: 0, lockedUntil: null } },
  );
  for (const member of account.tenantIds) {
    await usersOf(deps, member, actor).updateOne(
      { accountId: account._id, state: 'locked' },
      { $set: { state: 'enabled' } },
    );
  }
}

/**
 * Re-verification of the caller's password (signing, sensitive changes). Failures count toward
 * the lock like login failures do. Refuses with 'Password verification failed.'.
 */
export async function reverifyPassword(
  deps: ModuleDeps,
  accountId: string,
  tenantId: string,
  password: string,
): Promise<StoredDoc<Account>> {
  const now = deps.clock.now();
  const accounts = accountsOf(deps);
  const account = await accounts.findOne({ _id: accountId });
  if (!account?.passwordHash) throw errors.badRequest('auth.passwordVerificationFailed');
  if (account.lockedUntil && account.lockedUntil > now.toISOString()) {
    throw errors.badRequest('auth.accountLocked', { until: account.lockedUntil });
  }
  if (await verifyPassword(password, account.passwordHash)) {
    if (account.failedCount) await accounts.updateOne({ _id: account._id }, { $set: { failedCount: 0 } });
    return account;
  }
  const tenant = tenantId === OPERATOR_TENANT ? null : await getTenant(deps.store, tenantId);
  const policy = policyOf(tenant);
  const failedCount = (account.failedCount ?? 0) + 1;
  const lockedUntil =
    failedCount >= policy.maxLoginErrors
      ? new Date(now.getTime() + policy.autoUnlockHours * 3600_000).toISOString()
      : null;
  await accounts.updateOne({ _id: account._id }, { $set: { failedCount, lockedUntil } });
  throw errors.badRequest('auth.passwordVerificationFailed');
}
