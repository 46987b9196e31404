/**
 * Messages: the platform operator's message templates (/holoxcontrol/messageTemplate), one per
 * event the platform emits, and each user's in-app messages rendered from them (shown in the
 * personal menu's notices). See README.md.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { notifyAccountLink, notifyCaseHandedOver, notifyQuery } from './notify';
export type { QueryNotice } from './notify';
export { deliver, messagesCollections, MESSAGES } from './delivery';
export type { Message } from './delivery';
export { MESSAGE_EVENTS, EVENT_VARIABLES } from './events';
export type { MessageEvent } from './events';

import { pageOptions, pageQuery } from '../http';
import type { PageQuery } from '../http';
import { entityRoutes } from '../entities';
import type { Caller } from '../http';
import { callerOf } from '../http';
import { errors } from '../http';
import { defineModule } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter } from '../http';
import { LANGS } from '../i18n';
import type { Lang } from '../i18n';
import type { Message, MessageReader } from './delivery';
import { ACCOUNT_LINK_PLACEHOLDER, MESSAGES, messagesCollections } from './delivery';
import { linkPath, showLink } from '../auth';
import type { MessageEvent } from './events';
import { EVENT_SAMPLES, EVENT_VARIABLES, MESSAGE_EVENTS, defaultText } from './events';
import type { MessageTemplate, TemplateField } from './templates';
import { TEMPLATE_FIELDS, assertTemplate, renderMessage } from './templates';

const PERMISSION = 'holoxcontrol:messageTemplate';
const textSchema = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });

/** The bundled default template of each event (templates/messages). */
export function defaultTemplate(event: MessageEvent): MessageTemplate {
  const zh = defaultText(event, 'zh');
  const en = defaultText(event, 'en');
  return {
    event,
    status: 'enabled',
    subjectZh: zh.subject,
    bodyZh: zh.body,
    subjectEn: en.subject,
    bodyEn: en.body,
  };
}

/** Seeds the default template of every event that has none yet (a deleted one counts: the operator chose). */
async function seed(deps: ModuleDeps): Promise<void> {
  const templates = deps.store
    .platform({ userId: 'system:seed' })
    .collection<MessageTemplate>(MESSAGES.templates);
  for (const event of MESSAGE_EVENTS) {
    if (await templates.count({ event })) continue;
    const template = defaultTemplate(event);
    assertTemplate(event, template);
    await templates.insertOne(template);
  }
}

const myMessages = (caller: Caller) => caller.tenant.collection<Message>(MESSAGES.messages);

/** Keeps the language the caller reads in: their messages are rendered in it from then on. */
async function rememberLang(caller: Caller): Promise<void> {
  const { userId, lang } = caller;
  const readers = caller.tenant.collection<MessageReader>(MESSAGES.readers);
  const current = await readers.findOne({ userId });
  if (!current) await readers.insertOne({ userId, lang });
  else if (current.lang !== lang) await readers.updateOne({ _id: current._id }, { $set: { lang } });
}

/**
 * The body as the reader sees it: an account link's placeholder becomes the link with a fresh
 * token (on the public URL) while the link is live, or says the link is no longer valid.
 */
async function shownBody(caller: Caller, message: Message): Promise<string> {
  if (!message.accountLinkId || !message.body.includes(ACCOUNT_LINK_PLACEHOLDER)) return message.body;
  const deps = caller.deps;
  const token = await showLink(deps, message.accountLinkId, caller.userId);
  const text = token
    ? `${deps.config.publicUrl}${linkPath(token)}`
    : deps.translator.t(message.lang, 'messages.linkNoLongerValid');
  return message.body.split(ACCOUNT_LINK_PLACEHOLDER).join(text);
}

async function messageView(caller: Caller, message: Message & { _id: string; createdAt: string }) {
  return {
    id: message._id,
    event: message.event,
    subject: message.subject,
    body: await shownBody(caller, message),
    link: message.link,
    lang: message.lang,
    readAt: message.readAt,
    createdAt: message.createdAt,
  };
}

