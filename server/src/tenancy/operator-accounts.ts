/**
 * The platform operator acts on a tenant account platform-wide (a tenant administrator may reset
 * only accounts whose every membership is in their tenant): reset its password, ending every
 * session, or unlock it in every tenant. Limited to the operator's jurisdiction: every tenant of
 * the account must be one they look after.
 */
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import { requirePrincipal } from '../http';
import { errors } from '../http';
import type { StoredDoc } from '../store';
import { accountsOf, findAccount, findAccountByName, usersOf } from '../auth';
import { issueLink } from '../auth';
import type { Account } from '../auth';
import { endSessions } from '../auth';

const accountBody = {
  type: 'object',
  required: ['account'],
  additionalProperties: false,
  properties: { account: { type: 'string', minLength: 1, maxLength: 64 } },
};

export function operatorAccountRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  /** The tenant account named, within the caller's jurisdiction (operator accounts: access module). */
  async function tenantAccount(operatorId: string, name: string): Promise<StoredDoc<Account>> {
    const account = await findAccountByName(deps, name);
    if (!account || account.operator) throw errors.notFound('users.userUnknown');
    const jurisdiction = (await findAccount(deps, operatorId))?.jurisdiction ?? [];
    if (jurisdiction.length && !account.tenantIds.every((id) => jurisdiction.includes(id)))
      throw errors.forbidden();
    return account;
  }

  /** Clears the lock of every membership and of the account. */
  async function unlockEverywhere(account: StoredDoc<Account>, actor: string): Promise<void> {
    for (const tenantId of account.tenantIds) {
      const users = usersOf(deps, tenantId, actor);
      await users.updateOne({ accountId: account._id }, { $set: { failedCount: 0, lockedUntil: null } });
      await users.updateOne({ accountId: account._id, state: 'locked' }, { $set: { state: 'enabled' } });
    }
    await accountsOf(deps, actor).updateOne(
      { _id: account._id },
      { $set: { failedCount: 0, lockedUntil: null } },
    );
  }

  router.route<{ account: string }>(
    {
      method: 'post',
      path: '/operator/accounts/reset-password',
      summary:
        'Reset a tenant account’s password platform-wide (every tenant of it in the caller’s jurisdiction): every session ends; answers a single-use link path',
      permission: 'holoxcontrol:lessee:edit',
      body: accountBody,
    },
    async (c, { body }) => {
      const actor = requirePrincipal(c).userId;
      const account = await tenantAccount(actor, body.account);
      // The link follows the password policy of the tenant the account uses last.
      const tenantId = account.lastTenantId ?? account.tenantIds[0];
      if (!tenantId) throw errors.badRequest('auth.noTenant');
      await unlockEverywhere(account, actor);
      await accountsOf(deps, actor).updateOne({ _id: account._id }, { $set: { passwordHash: null } });
      await endSessions(deps, { accountId: account._id }, 'forced');
      const link = await issueLink(deps, { accountId: account._id, tenantId, purpose: 'reset' }, actor);
      return { resetPath: link.path, expiresAt: link.expiresAt };
    },
  );

  router.route<{ account: string }>(
    {
      method: 'post',
      path: '/operator/accounts/unlock',
      summary: 'Unlock a tenant account in every tenant it belongs to (within the caller’s jurisdiction)',
      permission: 'holoxcontrol:lessee:edit',
      body: accountBody,
    },
    async (c, { body }) => {
      const actor = requirePrincipal(c).userId;
      await unlockEverywhere(await tenantAccount(actor, body.account), actor);
      return null;
    },
  );
}
