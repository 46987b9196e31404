/** HTTP routes of project administration (/api/projects); the catalogues are in catalogue.ts. */
import type { Context } from 'hono';
import { pageOptions, pageQuery } from '../http';
import type { PageQuery } from '../http';
import { listSort, sortQuery } from '../entities';
import type { SortQuery } from '../entities';
import type { Project } from './model';
import type { AppEnv } from '../http';
import { callerOf, requirePrincipal, tenantHandle } from '../http';
import type { Caller } from '../http';
import { C } from '../auth';
import type { ModuleRouter } from '../http';
import type { JsonSchema } from '../http';
import { bodySchema, fieldsOf, loadEntity } from '../entities';
import type { DrugInput, ProjectInput, SiteInput } from './service';
import { textMatch } from '../store';
import { PROJECTS } from './model';
import {
  addDrug,
  addSite,
  createProject,
  deleteProject,
  projectView,
  removeDrug,
  removeSite,
  requireProject,
  restoreProject,
  setLocked,
  updateDrug,
  updateProject,
  updateSite,
} from './service';
import { PROJECT_OBJECT } from './object';

const PERMISSION = 'authoritymanagement:projectInfo';
const projectEntity = loadEntity('project');
const siteEntity = loadEntity('study-site');
const drugEntity = loadEntity('project-drug');

const id = { type: 'string', minLength: 1, maxLength: 64 };
const projectParams: JsonSchema = { type: 'object', required: ['projectId'], properties: { projectId: id } };
const itemParams: JsonSchema = {
  type: 'object',
  required: ['projectId', 'itemId'],
  properties: { projectId: id, itemId: id },
};
const confirmationBody: JsonSchema = {
  type: 'object',
  required: ['confirmationCode'],
  additionalProperties: false,
  properties: {
    confirmationCode: { type: 'string', minLength: 1, maxLength: 40 },
    reason: { type: 'string', maxLength: 500 },
  },
};

/** The projects the caller is a member of and holds project administration in. */
async function administeredProjects(caller: Caller): Promise<string[]> {
  const members = await caller.tenant
    .collection<{ projectId: string }>(C.projectMembers)
    .find({ userId: caller.userId }, { projection: { projectId: 1 }, limit: 5000 });
  const ids = [...new Set(members.map((member) => member.projectId))];
  const held = await Promise.all(ids.map((projectId) => caller.authorize(PERMISSION, { projectId })));
  return ids.filter((_, i) => held[i]);
}

const nowIso = (c: Context<AppEnv>) => c.get('deps').clock.now().toISOString();