function routes(router: ModuleRouter, deps: ModuleDeps): void {
  entityRoutes<MessageTemplate>(router, {
    path: '/operator/message-templates',
    collection: MESSAGES.templates,
    scope: 'platform',
    entity: 'message-template',
    permission: PERMISSION,
    sort: { event: 1 },
    sortable: ['event', 'updatedAt'],
    exact: ['event', 'status'],
    keywordFields: ['subjectZh', 'subjectEn', 'bodyZh', 'bodyEn'],
    notFound: 'messages.templateNotFound',
    unique: { fields: ['event'], message: 'messages.templateTaken' },
    async check(input, handle, id) {
      // A template belongs to its event: moving it would leave that event without one.
      if (id) {
        const stored = await handle.collection<MessageTemplate>(MESSAGES.templates).findOne({ _id: id });
        if (stored && stored.event !== input.event)
          throw errors.badRequest('messages.eventFixed', { event: stored.event });
      }
      assertTemplate(input.event, input);
    },
  });

  router.route(
    {
      method: 'get',
      path: '/operator/message-events',
      summary:
        'The events that send messages: their labels, the variables a template may use, and sample values',
      permission: PERMISSION,
    },
    () =>
      MESSAGE_EVENTS.map((event) => ({
        event,
        labelZh: deps.translator.t('zh', `messages.event.${event}`),
        labelEn: deps.translator.t('en', `messages.event.${event}`),
        variables: EVENT_VARIABLES[event].map((name) => ({
          name,
          labelZh: deps.translator.t('zh', `messages.variable.${name}`),
          labelEn: deps.translator.t('en', `messages.variable.${name}`),
        })),
        sample: EVENT_SAMPLES[event],
      })),
  );

  router.route<{ event: MessageEvent } & Record<TemplateField, string>>(
    {
      method: 'post',
      path: '/operator/message-templates/preview',
      summary:
        'Checks a template (refused with the field, line and reason) and renders it in zh and en with the sample variables of its event',
      permission: PERMISSION,
      body: {
        type: 'object',
        required: ['event', ...TEMPLATE_FIELDS],
        additionalProperties: false,
        properties: {
          event: { type: 'string', enum: [...MESSAGE_EVENTS] },
          // The edit form sends the whole entry; the preview ignores the status.
          status: { type: 'string', enum: ['enabled', 'disabled'] },
          subjectZh: textSchema(200),
          bodyZh: textSchema(5000),
          subjectEn: textSchema(200),
          bodyEn: textSchema(5000),
        },
      },
    },
    (_c, { body }) => {
      assertTemplate(body.event, body);
      const rendered = (lang: Lang) => renderMessage(body, lang, EVENT_SAMPLES[body.event][lang]);
      return Object.fromEntries(LANGS.map((lang) => [lang, rendered(lang)])) as Record<
        Lang,
        ReturnType<typeof rendered>
      >;
    },
  );

  router.route<unknown, PageQuery & { unread?: boolean }>(
    {
      method: 'get',
      path: '/messages',
      summary:
        "The caller's in-app messages, newest first, with the unread count; remembers the request's language for the next ones",
      query: {
        type: 'object',
        additionalProperties: false,
        properties: { ...pageQuery, unread: { type: 'boolean' } },
      },
    },
    async (c, { query }) => {
      const caller = callerOf(c);
      const { userId } = caller;
      await rememberLang(caller);
      const mine = { recipientId: userId };
      const filter = query.unread ? { ...mine, readAt: null } : mine;
      const docs = myMessages(caller);
      const items = await docs.find(filter, { sort: { createdAt: -1 }, ...pageOptions(query) });
      return {
        total: await docs.count(filter),
        unread: await docs.count({ ...mine, readAt: null }),
        items: await Promise.all(items.map((message) => messageView(caller, message))),
      };
    },
  );

  router.route<unknown, unknown, { id: string }>(
    {
      method: 'post',
      path: '/messages/:id/read',
      summary: 'Marks one of the caller’s messages read',
      params: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
      },
    },
    async (c, { params }) => {
      const caller = callerOf(c);
      const { userId } = caller;
      const docs = myMessages(caller);
      const message = await docs.findOne({ _id: params.id, recipientId: userId });
      if (!message) throw errors.notFound('messages.messageNotFound');
      if (message.readAt) return messageView(caller, message);
      const now = caller.clock.now().toISOString();
      return messageView(caller, (await docs.updateOne({ _id: message._id }, { $set: { readAt: now } }))!);
    },
  );

  router.route(
    {
      method: 'post',
      path: '/messages/read-all',
      summary: 'Marks all the caller’s messages read',
    },
    async (c) => {
      const caller = callerOf(c);
      const { userId } = caller;
      const now = caller.clock.now().toISOString();
      return {
        read: await myMessages(caller).updateMany(
          { recipientId: userId, readAt: null },
          { $set: { readAt: now } },
        ),
      };
    },
  );
}

export const messagesModule = defineModule({
  name: 'messages',
  dependsOn: ['auth', 'configurator', 'workflow'],
  prefix: '',
  collections: messagesCollections,
  routes,
  seed,
});
