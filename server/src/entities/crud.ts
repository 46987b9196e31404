/**
 * Generic CRUD of an admin or master-data entity from its schema (DESIGN section 5): one
 * declaration gives a paged list with keyword and exact filters, read, create, edit from the
 * revision read, soft delete (refused while the entry is in use) and restore, with permission
 * checks on every route and the audit trail of the store. Per-entity hooks only where behaviour
 * differs (checks JSON Schema cannot express, uniqueness, references, in-use refusals).
 */
import { pageOptions, pageQuery } from '../http';
import type { PageQuery } from '../http';
import type { Caller } from '../http';
import { callerOf } from '../http';
import { ok } from '../http';
import { errors } from '../http';
import type { ModuleRouter } from '../http';
import type { JsonSchema } from '../http';
import type { Collection, Handle, StoredDoc } from '../store';
import { bodySchema, fieldsOf, loadEntity } from './schema';
import { listSort, sortQuery } from './sort';
import type { SortQuery } from './sort';
import { textMatch } from '../store';

export interface SoftDeleted {
  deleted?: boolean;
  deletedAt?: string;
}

/** The operations the generic CRUD serves. */
export type EntityOperation = 'list' | 'read' | 'create' | 'update' | 'delete' | 'restore';

/** What a hook is given: who asks, the store handle of the entity's scope, and on edits the entry as stored. */
export interface EntityHookContext<T extends object> {
  caller: Caller;
  handle: Handle;
  /** The entry's id on edits, deletions and restores. */
  id?: string;
  /** The entry as stored before the edit or deletion. */
  before?: StoredDoc<T>;
}

export interface EntitySpec<T extends object> {
  /** Route path relative to the module prefix, e.g. `/hospitals`. */
  path: string;
  collection: string;
  /** tenant: the caller's tenant; platform: the platform's collections (operator master data). */
  scope: 'tenant' | 'platform';
  /** schemas/entities/<entity>.json */
  entity: string;
  /**
   * A view of the entity that is the create or edit body where it is not the whole entry (e.g.
   * `tenant#/$defs/create`: the tenant with its administrator; `tenant#/$defs/settings`).
   */
  bodies?: { create?: string; update?: string };
  /** Translated message refusing an edit of a soft-deleted entry (default: it is not found). */
  deletedRefusal?: string;
  /** Menu permission; `:add`, `:edit`, `:delete` guard the writes. */
  permission: string;
  /** Permission of the list and read routes when it differs (e.g. any signed-in user). */
  readPermission?: string;
  /** Permission of an operation where it is not `permission` (+ `:add`, `:edit`, `:delete`). */
  permissions?: Partial<Record<EntityOperation, string>>;
  /** The operations served here (default all); a module serves the others its own way (a tree, a profile). */
  operations?: readonly EntityOperation[];
  /** Summary of an operation in the OpenAPI document where the generic one says too little. */
  summaries?: Partial<Record<EntityOperation, string>>;
  /** Name of the id path parameter (default `id`), e.g. `receiverId`. */
  idParam?: string;
  /** The stored field the id parameter names (default `_id`), e.g. a user's `accountId`. */
  idField?: string;
  /** The list's order when the request names no `sort` (required when the list is served). */
  sort?: Record<string, 1 | -1>;
  /**
   * Fields the list may be sorted by (`sort`, `order`); declare an index for each in the
   * collection (sortIndexes). The columns of the ui list that are not here are not sortable.
   */
  sortable?: readonly string[];
  /** Exact-match filters (query parameter = field). */
  exact?: string[];
  /** Fields the `keyword` filter searches (case-insensitive substring). */
  keywordFields?: string[];
  /** Translated message key for an unknown id (its parameter `id` is the id asked for); default common.notFound. */
  notFound?: string;
  /** Fields whose combination must be unique among the entries not deleted. */
  unique?: { fields: string[]; message: string };
  /** Checks beyond JSON Schema; throw an AppError to refuse. `id` is set on edits. */
  check?(input: T, handle: Handle, id?: string): Promise<void> | void;
  /**
   * The entry to store from a validated body (trimmed, defaulted, derived fields), after `check`;
   * throw an AppError to refuse. Default: the body as it is.
   */
  prepare?(input: T, context: EntityHookContext<T>): Promise<T> | T;
  /**
   * Stores a new entry where adding is more than an insert (an account to open, a link to send) and
   * says what to answer (with a message key when the answer is not plain success). Default: insert
   * the prepared entry and answer its view.
   */
  create?(entry: T, context: EntityHookContext<T>): Promise<{ answer: unknown; message?: string }>;
  /** The answer for one entry (default entityView). */
  view?(doc: StoredDoc<T>): unknown;
  /** Why deletion is refused (a translated AppError), or nothing when the entry is unused. */
  assertUnused?(id: string, handle: Handle, context?: EntityHookContext<T>): Promise<void>;
  /** soft (default): flagged deleted, restorable; hard: the document is removed (no restore). */
  deletion?: 'soft' | 'hard';
  /**
   * false: an edit sets the fields it sends and leaves the others as stored. Default true: the form
   * sends the whole entry, so an optional field it leaves out is cleared.
   */
  clearOmitted?: boolean;
  /** After a write was stored (caches to forget, linked records to follow). */
  afterWrite?(doc: StoredDoc<T> | null, context: EntityHookContext<T>): Promise<void> | void;
}

