/**
 * The object kind `project`, registered by the platform (app.ts) because every module configuring a
 * project names it in its path (`:projectId`): a route declaring `object: PROJECT_OBJECT` checks its
 * permission in that project - the caller's tenant roles plus, for its members, their roles there -
 * never in the project the `projectId` header names. Membership is not required here (a tenant-wide
 * configurator configures any project); routes acting on the project's cases check it themselves.
 */
import type { Caller, ObjectResolver } from '../http';
import { requireInProject } from '../http';
import type { TenantHandle } from '../store';
import { InvalidStoreRequestError } from '../store';
import { PROJECTS } from './model';

export const projectObject: ObjectResolver = {
  notFound: 'cases.unknownProject',
  collections: [PROJECTS],
  async scopeOf(handle: TenantHandle, id: string) {
    const scope = { projectId: id, membership: 'optional' as const };
    try {
      const found = await handle.collection(PROJECTS).findOne({ _id: id }, { projection: { _id: 1 } });
      return found ? scope : null;
    } catch (error) {
      // A platform mounting no module that declares projects cannot tell; the path's project still decides.
      if (error instanceof InvalidStoreRequestError) return scope;
      throw error;
    }
  },
};

/** Declared by the route layer (any module's route may name the project), re-exported for this module's routes. */
export { PROJECT_OBJECT } from '../http';

/**
 * For routes naming a project in their body or query (the route layer checks only path objects):
 * the project must exist in the caller's tenant (404 otherwise, as for a path project) and the
 * caller must hold the permission in it - the project's own roles, never the projectId
 * header's. `membership` 'required' (the project's working data: its members and tenant
 * administrators), 'optional' (its configuration: tenant-wide roles count too). `refusal`: the
 * 403's message key.
 */
export function requireProjectPermission(
  caller: Caller,
  projectId: string,
  permission: string,
  membership: 'required' | 'optional',
  refusal?: string,
): Promise<void> {
  return requireInProject(caller, projectObject, projectId, permission, membership, refusal);
}
