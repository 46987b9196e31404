/**
 * The configuration service module: UAT drafts of tenant and project edits, the published PRO
 * versions (diff + impact), and the check of a case against the configuration of its project.
 * Publishing and rolling back have no route here: PRO changes only through the configurator's
 * signed publish (`/api/configurator/publish`, `/rollback`), which calls ConfigurationService.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../http/context';
import { requirePrincipal, tenantHandle } from '../http/context';
import { errors } from '../http/errors';
import { defineModule } from '../http/module';
import type { ModuleRouter } from '../http/route';
import type { ConfigEdit } from '../../../engine/src/schema-registry/edits';
import { configuredTabs } from '../../../engine/src/schema-registry/layout';
import { ConfigurationService, configurationCollections } from './service';
import type { Environment } from './service';

export { ConfigurationService, projectOfCase } from './service';
export type { CheckedCase, ConfigurationVersion, PublishImpact, Environment } from './service';

const service = (c: Context<AppEnv>) => new ConfigurationService(tenantHandle(c), c.get('deps').clock);

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

/** UAT holds unpublished drafts: only configurators read them or check cases against them. */
async function assertMayUse(c: Context<AppEnv>, environment: Environment | undefined): Promise<void> {
  if (environment !== 'UAT') return;
  const authenticator = c.get('authenticator');
  const allowed = authenticator?.authorize
    ? await authenticator.authorize(requirePrincipal(c), CONFIG_PERMISSION, c)
    : false;
  if (!allowed) throw errors.forbidden('configuration.uatForbidden');
}

function routes(router: ModuleRouter): void {
  router.route(
    {
      method: 'get',
      path: '/uat',
      summary: 'The UAT edits of the tenant and of every project',
      permission: CONFIG_PERMISSION,
    },
    async (c) => service(c).uat(),
  );

  router.route<{ edits: ConfigEdit[] }>(
    {
      method: 'put',
      path: '/uat/tenant',
      summary: 'Replaces the tenant UAT edits (each edit checked; a refused edit changes nothing)',
      permission: CONFIG_PERMISSION,
      body: editsBody,
    },
    async (c, { body }) => ({ edits: await service(c).saveDraft(null, body.edits) }),
  );

  router.route<{ edits: ConfigEdit[] }, Record<string, unknown>, { projectId: string }>(
    {
      method: 'put',
      path: '/uat/projects/:projectId',
      summary: "Replaces a project's UAT edits",
      permission: CONFIG_PERMISSION,
      body: editsBody,
      params: {
        type: 'object',
        required: ['projectId'],
        properties: { projectId: { type: 'string', minLength: 1, maxLength: 100 } },
      },
    },
    async (c, { body, params }) => ({ edits: await service(c).saveDraft(params.projectId, body.edits) }),
  );

  router.route(
    { method: 'get', path: '/versions', summary: 'Published versions, newest first, with diff and impact' },
    async (c) => service(c).listVersions(),
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
    async (c, { params }) => service(c).getVersion(params.version),
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
      await assertMayUse(c, query.environment);
      const { configuration, version } = await service(c).resolve(
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
      await assertMayUse(c, query.environment);
      const { configuration, version } = await service(c).resolve(
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
      await assertMayUse(c, body.environment);
      const projectId =
        body.projectId ??
        (typeof (body.case.report as { studyProjectId?: unknown } | undefined)?.studyProjectId === 'string'
          ? String((body.case.report as { studyProjectId: string }).studyProjectId)
          : null);
      return service(c).check(projectId, body.case, {
        ...(body.environment ? { environment: body.environment } : {}),
        ...(body.profiles ? { profiles: body.profiles } : {}),
      });
    },
  );
}

export const configurationModule = defineModule({
  name: 'configuration',
  collections: configurationCollections,
  routes,
});