export function projectRoutes(router: ModuleRouter): void {
  router.route<unknown, PageQuery & SortQuery & { keyword?: string; locked?: boolean; deleted?: boolean }>(
    {
      method: 'get',
      path: '/projects',
      summary:
        'Projects of the tenant, paged (keyword on code, names, sponsor; locked; deleted=true for the deleted)',
      permission: PERMISSION,
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...pageQuery,
          ...sortQuery,
          keyword: { type: 'string', maxLength: 100 },
          locked: { type: 'boolean' },
          deleted: { type: 'boolean' },
        },
      },
    },
    async (c, { query }) => {
      const filter: Record<string, unknown> = query.deleted ? { deleted: true } : { deleted: { $ne: true } };
      if (query.locked !== undefined) filter.locked = query.locked;
      if (query.keyword?.trim()) {
        const match = textMatch(query.keyword.trim());
        filter.$or = ['code', 'name', 'nameEn', 'sponsor'].map((field) => ({ [field]: match }));
      }
      // Tenant-wide project administration (a tenant role) lists every project; a project role
      // lists only the projects the caller is a member of and holds it in.
      const caller = callerOf(c);
      if (!(await caller.authorize(PERMISSION, { projectId: null, membership: 'optional' })))
        filter._id = { $in: await administeredProjects(caller) };
      const projects = tenantHandle(c).collection<Project>(PROJECTS);
      // code: the unique index of the projects collection (cases/collections.ts).
      const items = await projects.find(filter, {
        sort: listSort(query, ['code'], { code: 1 }),
        ...pageOptions(query),
      });
      return { total: await projects.count(filter), items: items.map(projectView) };
    },
  );

  router.route<unknown, unknown, { projectId: string }>(
    {
      method: 'get',
      path: '/projects/:projectId',
      object: PROJECT_OBJECT,
      summary: 'One project with its study sites and drugs',
      permission: PERMISSION,
      params: projectParams,
    },
    async (c, { params }) => projectView(await requireProject(tenantHandle(c), params.projectId)),
  );

  router.route<ProjectInput>(
    {
      method: 'post',
      path: '/projects',
      summary: 'Create a project (unique code; within the tenant’s project limit)',
      permission: `${PERMISSION}:add`,
      body: bodySchema(projectEntity),
    },
    async (c, { body }) => projectView(await createProject(c.get('deps').store, tenantHandle(c), body)),
  );

  router.route<ProjectInput & { rev: number }, unknown, { projectId: string }>(
    {
      method: 'put',
      path: '/projects/:projectId',
      object: PROJECT_OBJECT,
      summary: 'Edit a project’s basic information from the revision read (refused while locked)',
      permission: `${PERMISSION}:edit`,
      params: projectParams,
      body: bodySchema(projectEntity, { rev: true }),
    },
    async (c, { body, params }) =>
      projectView(
        await updateProject(c.get('deps').store, tenantHandle(c), params.projectId, fieldsOf(body), body.rev),
      ),
  );

  router.route<unknown, unknown, { projectId: string }>(
    {
      method: 'delete',
      path: '/projects/:projectId',
      object: PROJECT_OBJECT,
      summary: 'Delete a project (soft, restorable); refused while locked or while it holds cases',
      permission: `${PERMISSION}:delete`,
      params: projectParams,
    },
    async (c, { params }) => {
      await deleteProject(tenantHandle(c), params.projectId, nowIso(c));
      return null;
    },
  );

  router.route<unknown, unknown, { projectId: string }>(
    {
      method: 'post',
      path: '/projects/:projectId/restore',
      object: PROJECT_OBJECT,
      summary: 'Restore a deleted project',
      permission: `${PERMISSION}:delete`,
      params: projectParams,
    },
    async (c, { params }) =>
      projectView(await restoreProject(c.get('deps').store, tenantHandle(c), params.projectId)),
  );

  for (const locked of [true, false]) {
    router.route<{ confirmationCode: string; reason?: string }, unknown, { projectId: string }>(
      {
        method: 'post',
        path: `/projects/:projectId/${locked ? 'lock' : 'unlock'}`,
        object: PROJECT_OBJECT,
        summary: `${locked ? 'Lock' : 'Unlock'} a project; the user types the project code as confirmationCode`,
        permission: `${PERMISSION}:lock`,
        params: projectParams,
        body: confirmationBody,
      },
      async (c, { body, params }) =>
        projectView(
          await setLocked(tenantHandle(c), params.projectId, locked, body, {
            userId: requirePrincipal(c).userId,
            at: nowIso(c),
          }),
        ),
    );
  }

  // Study sites and project drugs: lists embedded in the project, each item with its own id.
  const items = [
    { path: 'sites', entity: siteEntity, add: addSite, update: updateSite, remove: removeSite },
    { path: 'drugs', entity: drugEntity, add: addDrug, update: updateDrug, remove: removeDrug },
  ] as const;
  for (const item of items) {
    router.route<unknown, unknown, { projectId: string }>(
      {
        method: 'get',
        path: `/projects/:projectId/${item.path}`,
        object: PROJECT_OBJECT,
        summary: `The project’s ${item.path}`,
        permission: PERMISSION,
        params: projectParams,
      },
      async (c, { params }) => {
        const project = await requireProject(tenantHandle(c), params.projectId);
        return project[item.path];
      },
    );
    router.route<SiteInput & DrugInput, unknown, { projectId: string }>(
      {
        method: 'post',
        path: `/projects/:projectId/${item.path}`,
        object: PROJECT_OBJECT,
        summary: `Add to the project’s ${item.path} (refused while locked)`,
        permission: `${PERMISSION}:edit`,
        params: projectParams,
        body: bodySchema(item.entity),
      },
      (c, { body, params }) => item.add(tenantHandle(c), params.projectId, body),
    );
    router.route<SiteInput & DrugInput, unknown, { projectId: string; itemId: string }>(
      {
        method: 'put',
        path: `/projects/:projectId/${item.path}/:itemId`,
        object: PROJECT_OBJECT,
        summary: `Edit one of the project’s ${item.path} (the whole item; refused while locked)`,
        permission: `${PERMISSION}:edit`,
        params: itemParams,
        body: bodySchema(item.entity),
      },
      (c, { body, params }) => item.update(tenantHandle(c), params.projectId, params.itemId, body),
    );
    router.route<unknown, unknown, { projectId: string; itemId: string }>(
      {
        method: 'delete',
        path: `/projects/:projectId/${item.path}/:itemId`,
        object: PROJECT_OBJECT,
        summary: `Remove one of the project’s ${item.path} (refused while locked${item.path === 'sites' ? ' or named by a case' : ''})`,
        permission: `${PERMISSION}:edit`,
        params: itemParams,
      },
      (c, { params }) => item.remove(tenantHandle(c), params.projectId, params.itemId),
    );
  }
}
