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

export interface EntitySpec<T extends object> {
  /** Route path relative to the module prefix, e.g. `/hospitals`. */
  path: string;
  collection: string;
  /** tenant: the caller's tenant; platform: the platform's collections (operator master data). */
  scope: 'tenant' | 'platform';
  /** schemas/entities/<entity>.json */
  entity: string;
  /** Menu permission; `:add`, `:edit`, `:delete` guard the writes. */
  permission: string;
  /** Permission of the list and read routes when it differs (e.g. any signed-in user). */
  readPermission?: string;
  /** The list's order when the request names no `sort`. */
  sort: Record<string, 1 | -1>;
  /**
   * Fields the list may be sorted by (`sort`, `order`); declare an index for each in the
   * collection (sortIndexes). The columns of the ui list that are not here are not sortable.
   */
  sortable?: readonly string[];
  /** Exact-match filters (query parameter = field). */
  exact: string[];
  /** Fields the `keyword` filter searches (case-insensitive substring). */
  keywordFields: string[];
  /** Translated message key for an unknown id. */
  notFound: string;
  /** Fields whose combination must be unique among the entries not deleted. */
  unique?: { fields: string[]; message: string };
  /** Checks beyond JSON Schema; throw an AppError to refuse. `id` is set on edits. */
  check?(input: T, handle: Handle, id?: string): Promise<void> | void;
  /** Why deletion is refused (a translated AppError), or nothing when the entry is unused. */
  assertUnused?(id: string, handle: Handle): Promise<void>;
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

const idParams: JsonSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
};

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
  if (id) filter._id = { $ne: id };
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
  const current = async (caller: Caller, id: string) => {
    const doc = await collection(caller).findOne({ _id: id });
    if (!doc || doc.deleted) throw errors.notFound(spec.notFound);
    return doc;
  };
  const label = entity['x-label']?.en ?? spec.entity;
  const readPermission = spec.readPermission ?? spec.permission;

  const sortable = spec.sortable ?? [];

  router.route<unknown, PageQuery & SortQuery & Record<string, string | boolean | undefined>>(
    {
      method: 'get',
      path: spec.path,
      summary: `${label}: paged list (keyword${spec.exact.map((f) => `, ${f}`).join('')}; deleted=true lists the deleted${sortable.length ? `; sort by ${sortable.join(', ')} with order=asc|desc` : ''})`,
      permission: readPermission,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...pageQuery,
          ...sortQuery,
          keyword: { type: 'string', maxLength: 100 },
          deleted: { type: 'boolean' },
          ...Object.fromEntries(spec.exact.map((field) => [field, { type: 'string', maxLength: 100 }])),
        },
      },
    },
    async (c, { query }) => {
      const sort = listSort(query, sortable, spec.sort);
      const filter: Record<string, unknown> = query.deleted ? { deleted: true } : { deleted: { $ne: true } };
      for (const field of spec.exact)
        if (query[field] !== undefined && query[field] !== '') filter[field] = query[field];
      if (typeof query.keyword === 'string' && query.keyword.trim()) {
        const match = textMatch(query.keyword.trim());
        filter.$or = spec.keywordFields.map((field) => ({ [field]: match }));
      }
      const docs = collection(callerOf(c));
      const items = await docs.find(filter, { sort, ...pageOptions(query) });
      return { total: await docs.count(filter), items: items.map(entityView) };
    },
  );

  router.route<unknown, unknown, { id: string }>(
    {
      method: 'get',
      path: `${spec.path}/:id`,
      summary: `${label}: one entry`,
      permission: readPermission,
      params: idParams,
    },
    async (c, { params }) => entityView(await current(callerOf(c), params.id)),
  );

  router.route<T>(
    {
      method: 'post',
      path: spec.path,
      summary: `${label}: add`,
      permission: `${spec.permission}:add`,
      body: bodySchema(entity),
    },
    async (c, { body }) => {
      const docs = collection(callerOf(c));
      await spec.check?.(body, handle(callerOf(c)));
      await assertUnique(spec, docs, body);
      return entityView(await docs.insertOne(body as T & SoftDeleted));
    },
  );

  router.route<T & { rev: number }, unknown, { id: string }>(
    {
      method: 'put',
      path: `${spec.path}/:id`,
      summary: `${label}: edit from the revision read (the whole entry)`,
      permission: `${spec.permission}:edit`,
      params: idParams,
      body: bodySchema(entity, { rev: true }),
    },
    async (c, { body, params }) => {
      const docs = collection(callerOf(c));
      const before = await current(callerOf(c), params.id);
      const fields = fieldsOf(body);
      await spec.check?.(fields as T, handle(callerOf(c)), params.id);
      await assertUnique(spec, docs, fields as T, params.id);
      // The form sends the whole entry: optional fields it leaves out are cleared.
      const cleared = Object.fromEntries(
        Object.keys(before)
          .filter((key) => key in entity.properties && !(key in fields) && key !== 'deleted')
          .map((key) => [key, '']),
      );
      const updated = await docs.updateOne(
        { _id: params.id },
        { $set: fields, ...(Object.keys(cleared).length ? { $unset: cleared } : {}) },
        { expectedRev: body.rev },
      );
      return entityView(updated!);
    },
  );

  router.route<unknown, unknown, { id: string }>(
    {
      method: 'delete',
      path: `${spec.path}/:id`,
      summary: `${label}: delete (soft, restorable; refused while in use)`,
      permission: `${spec.permission}:delete`,
      params: idParams,
    },
    async (c, { params }) => {
      const doc = await current(callerOf(c), params.id);
      await spec.assertUnused?.(params.id, handle(callerOf(c)));
      await collection(callerOf(c)).updateOne(
        { _id: params.id },
        { $set: { deleted: true, deletedAt: callerOf(c).clock.now().toISOString() } },
        { expectedRev: doc.rev },
      );
      return null;
    },
  );

  router.route<unknown, unknown, { id: string }>(
    {
      method: 'post',
      path: `${spec.path}/:id/restore`,
      summary: `${label}: restore a deleted entry`,
      permission: `${spec.permission}:delete`,
      params: idParams,
    },
    async (c, { params }) => {
      const docs = collection(callerOf(c));
      const doc = await docs.findOne({ _id: params.id });
      if (!doc) throw errors.notFound(spec.notFound);
      if (!doc.deleted) throw errors.badRequest('entities.notDeleted');
      await assertUnique(spec, docs, doc as T, params.id);
      const restored = await docs.updateOne(
        { _id: params.id },
        { $set: { deleted: false }, $unset: { deletedAt: '' } },
        { expectedRev: doc.rev },
      );
      return entityView(restored!);
    },
  );
}
