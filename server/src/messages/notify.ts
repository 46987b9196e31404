/**
 * The events other modules emit, one call each from where the event happens (after its write):
 * a case handed to a user at a workflow node (cases), and an activation or password-reset link
 * issued by a tenant administrator (users).
 */
import type { WorkflowDefinition } from '@pv/engine';
import type { WorkflowHistoryEntry } from '../workflow';
import { messageTime } from './events';
import type { Caller, ModuleDeps } from '../http';
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

/** A data query's event, as the queries module reports it (after its write). */
export interface QueryNotice {
  event: 'query.raised' | 'query.replied' | 'query.reraised' | 'query.overdue';
  tenantId: string;
  /** Who acted (the system for an overdue notice). */
  actor: string;
  recipientId: string;
  recipientName: string;
  senderName: string;
  number: string;
  reportCode: string;
  caseId: string;
  /** The queried fields as the reader reads them, per language. */
  fields: Record<'zh' | 'en', string>;
  /** The question or the reply. */
  text: string;
  timeLimit: string;
  at: string;
}

/**
 * A query was raised or raised again (its handler is told), answered (its initiator is told), or
 * passed its time limit unanswered (its handler is told). Nobody is told of their own move.
 */
export async function notifyQuery(deps: ModuleDeps, notice: QueryNotice): Promise<string | null> {
  if (notice.recipientId === notice.actor) return null;
  const path = `/activecase?caseId=${encodeURIComponent(notice.caseId)}`;
  return deliverQuietly(deps, {
    tenantId: notice.tenantId,
    event: notice.event,
    recipientId: notice.recipientId,
    actor: notice.actor,
    link: path,
    variables: (lang) => ({
      recipientName: notice.recipientName,
      senderName: notice.senderName,
      number: notice.number,
      reportCode: notice.reportCode,
      fields: notice.fields[lang],
      text: notice.text,
      timeLimit: notice.timeLimit,
      at: messageTime(notice.at),
      link: `${deps.config.publicUrl}${path}`,
    }),
  });
}
