/**
 * Activation and password-reset links: a random token in the link, only its sha256 stored,
 * single use, with an expiry. A used, expired or unknown link answers "Your current link is
 * invalid." (您的链接已失效).
 */
import type { ModuleDeps } from '../http/module';
import { AppError } from '../http/errors';
import { Code } from '../http/envelope';
import type { StoredDoc } from '../store/port';
import { C } from './collections';
import { digestsEqual, randomToken, sha256Hex } from './crypto';

export type LinkPurpose = 'activate' | 'reset';

export interface AccountLink {
  tokenHash: string;
  accountId: string;
  linkTenantId: string;
  purpose: LinkPurpose;
  expiresAt: string;
  usedAt: string | null;
}

export const LINK_HOURS: Record<LinkPurpose, number> = { activate: 72, reset: 24 };

const linksOf = (deps: ModuleDeps, actor: string) =>
  deps.store.platform({ userId: actor }).collection<AccountLink>(C.links);

/** Issues a link; earlier unused links of the account for the same purpose stop working. */
export async function issueLink(
  deps: ModuleDeps,
  input: { accountId: string; tenantId: string; purpose: LinkPurpose },
  actor: string,
): Promise<{ path: string; expiresAt: string }> {
  const now = deps.clock.now();
  const links = linksOf(deps, actor);
  await links.updateMany(
    { accountId: input.accountId, purpose: input.purpose, usedAt: null },
    { $set: { usedAt: now.toISOString() } },
  );
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + LINK_HOURS[input.purpose] * 3600_000).toISOString();
  await links.insertOne({
    accountId: input.accountId,
    linkTenantId: input.tenantId,
    purpose: input.purpose,
    tokenHash: sha256Hex(token),
    expiresAt,
    usedAt: null,
  });
  return { path: `/userActive?token=${token}`, expiresAt };
}

export const linkInvalid = () =>
  new AppError(Code.badRequest, 'auth.linkInvalid', {}, 400, { data: { linkInvalid: true } });

/** The live link of a token, or the link-invalid error. */
export async function findLiveLink(
  deps: ModuleDeps,
  token: string | undefined,
): Promise<StoredDoc<AccountLink>> {
  if (!token || token.length > 256) throw linkInvalid();
  const hash = sha256Hex(token);
  const link = await linksOf(deps, 'system:auth').findOne({ tokenHash: hash });
  if (!link || !digestsEqual(link.tokenHash, hash)) throw linkInvalid();
  if (link.usedAt || link.expiresAt <= deps.clock.now().toISOString()) throw linkInvalid();
  return link;
}

/** Marks the link used; false when another request used it first. */
export async function useLink(deps: ModuleDeps, link: StoredDoc<AccountLink>): Promise<boolean> {
  const used = await linksOf(deps, link.accountId).updateOne(
    { _id: link._id, usedAt: null },
    { $set: { usedAt: deps.clock.now().toISOString() } },
  );
  return used !== null;
}
