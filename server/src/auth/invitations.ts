/**
 * Invitations: a tenant administrator who names an account that already exists (another tenant's
 * person) never attaches it. The tenant gets a user record in state `invited`, which does nothing
 * (the account's `tenantIds` does not list the tenant, so it cannot be entered), and the platform
 * keeps an invitation the account holder sees once signed in, and accepts or declines.
 */
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import { requirePrincipal } from '../http';
import { errors } from '../http';
import type { StoredDoc } from '../store';
import { assertTenantUsable, getTenant } from './providers';
import { accountsOf, findAccount, userDocId, usersOf } from './accounts';
import { C } from './collections';
import type { Account, User, UserState } from './model';

export interface Invitation {
  accountId: string;
  invitedTenantId: string;
  invitedBy: string;
  invitedByName: string;
  invitedAt: string;
}

export const invitationsOf = (deps: Pick<ModuleDeps, 'store'>, actor = 'system:auth') =>
  deps.store.platform({ userId: actor }).collection<Invitation>(C.invitations);

/** The state a membership takes when it becomes (or is again) usable: invited until accepted. */
export function memberState(account: Account | null, tenantId: string): UserState {
  if (!account || !account.tenantIds.includes(tenantId)) return 'invited';
  return account.passwordHash ? 'enabled' : 'inactive';
}

/** Records the invitation of `accountId` to `tenantId` (its user record is written by the caller). */
export async function invite(
  deps: ModuleDeps,
  input: { accountId: string; tenantId: string; invitedBy: string; invitedByName: string },
): Promise<void> {
  const invitations = invitationsOf(deps, input.invitedBy);
  const _id = userDocId(input.tenantId, input.accountId);
  const fields = {
    accountId: input.accountId,
    invitedTenantId: input.tenantId,
    invitedBy: input.invitedBy,
    invitedByName: input.invitedByName,
    invitedAt: deps.clock.now().toISOString(),
  };
  if (!(await invitations.updateOne({ _id }, { $set: fields })))
    await invitations.insertOne({ _id, ...fields });
}

/** The invitation's membership when it can still be accepted (not withdrawn, deleted or disabled). */
async function openMembership(
  deps: ModuleDeps,
  invitation: StoredDoc<Invitation>,
): Promise<StoredDoc<User> | null> {
  const user = await usersOf(deps, invitation.invitedTenantId).findOne({
    _id: userDocId(invitation.invitedTenantId, invitation.accountId),
  });
  return user && user.state === 'invited' && !user.deleted ? user : null;
}

export function invitationRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  const invitationParams = {
    type: 'object',
    properties: { invitationId: { type: 'string', maxLength: 200 } },
  };

  router.route(
    {
      method: 'get',
      path: '/invitations',
      summary: 'Invitations of the caller’s account to other tenants, waiting for acceptance',
    },
    async (c) => {
      const principal = requirePrincipal(c);
      const items = [];
      for (const invitation of await invitationsOf(deps).find(
        { accountId: principal.userId },
        { sort: { invitedAt: -1 } },
      )) {
        const tenant = await getTenant(deps.store, invitation.invitedTenantId);
        if (!tenant || tenant.status !== 'active' || !(await openMembership(deps, invitation))) continue;
        items.push({
          invitationId: invitation._id,
          tenantId: invitation.invitedTenantId,
          tenantName: tenant.name,
          tenantNameEn: tenant.nameEn ?? null,
          invitedByName: invitation.invitedByName,
          invitedAt: invitation.invitedAt,
        });
      }
      return items;
    },
  );

  /** The caller's own invitation, or 404 (someone else's is not told apart from none). */
  async function ownInvitation(accountId: string, invitationId: string) {
    const invitation = await invitationsOf(deps).findOne({ _id: invitationId, accountId });
    if (!invitation) throw errors.notFound('auth.invitationUnknown');
    return invitation;
  }

  router.route<unknown, unknown, { invitationId: string }>(
    {
      method: 'post',
      path: '/invitations/:invitationId/accept',
      summary: 'Accept an invitation: the account becomes a member of that tenant (switch to enter it)',
      params: invitationParams,
    },
    async (c, { params }) => {
      const principal = requirePrincipal(c);
      if (principal.operator) throw errors.forbidden();
      const invitation = await ownInvitation(principal.userId, params.invitationId);
      const user = await openMembership(deps, invitation);
      if (!user) throw errors.badRequest('auth.invitationWithdrawn');
      const tenantId = invitation.invitedTenantId;
      assertTenantUsable(await getTenant(deps.store, tenantId), deps.clock.now());
      const account = await accountsOf(deps, principal.userId).updateOne(
        { _id: principal.userId },
        { $addToSet: { tenantIds: tenantId } },
      );
      await usersOf(deps, tenantId, principal.userId).updateOne(
        { _id: user._id, state: 'invited' },
        { $set: { state: memberState(account, tenantId) } },
      );
      await invitationsOf(deps, principal.userId).deleteOne({ _id: invitation._id });
      // Shared from now on: a reset or activation link some tenant administrator still holds
      // would act on the whole account, so every open one stops working.
      await deps.store
        .platform({ userId: principal.userId })
        .collection(C.links)
        .updateMany(
          { accountId: principal.userId, usedAt: null },
          { $set: { usedAt: deps.clock.now().toISOString() } },
        );
      return { tenantId };
    },
  );

  router.route<unknown, unknown, { invitationId: string }>(
    {
      method: 'post',
      path: '/invitations/:invitationId/decline',
      summary: 'Decline an invitation: the inviting tenant’s pending user record is removed',
      params: invitationParams,
    },
    async (c, { params }) => {
      const principal = requirePrincipal(c);
      const invitation = await ownInvitation(principal.userId, params.invitationId);
      const account = await findAccount(deps, principal.userId);
      // Never remove a membership that was accepted in the meantime.
      if (!account?.tenantIds.includes(invitation.invitedTenantId)) {
        await usersOf(deps, invitation.invitedTenantId, principal.userId).deleteOne({
          _id: userDocId(invitation.invitedTenantId, invitation.accountId),
          state: 'invited',
        });
      }
      await invitationsOf(deps, principal.userId).deleteOne({ _id: invitation._id });
      return null;
    },
  );
}
