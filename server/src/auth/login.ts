/**
 * Login: verification code (from the first failure, see loginChallenges), account, password
 * (always verified), then - only for the right password - tenant status and expiry, user state,
 * lock and password policy, then a new session (ending the account's other session). Every
 * attempt is logged (tenant login log and the operator's platform login log) without the password
 * or the code.
 */
import { randomUUID } from 'node:crypto';
import { AppError, errors } from '../http';
import { Code } from '../http';
import type { ModuleDeps } from '../http';
import type { StoredDoc } from '../store';
import { DuplicateKeyError } from '../store';
import { assertTenantUsable, getTenant, purgeExpiredRegistrations } from './providers';
import { accountsOf, findAccountByName, usersOf } from './accounts';
import { consumeCaptcha } from './captcha';
import { C } from './collections';
import type { ScryptCost } from './crypto';
import { hashPassword, randomToken, sha256Hex, verifyPassword } from './crypto';
import type { Account, SecuritySettings, Session, Tenant, User, UserState } from './model';
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

/**
 * The verification code is asked from the first failed login of an account name in a tenant until
 * a login there succeeds. The pair is the request's own (the name as typed, the tenantId asked for
 * or none), whether or not such an account exists: an unknown name is marked exactly like a known
 * one, so neither the answers nor the work tell them apart.
 */
function challengeKey(account: string, tenantId: string | undefined): string {
  return sha256Hex(`${account.trim().toLowerCase()}\n${tenantId ?? ''}`);
}

interface LoginChallenge {
  at: string;
}

async function markChallenge(deps: ModuleDeps, key: string, nowIso: string): Promise<void> {
  const challenges = deps.store
    .platform({ userId: 'system:auth' })
    .collection<LoginChallenge>(C.loginChallenges);
  if (await challenges.updateOne({ _id: key }, { $set: { at: nowIso } })) return;
  try {
    await challenges.insertOne({ _id: key, at: nowIso });
  } catch (error) {
    // A concurrent failure marked it first.
    if (!(error instanceof DuplicateKeyError)) throw error;
  }
}

/** One dummy hash per cost: an unknown account is verified against it, as slowly as a known one. */
const dummyHashes = new Map<string, Promise<string>>();
function dummyHash(cost: ScryptCost): Promise<string> {
  const key = `${cost.N}:${cost.r}:${cost.p}`;
  let hash = dummyHashes.get(key);
  if (!hash) dummyHashes.set(key, (hash = hashPassword(randomToken(), cost)));
  return hash;
}

/** Lock fields of whatever the failures count on: the membership in one tenant, or the account itself. */
interface LockState {
  failedCount?: number;
  lockedUntil?: string | null;
}

const lockedAt = (doc: LockState, nowIso: string) => Boolean(doc.lockedUntil && doc.lockedUntil > nowIso);

/** The `$set` that records one more wrong password on `doc` (nothing while it is locked already). */
function failureUpdate(
  doc: LockState & { state?: UserState },
  policy: SecuritySettings,
  now: Date,
): Record<string, unknown> | null {
  const nowIso = now.toISOString();
  if (lockedAt(doc, nowIso)) return null;
  // A lock that ran out starts a fresh count.
  const failedCount = (doc.lockedUntil ? 0 : (doc.failedCount ?? 0)) + 1;
  if (failedCount < policy.maxLoginErrors) {
    return { failedCount, lockedUntil: null, ...(doc.state === 'locked' ? { state: 'enabled' } : {}) };
  }
  return {
    failedCount,
    lockedUntil: new Date(now.getTime() + policy.autoUnlockHours * 3600_000).toISOString(),
    ...(doc.state === 'enabled' || doc.state === 'locked' ? { state: 'locked' } : {}),
  };
}

/**
 * Counts a wrong password against the account in one tenant (the membership), so that failures
 * sent anonymously lock it in that tenant only; operators and accounts without a membership count
 * on the account.
 */
async function countFailure(
  deps: ModuleDeps,
  account: StoredDoc<Account>,
  member: { tenantId: string; user: StoredDoc<User> } | null,
  policy: SecuritySettings,
  now: Date,
): Promise<void> {
  if (member) {
    const set = failureUpdate(member.user, policy, now);
    if (set) await usersOf(deps, member.tenantId).updateOne({ _id: member.user._id }, { $set: set });
    return;
  }
  const set = failureUpdate(account, policy, now);
  if (set) await accountsOf(deps).updateOne({ _id: account._id }, { $set: set });
}

/**
 * Login. Until the password is known to be right every refusal is the same answer
 * (`auth.badCredentials`) after the same work (one scrypt verification, against a dummy hash for
 * an unknown account): unknown, wrong password, locked, disabled, inactive and pending tenant
 * cannot be told apart. The state is told only to the holder of the right password.
 */
