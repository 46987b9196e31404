/**
 * The events other modules emit, one call each from where the event happens (after its write):
 * a case handed to a user at a workflow node (cases), and an activation or password-reset link
 * issued by a tenant administrator (users).
 */
import type { WorkflowDefinition } from '@pv/engine';
import type { WorkflowHistoryEntry } from '../workflow';
import { messageTime } from './events';
import type { Caller } from '../http';
import { ACCOUNT_LINK_PLACEHOLDER, deliverQuietly } from './delivery';

/**
 * Links in messages are absolute, on the configured public URL (PV_PUBLIC_URL): never the request's
 * Host header, which the caller chooses.
 */
function origin(caller: Caller): string {
  return caller.deps.config.publicUrl;
}

/**
 * A case was handed to a user (submitted, sent back, challenged, plan created or reviewed): the
 * next handler of the workflow-history line gets a message, unless they handed it to themselves.
 */
export async function notifyCaseHandedOver(
  caller: Caller,
  entry: WorkflowHistoryEntry,
  workflow: WorkflowDefinition,
): Promise<string | null> {
  const recipientId = entry.nextProcesserId;
  if (!recipientId || recipientId === entry.processerId) return null;
  const principal = caller.principal;
  const path = `/activecase?caseId=${encodeURIComponent(entry.caseId)}`;
  const label = (text: { zh: string; en: string } | undefined, fallback: string, lang: 'zh' | 'en') =>
    text?.[lang] ?? fallback;
  return deliverQuietly(caller.deps, {
    tenantId: principal.tenantId,
    event: 'case.assigned',
    recipientId,
    actor: principal.userId,
    link: path,
    variables: (lang) => ({
      recipientName: entry.nextProcesserName ?? recipientId,
      senderName: entry.processerName,
      reportCode: entry.reportCode,
      actionLabel: label(workflow.actions[entry.action]?.label, entry.action, lang),
      fromNodeLabel: label(workflow.nodes[entry.node]?.label, entry.node, lang),
      nodeLabel: label(workflow.nodes[entry.nextNode]?.label, entry.nextNode, lang),
      opinion: entry.opinion ?? '',
      at: messageTime(entry.at),
      link: `${origin(caller)}${path}`,
    }),
  });
}

/**
 * An activation or reset link was issued for a user. The user cannot sign in before using it, so
 * the administrator who issued it receives the message to pass on (there is no mail server).
 */
export async function notifyAccountLink(
  caller: Caller,
  event: 'account.activation' | 'account.passwordReset',
  user: { name: string; account: string },
  link: { linkId: string; expiresAt: string },
): Promise<string | null> {
  const principal = caller.principal;
  return deliverQuietly(caller.deps, {
    tenantId: principal.tenantId,
    event,
    recipientId: principal.userId,
    actor: principal.userId,
    // The stored body holds a placeholder; the link, with a fresh token, is put in when it is read.
    accountLinkId: link.linkId,
    variables: () => ({
      userName: user.name,
      account: user.account,
      issuerName: typeof principal.name === 'string' && principal.name ? principal.name : principal.userId,
      link: ACCOUNT_LINK_PLACEHOLDER,
      expiresAt: messageTime(link.expiresAt),
    }),
  });
}
