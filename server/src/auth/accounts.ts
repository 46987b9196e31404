/** Accounts (platform) and the tenant user records that go with them. */
import type { ModuleDeps } from '../http/module';
import type { Collection, StoredDoc } from '../store/port';
import { C } from './collections';
import type { Account, User } from './model';

export const accountsOf = (deps: ModuleDeps, actor = 'system:auth'): Collection<Account> =>
  deps.store.platform({ userId: actor }).collection<Account>(C.accounts);

export const usersOf = (deps: ModuleDeps, tenantId: string, actor = 'system:auth'): Collection<User> =>
  deps.store.tenant(tenantId, { userId: actor }).collection<User>(C.users);

export async function findAccountByName(
  deps: ModuleDeps,
  account: string,
): Promise<StoredDoc<Account> | null> {
  return accountsOf(deps).findOne({ accountKey: account.trim().toLowerCase() });
}

export async function findAccount(deps: ModuleDeps, accountId: string): Promise<StoredDoc<Account> | null> {
  return accountsOf(deps).findOne({ _id: accountId });
}
