/**
 * Project membership (SPEC 6: projects assign users by role): a user sees and acts on the cases of
 * the projects they are a member of (access module's `projectMembers`); the tenant's
 * administrators (enterprise and system administrator, enterprise-admin roles) see every project.
 * The request's `studyProjectIds` header narrows either further.
 */
import type { Caller } from '../http';
import { grantsNow, grantsOf } from '../access/index';
import type { Grants, ProjectMember } from '../access/index';
import { C as AccessC } from '../auth';
import type { AuthorizationScope, Principal } from '../http';
import { answerKeeper, errors, isPromiseLike } from '../http';
import type { ObjectResolver, RouteObject } from '../http';
import type { TenantHandle } from '../store';
import { InvalidStoreRequestError } from '../store';
import { C } from './collections';
import type { CaseDocument } from './document';

/** null: every project of the tenant; otherwise the project ids the caller may work in. */
export type ProjectScope = string[] | null;

const memo = new WeakMap<Principal, Promise<ProjectScope>>();

async function isTenantAdministrator(caller: Caller, principal: Principal): Promise<boolean> {
  try {
    return (await grantsOf(caller.deps, principal, null)).all;
  } catch (error) {
    // Without the identity modules (tenants, roles) there is no administrator to find.
    if (error instanceof InvalidStoreRequestError) return false;
    throw error;
  }
}

/** A user's projects, kept across requests while this process wrote no membership (answerKeeper). */
const keptMemberships = answerKeeper<string[]>([AccessC.projectMembers]);

async function projectsOf(caller: Caller, principal: Principal): Promise<ProjectScope> {
  if (await isTenantAdministrator(caller, principal)) return null;
  return keptProjectsOf(caller, principal);
}

/** The user's member projects (administration aside), kept: at once while kept. */
function keptProjectsOf(caller: Caller, principal: Principal): string[] | Promise<string[]> {
  return keptMemberships(caller.deps.store, principal.tenantId, principal.userId, async () => {
    try {
      const members = await caller.tenant
        .collection<ProjectMember>(AccessC.projectMembers)
        .find({ userId: principal.userId }, { projection: { projectId: 1 }, limit: 5000 });
      return [...new Set(members.map((member) => member.projectId))];
    } catch (error) {
      if (error instanceof InvalidStoreRequestError) return [];
      throw error;
    }
  });
}

const memberProjects = (caller: Caller) => projectsOf(caller, caller.principal);

/** Refuses handing a case to a user who does not work in its project (submit, back, challenge...). */
export async function requireHandlerMember(
  caller: Caller,
  handler: { id: string; name: string },
  projectId: string | null,
): Promise<void> {
  const theirs = await projectsOf(caller, { tenantId: caller.principal.tenantId, userId: handler.id });
  if (theirs !== null && (!projectId || !theirs.includes(projectId)))
    throw errors.badRequest('cases.handlerNotMember', { name: handler.name });
}

/** The projects the caller works in (memoised for the request). */
export function callerProjects(caller: Caller): Promise<ProjectScope> {
  const principal = caller.principal;
  let scope = memo.get(principal);
  if (!scope) memo.set(principal, (scope = memberProjects(caller)));
  return scope;
}

/**
 * The projects a list, selection or workbench feed may read: the caller's, narrowed by the
 * `studyProjectIds` header, and - given the list's permission - to those where the caller holds it
 * (a role of the `projectId` header's project lends nothing to another project's cases). null: no
 * limit; an empty list: nothing at all.
 */
export async function listScope(caller: Caller, permission?: string): Promise<ProjectScope> {
  const requested = [...caller.studyProjectIds];
  const mine = await callerProjects(caller);
  if (mine === null) return requested.length ? requested : null;
  const scope = requested.length ? mine.filter((id) => requested.includes(id)) : mine;
  return permission ? projectsHolding(caller, scope, permission) : scope;
}

/** The projects, of those given, where the caller holds the permission (in order). */
async function projectsHolding(caller: Caller, projectIds: string[], permission: string): Promise<string[]> {
  const held = await Promise.all(projectIds.map((projectId) => caller.authorize(permission, { projectId })));
  return projectIds.filter((_, i) => held[i]);
}

/** The list modules' convention: [] = no limit. Only call when the scope is not empty. */
export const scopeIds = (scope: ProjectScope): string[] => scope ?? [];

