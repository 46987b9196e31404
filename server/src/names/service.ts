/**
 * Display names of referenced objects, a batch per kind: what a list or form shows in place of an
 * id (project code, study site, project drug, user, receiver, regulator, organisation). Each kind
 * answers only what the caller may see: projects, their sites and drugs within the caller's
 * projects (callerProjects: members, or every project for a tenant administrator); users,
 * receivers and organisations of the caller's own tenant; the platform's regulators; tenants to an
 * operator only (the platform's staff, whose lists name tenants). An id the caller may not see is
 * answered exactly like an unknown one: left out.
 */
import { callerProjects } from '../cases';
import type { Caller } from '../http';
import { PROJECTS } from '../projects';
import type { Project } from '../projects';
import { RECEIVERS } from '../exports';
import { MASTERDATA } from '../masterdata';
import { C } from '../auth';
import type { Handle, StoredDoc } from '../store';
import { InvalidStoreRequestError } from '../store';
import { NAME_BATCH_MAX, NAME_KINDS } from '@pv/engine';
import type { DisplayName, NameKind } from '@pv/engine';

export { NAME_BATCH_MAX, NAME_KINDS };
export type { DisplayName, NameKind };

export type NameRequest = Partial<Record<NameKind, string[]>>;
export type NameAnswer = Record<NameKind, Record<string, DisplayName>>;

/** A collection its owning module may not have mounted on this platform reads as empty. */
async function orEmpty<T>(read: () => Promise<T[]>): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InvalidStoreRequestError) return [];
    throw error;
  }
}

function named(doc: object, code?: unknown): DisplayName {
  const { name, nameEn } = doc as { name?: unknown; nameEn?: unknown };
  return {
    ...(typeof code === 'string' && code ? { code } : {}),
    name: typeof name === 'string' ? name : '',
    ...(typeof nameEn === 'string' && nameEn ? { nameEn } : {}),
  };
}

/** The caller's visible, not deleted projects among those holding the filter. */
async function visibleProjects(
  caller: Caller,
  filter: Record<string, unknown>,
): Promise<StoredDoc<Project>[]> {
  const scope = await callerProjects(caller);
  if (scope !== null && scope.length === 0) return [];
  const within = scope === null ? filter : { $and: [filter, { _id: { $in: scope } }] };
  return orEmpty(() =>
    caller.tenant.collection<Project>(PROJECTS).find({ ...within, deleted: { $ne: true } }, { limit: 500 }),
  );
}

async function projectNames(caller: Caller, ids: string[]) {
  const projects = await visibleProjects(caller, { _id: { $in: ids } });
  return projects.map((p) => [p._id, named(p, p.code)] as const);
}

async function siteNames(caller: Caller, ids: string[]) {
  const wanted = new Set(ids);
  const projects = await visibleProjects(caller, { 'sites.id': { $in: ids } });
  return projects.flatMap((p) =>
    (p.sites ?? []).filter((s) => wanted.has(s.id)).map((s) => [s.id, named(s, s.code)] as const),
  );
}

async function drugNames(caller: Caller, ids: string[]) {
  const wanted = new Set(ids);
  const projects = await visibleProjects(caller, { 'drugs.id': { $in: ids } });
  return projects.flatMap((p) =>
    (p.drugs ?? [])
      .filter((d) => wanted.has(d.id))
      .map((d) => [d.id, { name: d.drugName, ...(d.genericName ? { code: d.genericName } : {}) }] as const),
  );
}

async function userNames(handle: Handle, ids: string[]) {
  // Tenant users are keyed `<accountId>:<tenantId>`; lists and cases name them by account id.
  const users = await orEmpty(() =>
    handle
      .collection<{ name: string; accountId?: string }>(C.users)
      .find(
        { $or: [{ _id: { $in: ids } }, { accountId: { $in: ids } }] },
        { projection: { name: 1, accountId: 1 } },
      ),
  );
  const wanted = new Set(ids);
  return users.flatMap((u) =>
    [u._id, u.accountId]
      .filter((id): id is string => !!id && wanted.has(id))
      .map((id) => [id, named(u)] as const),
  );
}

async function tenantNames(handle: Handle, collection: string, ids: string[], code?: string) {
  const docs = await orEmpty(() =>
    handle
      .collection<Record<string, unknown>>(collection)
      .find({ _id: { $in: ids } }, { limit: NAME_BATCH_MAX }),
  );
  return docs.map((doc) => [doc._id, named(doc, code ? doc[code] : undefined)] as const);
}

