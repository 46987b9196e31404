/**
 * Tenant registrations (public, waiting for the operator) reserve nothing usable: the account they
 * create signs in nowhere before approval, cannot be invited elsewhere, and an unapproved
 * registration expires after REGISTRATION_DAYS. Expiry is checked at read time with the clock:
 * every reader that could be fooled by a stale registration (login, registration, user creation,
 * the operator's tenant list and decision) purges the expired ones first.
 */
import type { ModuleDeps } from '../http';
import type { StoredDoc } from '../store';
import { accountsOf } from '../auth';
import { C } from '../auth';
import type { Account, Tenant } from '../auth';
import { forgetTenant, getTenant } from './tenants';

/** Days an unapproved registration is kept waiting before it expires. */
export const REGISTRATION_DAYS = 14;
const ACTOR = 'system:registration';

export function registrationCutoff(now: Date): string {
  return new Date(now.getTime() - REGISTRATION_DAYS * 86_400_000).toISOString();
}

/**
 * Expires every pending registration older than REGISTRATION_DAYS: the tenant becomes rejected and
 * deleted (kept for the operator's "deleted" tab) with its code freed, and the account it created
 * is removed when it belongs to nothing else, so that name and code can be registered or created
 * again. Answers how many expired.
 */
export async function purgeExpiredRegistrations(deps: Pick<ModuleDeps, 'store' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  const tenants = deps.store.platform({ userId: ACTOR }).collection<Tenant>(C.tenants);
  const expired = await tenants.find({ status: 'pending', registeredAt: { $lte: registrationCutoff(now) } });
  for (const tenant of expired) {
    const updated = await tenants.updateOne(
      { _id: tenant._id, status: 'pending' },
      {
        $set: {
          status: 'rejected',
          decidedAt: now.toISOString(),
          decisionNote: `registration expired after ${REGISTRATION_DAYS} days`,
          // A code no registration can use (the pattern has no '~'): the real code is free again.
          code: `${tenant.code}~expired~${tenant._id}`,
          deleted: true,
          deletedAt: now.toISOString(),
          deletedBy: ACTOR,
        },
      },
    );
    forgetTenant(deps.store, tenant._id);
    if (!updated || !tenant.enterpriseAdminId) continue;
    const accounts = accountsOf(deps, ACTOR);
    const account = await accounts.findOne({ _id: tenant.enterpriseAdminId });
    if (account && !account.operator && account.tenantIds.every((id) => id === tenant._id))
      await accounts.deleteOne({ _id: account._id });
  }
  return expired.length;
}

/**
 * Whether an account only stands for registrations (every tenant it belongs to is pending or
 * rejected): such an account is usable nowhere and is never attached or invited elsewhere.
 */
export async function onlyRegistered(
  deps: Pick<ModuleDeps, 'store'>,
  account: StoredDoc<Account>,
): Promise<boolean> {
  if (account.operator) return false;
  for (const tenantId of account.tenantIds) {
    const tenant = await getTenant(deps.store, tenantId);
    if (tenant && tenant.status !== 'pending' && tenant.status !== 'rejected') return false;
  }
  return true;
}