export const emptyScope = (scope: ProjectScope): boolean => scope !== null && scope.length === 0;

/**
 * Whether the caller works in the project (a tenant administrator in every one), at once (no
 * await) while their grants there are kept (a file read asks it on every request). The project's
 * grants say both (member: a projectMembers entry; all: tenant administration), and a permission
 * asked there next reads the same kept grants.
 */
export function worksInProject(caller: Caller, projectId: string | null): boolean | Promise<boolean> {
  let grants: Grants | Promise<Grants>;
  try {
    grants = grantsNow(caller.deps, caller.principal, projectId);
  } catch (error) {
    return noIdentityModules(error);
  }
  return isPromiseLike(grants)
    ? Promise.resolve(grants).then((read) => worksIn(read, projectId), noIdentityModules)
    : worksIn(grants, projectId);
}

const worksIn = (grants: Grants, projectId: string | null): boolean =>
  grants.all || (projectId !== null && grants.member);

/** Without the identity modules (tenants, roles) nobody works anywhere. */
function noIdentityModules(error: unknown): false {
  if (error instanceof InvalidStoreRequestError) return false;
  throw error;
}

/** Refuses (403) unless the caller works in the project. */
export async function requireProjectMember(caller: Caller, projectId: string | null): Promise<void> {
  const mine = await callerProjects(caller);
  if (mine === null) return;
  if (!projectId || !mine.includes(projectId)) throw errors.forbidden('cases.notProjectMember');
}

export const projectIdOf = (doc: Record<string, unknown>): string | null => {
  const id = (doc.report as { studyProjectId?: unknown } | undefined)?.studyProjectId;
  return typeof id === 'string' && id ? id : null;
};

/**
 * The object kind `case` (registered by the cases module): a case's permissions are checked in its
 * own project (`report.studyProjectId`), never in the one a header names. Routes acting on a case,
 * or on anything a case owns, declare `object: CASE_OBJECT`.
 */
export const caseObject: ObjectResolver = {
  notFound: 'cases.notFound',
  scopeOf: caseScope,
  collections: [C.cases],
};

/** The case's project scope; null when the case does not exist. */
export async function caseScope(handle: TenantHandle, id: string): Promise<AuthorizationScope | null> {
  const stored = await handle
    .collection<CaseDocument>(C.cases)
    .findOne({ _id: id }, { projection: { report: 1 } });
  return stored ? { projectId: projectIdOf(stored) } : null;
}

const keptCaseScopes = answerKeeper<AuthorizationScope | null>([C.cases]);

/** The case's project scope (caseScope), kept while this process wrote no case (answerKeeper). */
export function keptCaseScope(
  caller: Caller,
  id: string,
): AuthorizationScope | null | Promise<AuthorizationScope | null> {
  return keptCaseScopes(caller.deps.store, caller.principal.tenantId, id, scopeForCaller, caller);
}

const scopeForCaller = (id: string, caller: Caller) => caseScope(caller.tenant, id);

export const CASE_OBJECT: RouteObject = { param: 'caseId', kind: 'case' };

/** Refuses (403) a case of a project the caller is not a member of; 404 when it does not exist. */
export async function requireCaseAccess(caller: Caller, caseId: string): Promise<void> {
  if ((await callerProjects(caller)) === null) return;
  const stored = await caller.tenant
    .collection<CaseDocument>(C.cases)
    .findOne({ _id: caseId }, { projection: { report: 1 } });
  if (!stored) throw errors.notFound('cases.notFound', { id: caseId });
  await requireProjectMember(caller, projectIdOf(stored));
}

/**
 * Refuses (403) unless the caller works in the project of every given case and - given the
 * permission - holds it there (unknown ids pass through to the caller's own check).
 */
export async function requireCasesAccess(
  caller: Caller,
  caseIds: string[],
  permission?: string,
): Promise<void> {
  if ((await callerProjects(caller)) === null) return;
  const found = await caller.tenant
    .collection<CaseDocument>(C.cases)
    .find({ _id: { $in: caseIds } }, { projection: { report: 1 } });
  const projectIds = [...new Set(found.map((stored) => projectIdOf(stored)))];
  for (const projectId of projectIds) await requireProjectMember(caller, projectId);
  if (permission) {
    for (const projectId of projectIds)
      if (!(await caller.authorize(permission, { projectId }))) throw errors.forbidden();
  }
}
