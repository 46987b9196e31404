/**
 * Receivers (SPEC 3, /authoritymanagement/receiverSetting): who an E2B file is addressed to. Each
 * carries the batch receiver N.1.4, the message receiver N.2.r.3, our sender identifier N.1.3 /
 * N.2.r.2, the regional profile and the E2B format; an export copies them onto its record, so a
 * later edit of the receiver never changes what the history says was sent.
 */
import { EXPORT_FORMATS, r3Profiles, RECEIVER_PROFILES, receiverAuthority } from '@pv/engine';
import type { Authority, ExportFormat, ReceiverProfile } from '@pv/engine';
import { tenantHandle } from '../http';
import { errors } from '../http';
import type { ModuleRouter } from '../http';
import { entityRoutes } from '../entities';
import type { Handle, StoredDoc } from '../store';

export const RECEIVERS = 'receivers';
// Declared by the engine, which the web reads too.
export const PROFILES = RECEIVER_PROFILES;
export const FORMATS = EXPORT_FORMATS;
export type { ExportFormat, ReceiverProfile };

export interface Receiver {
  name: string;
  /** N.1.4 batch receiver identifier. */
  receiverIdentifier: string;
  /** N.2.r.3 message receiver identifier; the profile's default (or N.1.4) when empty. */
  messageReceiverIdentifier?: string | null;
  /** N.1.3 batch sender identifier, also N.2.r.2. */
  senderIdentifier: string;
  profile: ReceiverProfile;
  /** Whose reporting rules (schemas/rules/reporting) decide what this receiver gets; empty: the profile's. */
  authority?: Authority | null;
  format: ExportFormat;
  /** The largest E2B file the receiver takes, in MB: bulk reporting splits a batch at it (empty: 20 MB). */
  maxFileMb?: number | null;
  active: boolean;
  remark?: string | null;
}

export type ReceiverInput = Omit<Receiver, 'active'> & { active?: boolean };

export function receiverView(r: StoredDoc<Receiver>) {
  return {
    receiverId: r._id,
    name: r.name,
    receiverIdentifier: r.receiverIdentifier,
    messageReceiverIdentifier: r.messageReceiverIdentifier ?? null,
    senderIdentifier: r.senderIdentifier,
    profile: r.profile,
    authority: receiverAuthority(r),
    format: r.format,
    maxFileMb: r.maxFileMb ?? null,
    active: r.active,
    remark: r.remark ?? null,
    updatedAt: r.updatedAt,
    rev: r.rev,
  };
}
export type ReceiverView = ReturnType<typeof receiverView>;

/** The checks a schema cannot say with a translated message: empty identifiers, the profile's receivers, one name. */
async function checkReceiver(handle: Handle, input: ReceiverInput, selfId?: string): Promise<Receiver> {
  const name = input.name.trim();
  const receiverIdentifier = input.receiverIdentifier.trim();
  const senderIdentifier = input.senderIdentifier.trim();
  const messageReceiverIdentifier = input.messageReceiverIdentifier?.trim() || null;
  if (!name) throw errors.badRequest('exports.receiverNameRequired');
  if (!receiverIdentifier) throw errors.badRequest('exports.receiverIdentifierRequired');
  if (!senderIdentifier) throw errors.badRequest('exports.senderIdentifierRequired');
  const profile = r3Profiles()[input.profile];
  if (!profile) throw errors.badRequest('exports.unknownProfile', { profile: input.profile });
  if (profile.batchReceivers && !profile.batchReceivers.includes(receiverIdentifier))
    throw errors.badRequest('exports.receiverNotInProfile', {
      value: receiverIdentifier,
      profile: profile.label,
      allowed: profile.batchReceivers.join(', '),
    });
  if (
    messageReceiverIdentifier &&
    profile.messageReceivers &&
    !profile.messageReceivers.includes(messageReceiverIdentifier)
  )
    throw errors.badRequest('exports.messageReceiverNotInProfile', {
      value: messageReceiverIdentifier,
      profile: profile.label,
      allowed: profile.messageReceivers.join(', '),
    });
  const same = await handle.collection<Receiver>(RECEIVERS).findOne({ name });
  if (same && same._id !== selfId) throw errors.badRequest('exports.receiverNameTaken', { name });
  return {
    name,
    receiverIdentifier,
    messageReceiverIdentifier,
    senderIdentifier,
    profile: input.profile,
    authority: input.authority ?? null,
    format: input.format,
    maxFileMb: input.maxFileMb ?? null,
    active: input.active ?? true,
    remark: input.remark?.trim() || null,
  };
}

export async function loadReceiver(handle: Handle, receiverId: string): Promise<StoredDoc<Receiver>> {
  const found = await handle.collection<Receiver>(RECEIVERS).findOne({ _id: receiverId });
  if (!found) throw errors.notFound('exports.receiverNotFound', { id: receiverId });
  return found;
}

export function receiverRoutes(router: ModuleRouter): void {
  router.route<unknown, { active?: boolean }>(
    {
      method: 'get',
      path: '/receivers',
      summary: 'Receivers of the tenant (active=true: only those an export may choose)',
      permission: 'authoritymanagement:receiverSetting',
      query: { type: 'object', properties: { active: { type: 'boolean' } } },
    },
    async (c, { query }) => listReceivers(tenantHandle(c), query.active),
  );

  // The export dialog lists the active receivers; a user who may export need not administer them.
  router.route(
    {
      method: 'get',
      path: '/receivers/active',
      summary: 'Active receivers, for choosing one in the export dialog',
      permission: 'activecase:export',
    },
    async (c) => listReceivers(tenantHandle(c), true),
  );

  // Add, edit and delete are the generic entity CRUD over schemas/entities/receiver.json (the
  // receiver form renders the same declaration): the body is the entity's; the profile's receivers
  // and one name per tenant are the hook. Deletion removes the receiver: export records keep its
  // name and identifiers.
  entityRoutes<Receiver>(router, {
    path: '/receivers',
    collection: RECEIVERS,
    scope: 'tenant',
    entity: 'receiver',
    permission: 'authoritymanagement:receiverSetting',
    operations: ['create', 'update', 'delete'],
    summaries: {
      create: 'Add a receiver',
      update: 'Edit a receiver (records of past exports keep the values they were sent with)',
      delete: 'Delete a receiver (export records keep its name and identifiers)',
    },
    idParam: 'receiverId',
    notFound: 'exports.receiverNotFound',
    deletion: 'hard',
    prepare: (input, { handle, id }) => checkReceiver(handle, input, id),
    view: receiverView,
  });
}

async function listReceivers(handle: Handle, active?: boolean): Promise<ReceiverView[]> {
  const found = await handle
    .collection<Receiver>(RECEIVERS)
    .find(active === undefined ? {} : { active }, { sort: { name: 1 }, limit: 1000 });
  return found.map(receiverView);
}
