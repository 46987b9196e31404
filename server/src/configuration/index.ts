/**
 * The configuration service module: UAT drafts of tenant and project edits, the published PRO
 * versions (diff + impact), and the check of a case against the configuration of its project.
 * Publishing and rolling back have no route here: PRO changes only through the configurator's
 * signed publish (`/api/configurator/publish`, `/rollback`), which calls ConfigurationService.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { ConfigurationService, projectOfCase } from './service';
export type { CheckedCase, ConfigurationVersion, PublishImpact, Environment } from './service';
export { configurationCollections } from './service';

import type { Caller } from '../http';
import { callerOf } from '../http';
import { errors } from '../http';
import { defineModule } from '../http';
import type { ModuleRouter } from '../http';
import { configuredTabs } from '@pv/engine';
import type { ConfigEdit } from '@pv/engine';
import { ConfigurationService, configurationCollections } from './service';
import type { Environment } from './service';
import { PROJECT_OBJECT, requireProjectPermission } from '../projects';

const service = (caller: Caller) => new ConfigurationService(caller.tenant, caller.clock);

const editsBody = {
  type: 'object',
  required: ['edits'],
  additionalProperties: false,
  properties: {
    edits: {
      type: 'array',
      maxItems: 2000,
      items: {
        type: 'object',
        required: ['op'],
        properties: {
          op: {
            enum: [
              'addField',
              'hideField',
              'relabel',
              'require',
              'unrequire',
              'changeOptions',
              'addRule',
              'disableRule',
              'moveField',
            ],
          },
        },
      },
    },
  },
};
const environmentSchema = { enum: ['UAT', 'PRO'] };
/** Who may edit configuration drafts (the configurator's permission). */
const CONFIG_PERMISSION = 'authoritymanagement:projectInfo:config';
/** Working on a project's cases: checking a case against what its project runs with. */
const CASE_WORK_PERMISSION = 'activecase';

/** UAT holds unpublished drafts: only configurators read them or check cases against them. */
async function assertMayUse(caller: Caller, environment: Environment | undefined): Promise<void> {
  if (environment !== 'UAT') return;
  if (!(await caller.authorize(CONFIG_PERMISSION))) throw errors.forbidden('configuration.uatForbidden');
}

/**
 * Reading or checking against a named project's configuration is decided in that project, never
 * in the header's: its UAT drafts by its configurators, what it runs with (PRO) by those working
 * on its cases (members and tenant administrators). Without a project: the tenant's layer.
 */
async function assertMayRead(
  caller: Caller,
  projectId: string | null,
  environment: Environment | undefined,
): Promise<void> {
  if (!projectId) return assertMayUse(caller, environment);
  if (environment === 'UAT')
    return requireProjectPermission(
      caller,
      projectId,
      CONFIG_PERMISSION,
      'optional',
      'configuration.uatForbidden',
    );
  return requireProjectPermission(caller, projectId, CASE_WORK_PERMISSION, 'required');
}

function routes(router: ModuleRouter): void {
  router.route(
    {
      method: 'get',
      path: '/uat',
      summary: 'The UAT edits of the tenant and of every project',
      permission: CONFIG_PERMISSION,
    },
    async (c) => service(callerOf(c)).uat(),
  );

  router.route<{ edits: ConfigEdit[] }>(
    {
      method: 'put',
      path: '/uat/tenant',
      summary: 'Replaces the tenant UAT edits (each edit checked; a refused edit changes nothing)',
      permission: CONFIG_PERMISSION,
      body: editsBody,
    },
    async (c, { body }) => ({ edits: await service(callerOf(c)).saveDraft(null, body.edits) }),
  );

  router.route<{ edits: ConfigEdit[] }, Record<string, unknown>, { projectId: string }>(
    {
      method: 'put',
      path: '/uat/projects/:projectId',
      object: PROJECT_OBJECT,
      summary: "Replaces a project's UAT edits",
      permission: CONFIG_PERMISSION,
      body: editsBody,
      params: {
        type: 'object',
        required: ['projectId'],
        properties: { projectId: { type: 'string', minLength: 1, maxLength: 100 } },
      },
    },
    async (c, { body, params }) => ({
      edits: await service(callerOf(c)).saveDraft(params.projectId, body.edits),
    }),
  );

  router.route(
    { method: 'get', path: '/versions', summary: 'Published versions, newest first, with diff and impact' },
    async (c) => service(callerOf(c)).listVersions(),
  );

  router.route<unknown, Record<string, unknown>, { version: number }>(
    {
      method: 'get',
      path: '/versions/:version',
      summary: 'One published version with its layers',
      params: {
        type: 'object',
        required: ['version'],
        properties: { version: { type: 'integer', minimum: 1 } },
      },
    },
    async (c, { params }) => service(callerOf(c)).getVersion(params.version),
  );

  router.route<unknown, { projectId?: string; environment?: Environment }>(
    {
      method: 'get',
      path: '/resolved',
      summary:
        'The resolved configuration of a project (schemas, code lists, rules) in UAT or PRO, with its hash and version',
      query: {
        type: 'object',
        properties: { projectId: { type: 'string', maxLength: 100 }, environment: environmentSchema },
      },
    },
    async (c, { query }) => {
      await assertMayRead(callerOf(c), query.projectId ?? null, query.environment);
      const { configuration, version } = await service(callerOf(c)).resolve(
        query.projectId ?? null,
        query.environment ?? 'PRO',
      );
      return { version, ...configuration };
    },
  );

  router.route<unknown, { projectId?: string; environment?: Environment }>(
    {
      method: 'get',
      path: '/form',
      summary:
        "The case form a project shows (PRO unless asked): tabs and groups in the configured order, each group with its fields' resolved schemas (custom fields, labels, options)",
      query: {
        type: 'object',
        properties: { projectId: { type: 'string', maxLength: 100 }, environment: environmentSchema },
      },
    },
    async (c, { query }) => {
      await assertMayRead(callerOf(c), query.projectId ?? null, query.environment);
      const { configuration, version } = await service(callerOf(c)).resolve(
        query.projectId ?? null,
        query.environment ?? 'PRO',
      );
      return { version, hash: configuration.hash, ...configuredTabs(configuration) };
    },
  );

  router.route<{
    projectId?: string;
    case: Record<string, unknown>;
    environment?: Environment;
    profiles?: string[];
  }>(
    {
      method: 'post',
      path: '/check',
      summary:
        "Checks a case document with its project's configuration; the answer names the configuration version used",
      body: {
        type: 'object',
        required: ['case'],
        properties: {
          projectId: { type: 'string', maxLength: 100 },
          case: { type: 'object' },
          environment: environmentSchema,
          profiles: { type: 'array', items: { enum: ['product', 'ich', 'fda', 'nmpa', 'ema'] } },
        },
      },
    },
    async (c, { body }) => {
      const caller = callerOf(c);
      const projectId =
        body.projectId ??
        (typeof (body.case.report as { studyProjectId?: unknown } | undefined)?.studyProjectId === 'string'
          ? String((body.case.report as { studyProjectId: string }).studyProjectId)
          : null);
      await assertMayRead(caller, projectId, body.environment);
      return service(caller).check(projectId, body.case, {
        ...(body.environment ? { environment: body.environment } : {}),
        ...(body.profiles ? { profiles: body.profiles } : {}),
      });
    },
  );
}

export const configurationModule = defineModule({
  name: 'configuration',
  dependsOn: ['projects'],
  collections: configurationCollections,
  routes,
});