export function entityView<T extends object>(doc: StoredDoc<T>) {
  const {
    _id,
    tenantId: _t,
    createdBy: _cb,
    updatedBy: _ub,
    ...rest
  } = doc as StoredDoc<T> & {
    tenantId?: string;
    createdBy?: string;
    updatedBy?: string;
  };
  return { id: _id, ...rest, deleted: (rest as SoftDeleted).deleted === true };
}

/** The store handle an entity's routes use: the caller's tenant, or the platform acting as the caller. */
export function scopeHandle(caller: Caller, scope: 'tenant' | 'platform'): Handle {
  if (scope === 'tenant') return caller.tenant;
  return caller.deps.store.platform({ userId: caller.userId });
}

const idParamsOf = (name: string): JsonSchema => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type: 'string', minLength: 1, maxLength: 64 } },
});

async function assertUnique<T extends object>(
  spec: EntitySpec<T>,
  docs: Collection<T & SoftDeleted>,
  input: T,
  id?: string,
): Promise<void> {
  if (!spec.unique) return;
  const values = input as Record<string, unknown>;
  const filter: Record<string, unknown> = { deleted: { $ne: true } };
  for (const field of spec.unique.fields) filter[field] = values[field] ?? null;
  if (id) filter[spec.idField ?? '_id'] = { $ne: id };
  if (await docs.count(filter))
    throw errors.badRequest(
      spec.unique.message,
      Object.fromEntries(spec.unique.fields.map((f) => [f, String(values[f] ?? '')])),
    );
}

