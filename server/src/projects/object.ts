/**
 * The object kind `project`, registered by the platform (app.ts) because every module configuring a
 * project names it in its path (`:projectId`): a route declaring `object: PROJECT_OBJECT` checks its
 * permission in that project - the caller's tenant roles plus, for its members, their roles there -
 * never in the project the `projectId` header names. Membership is not required here (a tenant-wide
 * configurator configures any project); routes acting on the project's cases check it themselves.
 */
import type { ObjectResolver } from '../http';
import type { TenantHandle } from '../store';
import { InvalidStoreRequestError } from '../store';
import { PROJECTS } from './model';

export const projectObject: ObjectResolver = {
  notFound: 'cases.unknownProject',
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
