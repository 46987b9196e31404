/**
 * Delivery of event messages into the recipient's in-app messages (there is no mail server): the
 * event's template in force (platform, enabled, not deleted) rendered in the recipient's language
 * (the language they last read their messages in; Chinese until then).
 */
import { describeError } from '../http';
import type { ModuleDeps } from '../http';
import type { Lang } from '../i18n';
import type { CollectionDefinition } from '../store';
import { InvalidStoreRequestError } from '../store';
import type { MessageEvent, MessageVariables } from './events';
import type { MessageTemplate } from './templates';
import { renderMessage } from './templates';

export const MESSAGES = {
  templates: 'messageTemplates',
  messages: 'messages',
  readers: 'messageReaders',
} as const;

export const messagesCollections: CollectionDefinition[] = [
  {
    name: MESSAGES.templates,
    scope: 'platform',
    audited: true,
    indexes: [{ fields: { deleted: 1, event: 1 } }, { fields: { deleted: 1, updatedAt: 1 } }],
  },
  {
    name: MESSAGES.messages,
    scope: 'tenant',
    indexes: [{ fields: { recipientId: 1, createdAt: -1 } }, { fields: { recipientId: 1, readAt: 1 } }],
  },
  {
    name: MESSAGES.readers,
    scope: 'tenant',
    indexes: [{ fields: { userId: 1 }, unique: true }],
  },
];

/** One in-app message of a user (tenant-scoped). */
export interface Message {
  recipientId: string;
  event: MessageEvent;
  templateId: string;
  /** The template revision rendered. */
  templateRev: number;
  lang: Lang;
  subject: string;
  body: string;
  /** An app route the message is about (a case), when there is one. */
  link: string | null;
  /**
   * The activation or reset link the body shows: the body keeps ACCOUNT_LINK_PLACEHOLDER and a
   * fresh token is put in when the message is read (auth/links showLink), so no usable token is stored.
   */
  accountLinkId?: string | null;
  readAt: string | null;
}

/** Stands for an account link in a stored message body (no token is ever stored in a message). */
export const ACCOUNT_LINK_PLACEHOLDER = '[[pv:account-link]]';

export interface MessageReader {
  userId: string;
  lang: Lang;
}

export interface Delivery {
  tenantId: string;
  event: MessageEvent;
  recipientId: string;
  /** The event's variables in the recipient's language. */
  variables: (lang: Lang) => MessageVariables;
  link?: string | null;
  /** The account link the body's ACCOUNT_LINK_PLACEHOLDER stands for. */
  accountLinkId?: string;
  /** Who caused the event (audit trail). */
  actor: string;
}

/** The template the event sends, or null when the operator disabled or deleted it. */
export async function templateInForce(deps: ModuleDeps, event: MessageEvent, actor: string) {
  try {
    return await deps.store
      .platform({ userId: actor })
      .collection<MessageTemplate>(MESSAGES.templates)
      .findOne({ event, status: 'enabled', deleted: { $ne: true } });
  } catch (error) {
    // A server run without this module (some module tests) has no templates: nothing to send.
    if (error instanceof InvalidStoreRequestError) return null;
    throw error;
  }
}

export async function readerLang(deps: ModuleDeps, tenantId: string, userId: string): Promise<Lang> {
  const reader = await deps.store
    .tenant(tenantId, { userId })
    .collection<MessageReader>(MESSAGES.readers)
    .findOne({ userId });
  return reader?.lang ?? 'zh';
}

/**
 * Renders the event's template for the recipient and files it in their messages. Answers the
 * message id, or null when the event has no template in force.
 */
export async function deliver(deps: ModuleDeps, delivery: Delivery): Promise<string | null> {
  const template = await templateInForce(deps, delivery.event, delivery.actor);
  if (!template) return null;
  const lang = await readerLang(deps, delivery.tenantId, delivery.recipientId);
  const rendered = renderMessage(template, lang, delivery.variables(lang));
  const message = await deps.store
    .tenant(delivery.tenantId, { userId: delivery.actor })
    .collection<Message>(MESSAGES.messages)
    .insertOne({
      recipientId: delivery.recipientId,
      event: delivery.event,
      templateId: template._id,
      templateRev: template.rev,
      lang,
      ...rendered,
      link: delivery.link ?? null,
      ...(delivery.accountLinkId ? { accountLinkId: delivery.accountLinkId } : {}),
      readAt: null,
    });
  return message._id;
}

/**
 * Delivers after the event's own write has committed: a message that cannot be rendered or filed
 * is logged and never undoes or fails the action that caused it.
 */
export async function deliverQuietly(deps: ModuleDeps, delivery: Delivery): Promise<string | null> {
  try {
    return await deliver(deps, delivery);
  } catch (error) {
    deps.log({
      level: 'error',
      msg: 'message delivery failed',
      event: delivery.event,
      error: describeError(error),
    });
    return null;
  }
}