export async function login(
  deps: ModuleDeps,
  options: IdentityOptions,
  input: LoginInput,
): Promise<LoginResult> {
  const started = performance.now();
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const platform = deps.store.platform({ userId: 'system:auth' });
  const log = (
    reason: string,
    result: LoginLogEntry['result'],
    userId: string | null,
    tenantId: string | null,
  ) =>
    writeLoginLog(deps, {
      at: nowIso,
      account: input.account.slice(0, 64),
      userId,
      loginTenantId: tenantId,
      result,
      reason,
      ip: input.ip,
      userAgent: input.userAgent,
    });
  const refuse = async (
    key: string,
    userId: string | null,
    tenantId: string | null,
    params = {},
    data: unknown = null,
  ) => {
    await log(key, 'failure', userId, tenantId);
    return new AppError(Code.badRequest, key, params, 400, { data });
  };
  // What a refused attempt tells the login page: the next one needs the verification code.
  const challenged = options.captcha ? { captchaRequired: true } : null;
  const challenge = challengeKey(input.account, input.tenantId);
  const challenges = platform.collection<LoginChallenge>(C.loginChallenges);

  // A code sent is always checked; one is needed from the pair's first failure on.
  const codeSent = Boolean(input.captchaId || input.captchaCode);
  if (options.captcha && (codeSent || (await challenges.findOne({ _id: challenge })))) {
    if (!(await consumeCaptcha(platform, input.captchaId, input.captchaCode, now))) {
      await markChallenge(deps, challenge, nowIso);
      throw await refuse(codeSent ? 'auth.captchaWrong' : 'auth.captchaRequired', null, null, {}, challenged);
    }
  }
  await purgeExpiredRegistrations(deps);

  const account = await findAccountByName(deps, input.account);
  const tenantId = account ? chooseTenant(account, input.tenantId) : null;
  // Failures count in the tenant asked for, or in the one the account would enter (an unknown
  // tenantId must not buy unlimited guesses).
  const countIn = account && !account.operator ? (tenantId ?? chooseTenant(account)) : null;
  const tenant = countIn ? await getTenant(deps.store, countIn) : null;
  const policy = policyOf(tenant);
  const user = countIn ? await usersOf(deps, countIn).findOne({ accountId: account!._id }) : null;
  const passwordRight = await verifyPassword(
    input.password,
    account?.passwordHash ?? (await dummyHash(options.scryptCost)),
  );
  if (!account?.passwordHash || !passwordRight) {
    if (account?.passwordHash)
      await countFailure(deps, account, countIn && user ? { tenantId: countIn, user } : null, policy, now);
    if (options.captcha) await markChallenge(deps, challenge, nowIso);
    const refusal = await refuse('auth.badCredentials', account?._id ?? null, countIn, {}, challenged);
    const wait = (options.loginFloorMs ?? 0) - (performance.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    throw refusal;
  }

  // The right password: from here on the holder may learn the state of the account.
  if (!tenantId) throw await refuse('auth.noTenant', account._id, null);
  if (!account.operator) {
    try {
      assertTenantUsable(tenant, now);
    } catch (error) {
      if (error instanceof AppError)
        throw await refuse(error.messageKey, account._id, tenantId, error.params);
      throw error;
    }
    if (!user || user.state === 'invited') throw await refuse('auth.noTenant', account._id, tenantId);
    if (user.state === 'disabled') throw await refuse('auth.userDisabled', account._id, tenantId);
    if (user.state === 'inactive') throw await refuse('auth.userInactive', account._id, tenantId);
    if (lockedAt(user, nowIso))
      throw await refuse('auth.accountLocked', account._id, tenantId, { until: user.lockedUntil });
    if (user.failedCount || user.lockedUntil || user.state === 'locked') {
      await usersOf(deps, tenantId).updateOne(
        { _id: user._id },
        { $set: { failedCount: 0, lockedUntil: null, state: 'enabled' } },
      );
    }
  } else if (lockedAt(account, nowIso)) {
    throw await refuse('auth.accountLocked', account._id, tenantId, { until: account.lockedUntil });
  }

  const cycleOver =
    policy.passwordChangeDays > 0 &&
    (!account.passwordChangedAt ||
      Date.parse(account.passwordChangedAt) + policy.passwordChangeDays * 86_400_000 <= now.getTime());
  await accountsOf(deps).updateOne(
    { _id: account._id },
    { $set: { failedCount: 0, lockedUntil: null, lastTenantId: tenantId } },
  );
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
  // Signed in: the code is no longer asked, whether the tenant was named or chosen.
  await challenges.deleteOne({ _id: challenge });
  if (input.tenantId !== tenantId) await challenges.deleteOne({ _id: challengeKey(input.account, tenantId) });
  return opened;
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
  const account = await accountsOf(deps).findOne({ _id: accountId });
  if (!account?.passwordHash) throw errors.badRequest('auth.passwordVerificationFailed');
  const operator = tenantId === OPERATOR_TENANT;
  const user = operator ? null : await usersOf(deps, tenantId).findOne({ accountId });
  const lock: LockState = user ?? account;
  if (lockedAt(lock, now.toISOString()))
    throw errors.badRequest('auth.accountLocked', { until: lock.lockedUntil });
  if (await verifyPassword(password, account.passwordHash)) {
    if (user?.failedCount)
      await usersOf(deps, tenantId).updateOne({ _id: user._id }, { $set: { failedCount: 0 } });
    else if (!user && account.failedCount)
      await accountsOf(deps).updateOne({ _id: account._id }, { $set: { failedCount: 0 } });
    return account;
  }
  const policy = policyOf(operator ? null : await getTenant(deps.store, tenantId));
  await countFailure(deps, account, user ? { tenantId, user } : null, policy, now);
  throw errors.badRequest('auth.passwordVerificationFailed');
}
