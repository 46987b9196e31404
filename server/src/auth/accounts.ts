/** Accounts (platform) and the tenant user records that go with them. */
import type { ModuleDeps } from '../http';
import type { Collection, StoredDoc } from '../store';
import { C } from './collections';
import type { Account, User } from './model';

export const accountsOf = (deps: Pick<ModuleDeps, 'store'>, actor = 'system:auth'): Collection<Account> =>
  deps.store.platform({ userId: actor }).collection<Account>(C.accounts);

export const usersOf = (deps: ModuleDeps, tenantId: string, actor = 'system:auth'): Collection<User> =>
  deps.store.tenant(tenantId, { userId: actor }).collection<User>(C.users);

/** The _id of a person's user record in a tenant (ids are unique across tenants in the store). */
export function userDocId(tenantId: string, accountId: string): string {
  return `${accountId}:${tenantId}`;
}

export async function findAccountByName(
  deps: Pick<ModuleDeps, 'store'>,
  account: string,
): Promise<StoredDoc<Account> | null> {
  return accountsOf(deps).findOne({ accountKey: account.trim().toLowerCase() });
}

export async function findAccount(deps: ModuleDeps, accountId: string): Promise<StoredDoc<Account> | null> {
  return accountsOf(deps).findOne({ _id: accountId });
}

/** A new account document with the defaults every creator shares (no lock, no failures). */
export function newAccount(input: {
  _id: string;
  account: string;
  name: string;
  passwordHash?: string | null;
  passwordChangedAt?: string | null;
  operator?: boolean;
  operatorRoleIds?: string[];
  tenantIds?: string[];
}): Account & { _id: string } {
  const tenantIds = input.tenantIds ?? [];
  return {
    _id: input._id,
    account: input.account,
    accountKey: input.account.toLowerCase(),
    passwordHash: input.passwordHash ?? null,
    passwordChangedAt: input.passwordHash ? (input.passwordChangedAt ?? null) : null,
    failedCount: 0,
    lockedUntil: null,
    mustChangePassword: false,
    operator: input.operator ?? false,
    operatorRoleIds: input.operatorRoleIds ?? [],
    jurisdiction: [],
    tenantIds,
    lastTenantId: tenantIds[0] ?? null,
    name: input.name,
  };
}
