/**
 * Activation and password-reset links: a random token in the link, only its sha256 stored,
 * single use, with an expiry. The page exchanges the token on arrival for a code held in memory
 * (exchangeLink) and removes it from its address; messages show a fresh token per reading
 * (showLink) and never store one. A used, expired or unknown link answers "Your current link is
 * invalid." (您的链接已失效).
 */
import type { ModuleDeps } from '../http';
import { AppError } from '../http';
import { Code } from '../http';
import type { StoredDoc } from '../store';
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
): Promise<{ path: string; expiresAt: string; linkId: string }> {
  const now = deps.clock.now();
  const links = linksOf(deps, actor);
  await links.updateMany(
    { accountId: input.accountId, purpose: input.purpose, usedAt: null },
    { $set: { usedAt: now.toISOString() } },
  );
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + LINK_HOURS[input.purpose] * 3600_000).toISOString();
  const link = await links.insertOne({
    accountId: input.accountId,
    linkTenantId: input.tenantId,
    purpose: input.purpose,
    tokenHash: sha256Hex(token),
    expiresAt,
    usedAt: null,
  });
  return { path: linkPath(token), expiresAt, linkId: link._id };
}

export const linkPath = (token: string) => `/userActive?token=${token}`;

/** How long the code a link is exchanged for stays usable: one sitting at the password form. */
export const EXCHANGE_MINUTES = 30;

/**
 * Exchanges a link's token, as it arrived in the page address, for a fresh code the page keeps in
 * memory: the token in the address (in history, in a Referer) stops working at once. The code is
 * stored hashed in the link's place and expires after EXCHANGE_MINUTES (or the link's own expiry).
 */
export async function exchangeLink(
  deps: ModuleDeps,
  token: string | undefined,
): Promise<{ code: string; link: StoredDoc<AccountLink> }> {
  const link = await findLiveLink(deps, token);
  const code = randomToken(32);
  const soon = new Date(deps.clock.now().getTime() + EXCHANGE_MINUTES * 60_000).toISOString();
  const exchanged = await linksOf(deps, link.accountId).updateOne(
    { _id: link._id, tokenHash: link.tokenHash, usedAt: null },
    { $set: { tokenHash: sha256Hex(code), expiresAt: soon < link.expiresAt ? soon : link.expiresAt } },
  );
  // Another request exchanged or used it first: the token was single use.
  if (!exchanged) throw linkInvalid();
  return { code, link: exchanged };
}

/**
 * A fresh token for a live link, to show in a message when it is read: messages never store a
 * usable token (their body keeps a placeholder), and each showing adds a token of its own to the
 * same link; using any of them retires them all (useLink). Null when the link is used or expired.
 */
export async function showLink(deps: ModuleDeps, linkId: string, actor: string): Promise<string | null> {
  const links = linksOf(deps, actor);
  const link = await links.findOne({ _id: linkId });
  if (!link || link.usedAt || link.expiresAt <= deps.clock.now().toISOString()) return null;
  const token = randomToken(32);
  await links.insertOne({
    accountId: link.accountId,
    linkTenantId: link.linkTenantId,
    purpose: link.purpose,
    tokenHash: sha256Hex(token),
    expiresAt: link.expiresAt,
    usedAt: null,
  });
  return token;
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
  const links = linksOf(deps, link.accountId);
  const now = deps.clock.now().toISOString();
  const used = await links.updateOne({ _id: link._id, usedAt: null }, { $set: { usedAt: now } });
  if (used === null) return false;
  // The tokens shown in messages for the same link (showLink) die with it.
  await links.updateMany(
    { accountId: link.accountId, purpose: link.purpose, usedAt: null },
    { $set: { usedAt: now } },
  );
  return true;
}