export function entityRoutes<T extends object>(router: ModuleRouter, spec: EntitySpec<T>): void {
  const entity = loadEntity(spec.entity);
  const handle = (caller: Caller) => scopeHandle(caller, spec.scope);
  const collection = (caller: Caller) => handle(caller).collection<T & SoftDeleted>(spec.collection);
  const idField = spec.idField ?? '_id';
  const notFound = spec.notFound ?? 'common.notFound';
  const exact = spec.exact ?? [];
  const keywordFields = spec.keywordFields ?? [];
  const current = async (caller: Caller, id: string, editing = false) => {
    const doc = await collection(caller).findOne({ [idField]: id });
    if (doc?.deleted && editing && spec.deletedRefusal) throw errors.badRequest(spec.deletedRefusal);
    if (!doc || doc.deleted) throw errors.notFound(notFound, { id });
    return doc;
  };
  const view = (doc: StoredDoc<T>) => (spec.view ? spec.view(doc) : entityView(doc));
  const stored = async (input: T, context: EntityHookContext<T>): Promise<T> => {
    await spec.check?.(input, context.handle, context.id);
    const entry = spec.prepare ? await spec.prepare(input, context) : input;
    await assertUnique(spec, collection(context.caller), entry, context.id);
    return entry;
  };
  const label = entity['x-label']?.en ?? spec.entity;
  const readPermission = spec.readPermission ?? spec.permission;
  const idParam = spec.idParam ?? 'id';
  const idParams = idParamsOf(idParam);
  // The module's prefix itself may be the list (`/`): one entry is then `/:id`.
  const one = `${spec.path.replace(/\/$/, '')}/:${idParam}`;
  const serves = (operation: EntityOperation) => !spec.operations || spec.operations.includes(operation);
  const permission = (operation: EntityOperation, fallback: string) =>
    spec.permissions?.[operation] ?? fallback;
  const summary = (operation: EntityOperation, fallback: string) => spec.summaries?.[operation] ?? fallback;
  const hard = spec.deletion === 'hard';
  // An edit's body: the entity's writable properties but those fixed at creation.
  const edited = bodySchema(spec.bodies?.update ? loadEntity(spec.bodies.update) : entity, {
    rev: true,
  }) as JsonSchema & { properties: Record<string, unknown> };

  const sortable = spec.sortable ?? [];

  if (serves('list'))
    router.route<unknown, PageQuery & SortQuery & Record<string, string | boolean | undefined>>(
      {
        method: 'get',
        path: spec.path,
        summary: summary(
          'list',
          `${label}: paged list (keyword${exact.map((f) => `, ${f}`).join('')}; deleted=true lists the deleted${sortable.length ? `; sort by ${sortable.join(', ')} with order=asc|desc` : ''})`,
        ),
        permission: permission('list', readPermission),
        query: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...pageQuery,
            ...sortQuery,
            keyword: { type: 'string', maxLength: 100 },
            deleted: { type: 'boolean' },
            ...Object.fromEntries(exact.map((field) => [field, { type: 'string', maxLength: 100 }])),
          },
        },
      },
      async (c, { query }) => {
        const sort = listSort(query, sortable, spec.sort ?? { _id: 1 });
        const filter: Record<string, unknown> = query.deleted
          ? { deleted: true }
          : { deleted: { $ne: true } };
        for (const field of exact)
          if (query[field] !== undefined && query[field] !== '') filter[field] = query[field];
        if (typeof query.keyword === 'string' && query.keyword.trim()) {
          const match = textMatch(query.keyword.trim());
          filter.$or = keywordFields.map((field) => ({ [field]: match }));
        }
        const docs = collection(callerOf(c));
        const items = await docs.find(filter, { sort, ...pageOptions(query) });
        return { total: await docs.count(filter), items: items.map(view) };
      },
    );

  if (serves('read'))
    router.route<unknown, unknown, Record<string, string>>(
      {
        method: 'get',
        path: one,
        summary: summary('read', `${label}: one entry`),
        permission: permission('read', readPermission),
        params: idParams,
      },
      async (c, { params }) => view(await current(callerOf(c), params[idParam]!)),
    );

  if (serves('create'))
    router.route<T>(
      {
        method: 'post',
        path: spec.path,
        summary: summary('create', `${label}: add`),
        permission: permission('create', `${spec.permission}:add`),
        body: bodySchema(spec.bodies?.create ? loadEntity(spec.bodies.create) : entity),
      },
      async (c, { body }) => {
        const caller = callerOf(c);
        const context: EntityHookContext<T> = { caller, handle: handle(caller) };
        const entry = await stored(body, context);
        if (spec.create) {
          const { answer, message } = await spec.create(entry, context);
          return message ? ok(c, answer, message) : answer;
        }
        const created = await collection(caller).insertOne(entry as T & SoftDeleted);
        await spec.afterWrite?.(created, context);
        return view(created);
      },
    );

  if (serves('update'))
    router.route<T & { rev: number }, unknown, Record<string, string>>(
      {
        method: 'put',
        path: one,
        summary: summary('update', `${label}: edit from the revision read (the whole entry)`),
        permission: permission('update', `${spec.permission}:edit`),
        params: idParams,
        body: edited,
      },
      async (c, { body, params }) => {
        const caller = callerOf(c);
        const id = params[idParam]!;
        const docs = collection(caller);
        const before = await current(caller, id, true);
        const context: EntityHookContext<T> = { caller, handle: handle(caller), id, before };
        const fields = (await stored(fieldsOf(body) as T, context)) as T & Record<string, unknown>;
        // The form sends the whole entry: optional fields it leaves out are cleared.
        const cleared =
          spec.clearOmitted === false
            ? {}
            : Object.fromEntries(
                Object.keys(before)
                  .filter((key) => key !== 'rev' && key in edited.properties && !(key in fields))
                  .map((key) => [key, '']),
              );
        const updated = await docs.updateOne(
          { _id: before._id },
          { $set: fields, ...(Object.keys(cleared).length ? { $unset: cleared } : {}) },
          { expectedRev: body.rev },
        );
        if (!updated) throw errors.notFound(notFound, { id });
        await spec.afterWrite?.(updated, context);
        return view(updated);
      },
    );

  if (serves('delete'))
    router.route<unknown, unknown, Record<string, string>>(
      {
        method: 'delete',
        path: one,
        summary: summary(
          'delete',
          hard
            ? `${label}: delete (refused while in use)`
            : `${label}: delete (soft, restorable; refused while in use)`,
        ),
        permission: permission('delete', `${spec.permission}:delete`),
        params: idParams,
      },
      async (c, { params }) => {
        const caller = callerOf(c);
        const id = params[idParam]!;
        const doc = await current(caller, id);
        const context: EntityHookContext<T> = { caller, handle: handle(caller), id, before: doc };
        await spec.assertUnused?.(id, context.handle, context);
        if (hard) await collection(caller).deleteOne({ _id: doc._id });
        else
          await collection(caller).updateOne(
            { _id: doc._id },
            { $set: { deleted: true, deletedAt: caller.clock.now().toISOString() } },
            { expectedRev: doc.rev },
          );
        await spec.afterWrite?.(null, context);
        return null;
      },
    );

  if (serves('restore') && !hard)
    router.route<unknown, unknown, Record<string, string>>(
      {
        method: 'post',
        path: `${one}/restore`,
        summary: summary('restore', `${label}: restore a deleted entry`),
        permission: permission('restore', `${spec.permission}:delete`),
        params: idParams,
      },
      async (c, { params }) => {
        const caller = callerOf(c);
        const id = params[idParam]!;
        const docs = collection(caller);
        const doc = await docs.findOne({ [idField]: id });
        if (!doc) throw errors.notFound(notFound, { id });
        if (!doc.deleted) throw errors.badRequest('entities.notDeleted');
        await assertUnique(spec, docs, doc as T, id);
        const restored = await docs.updateOne(
          { _id: doc._id },
          { $set: { deleted: false }, $unset: { deletedAt: '' } },
          { expectedRev: doc.rev },
        );
        await spec.afterWrite?.(restored, { caller, handle: handle(caller), id, before: doc });
        return view(restored!);
      },
    );
}