/** Names of every kind asked; ids not found or not visible are absent from the answer. */
export async function resolveNames(caller: Caller, request: NameRequest): Promise<NameAnswer> {
  const answer = Object.fromEntries(NAME_KINDS.map((kind) => [kind, {}])) as NameAnswer;
  const asked = (kind: NameKind) => [...new Set(request[kind] ?? [])].slice(0, NAME_BATCH_MAX);
  const tenant = () => caller.tenant;
  const platform = () => caller.deps.store.platform({ userId: caller.userId });
  const readers: Record<NameKind, (ids: string[]) => Promise<(readonly [string, DisplayName])[]>> = {
    project: (ids) => projectNames(caller, ids),
    site: (ids) => siteNames(caller, ids),
    drug: (ids) => drugNames(caller, ids),
    user: (ids) => userNames(tenant(), ids),
    receiver: (ids) => tenantNames(tenant(), RECEIVERS, ids),
    organisation: (ids) => tenantNames(tenant(), C.organisations, ids, 'code'),
    regulator: (ids) => tenantNames(platform(), MASTERDATA.regulators, ids, 'authorityCode'),
    tenant: (ids) => tenantNames(platform(), C.tenants, ids, 'code'),
  };
  // An operator has no tenant: only the platform's regulators and tenants have names for them;
  // a tenant's user never reads other tenants' names.
  const operatorKinds: NameKind[] = ['regulator', 'tenant'];
  const kinds = NAME_KINDS.filter(
    (kind) =>
      asked(kind).length && (caller.principal.operator ? operatorKinds.includes(kind) : kind !== 'tenant'),
  );
  await Promise.all(
    kinds.map(async (kind) => {
      for (const [id, name] of await readers[kind](asked(kind))) answer[kind][id] = name;
    }),
  );
  return answer;
}

/** A project as a picker offers it: its code and names, and its study sites. */
export interface ProjectChoice extends DisplayName {
  id: string;
  code: string;
  sites: (DisplayName & { id: string })[];
}

/** The projects the caller works in (every project for a tenant administrator), by code. */
export async function projectChoices(caller: Caller): Promise<ProjectChoice[]> {
  if (caller.principal.operator) return [];
  const projects = await visibleProjects(caller, {});
  return projects
    .map((p) => ({
      id: p._id,
      ...named(p, p.code),
      code: p.code,
      sites: (p.sites ?? []).map((s) => ({ id: s.id, ...named(s, s.code) })),
    }))
    .sort((a, b) => a.code.localeCompare(b.code));
}

/** A user as a picker offers it (a list's handler filter): the id cases and lists keep, and the name. */
export interface UserChoice extends DisplayName {
  id: string;
}

/**
 * The users working in the caller's projects (members of them; every user of the tenant for a
 * tenant administrator), by name: what a handler or user filter offers instead of a typed id.
 */
export async function userChoices(caller: Caller): Promise<UserChoice[]> {
  if (caller.principal.operator) return [];
  const scope = await callerProjects(caller);
  if (scope !== null && scope.length === 0) return [];
  const memberIds =
    scope === null
      ? null
      : new Set(
          (
            await orEmpty(() =>
              caller.tenant
                .collection<{ userId: string }>(C.projectMembers)
                .find({ projectId: { $in: scope } }, { projection: { userId: 1 } }),
            )
          ).map((m) => m.userId),
        );
  if (memberIds && !memberIds.size) return [];
  const ids = memberIds ? [...memberIds] : null;
  const users = await orEmpty(() =>
    caller.tenant
      .collection<{ name: string; nameEn?: string; accountId?: string }>(C.users)
      .find(ids ? { $or: [{ _id: { $in: ids } }, { accountId: { $in: ids } }] } : {}, {
        projection: { name: 1, nameEn: 1, accountId: 1 },
        limit: 2000,
      }),
  );
  // Cases and lists name a user by account id (tenant users are keyed `<accountId>:<tenantId>`).
  return users
    .map((u) => ({ id: u.accountId ?? u._id, ...named(u) }))
    .filter((u) => !memberIds || memberIds.has(u.id))
    .sort((a, b) => a.name.localeCompare(b.name, 'zh'));
}
