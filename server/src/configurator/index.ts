/**
 * The configurator module (`/api/configurator`): per-project feature switches, workflow and
 * case-list overrides, Handlebars templates with compile check and preview, all edited in UAT and
 * published to PRO (with the configuration module's schema and rule edits) under an e-signature.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { projectFeatures, projectCaseList, projectTemplates, ConfiguratorService } from './service';
export type { ProjectConfiguration, ConfiguratorChange, ConfiguratorVersion } from './service';
export { compileProblem, renderTemplate, TEMPLATE_KINDS } from './templates';
export type { TemplateDefinition, TemplateKind, CompileProblem } from './templates';
export { configuratorCollections } from './service';
export { compileTemplate, defaultTemplate, renderNarrative } from './render';
export type { NarrativeLang } from './render';

import { signWithPassword } from '../auth/index';
import type { Caller } from '../http';
import { callerOf } from '../http';
import { tenantHandle } from '../http';
import { defineModule } from '../http';
import type { ModuleDeps } from '../http';
import type { ModuleRouter, ObjectResolver, RouteObject } from '../http';
import { projectObject } from '../projects';
import type { Principal } from '../http';
import { InvalidStoreRequestError } from '../store';
import type { Environment } from '../configuration/index';
import { FEATURE_SWITCH_NAMES } from '@pv/engine';
import type { ListOverride } from '@pv/engine';
import { ConfiguratorService, configuratorCollections } from './service';
import type { PublishSigner } from './service';
import { compileProblem, TEMPLATE_KINDS } from './templates';
import type { TemplateDefinition } from './templates';

/** Signs as the caller; tests hand in their own. */
export type Signer = (
  deps: ModuleDeps,
  principal: Principal,
  password: string,
  meaning: string,
  subject: { type: string; id: string },
) => Promise<{ _id: string }>;

const CONFIG_PERMISSION = 'authoritymanagement:projectInfo:config';
const TEMPLATE_PERMISSION = 'authoritymanagement:templateConfiguration:edit';
const PUBLISH_PERMISSION = 'authoritymanagement:templateConfiguration:publish';

const service = (caller: Caller) => new ConfiguratorService(caller.tenant, caller.clock);

const projectParams = {
  type: 'object',
  required: ['projectId'],
  properties: { projectId: { type: 'string', minLength: 1, maxLength: 100 } },
};
/** 'tenant' addresses the tenant-wide layer, anything else a project. */
const scopeProject = (projectId: string): string | null => (projectId === 'tenant' ? null : projectId);

/**
 * The layer a route's `:projectId` names is the object its permission is checked in: a project as
 * the platform's project object (its roles count there, never the projectId header's project's),
 * `tenant` with the caller's tenant roles alone.
 */
const LAYER_OBJECT: RouteObject = { param: 'projectId', kind: 'configurator-layer' };
const layerObject: ObjectResolver = {
  // projectObject's 404, written out: the modules import each other and projectObject may not be
  // defined yet when this module loads (scopeOf reaches it at request time).
  notFound: 'cases.unknownProject',
  scopeOf: (handle, id) =>
    id === 'tenant'
      ? Promise.resolve({ projectId: null, membership: 'optional' as const })
      : projectObject.scopeOf(handle, id),
};

/** An override object, or null for the base. */
const overrideBody = {
  type: 'object',
  required: ['override'],
  additionalProperties: false,
  properties: { override: { type: ['object', 'null'] } },
};

const bilingual = {
  type: 'object',
  required: ['zh', 'en'],
  additionalProperties: false,
  properties: {
    zh: { type: 'string', minLength: 1, maxLength: 200 },
    en: { type: 'string', minLength: 1, maxLength: 200 },
  },
};

function routes(router: ModuleRouter, signer: Signer): void {
  router.route(
    {
      method: 'get',
      path: '/projects',
      summary: 'The projects a configurator can choose (id, code, names), by code',
      permission: CONFIG_PERMISSION,
    },
    async (c) => {
      try {
        const projects = await tenantHandle(c)
          .collection<{ code?: string; name?: string; nameEn?: string }>('projects')
          // Soft-deleted projects (projects module) are not configured.
          .find({ deleted: { $ne: true } }, { sort: { code: 1 }, limit: 1000 });
        return projects.map((project) => ({
          id: String(project._id),
          code: project.code ?? String(project._id),
          name: project.name ?? '',
          nameEn: project.nameEn ?? project.name ?? '',
        }));
      } catch (error) {
        if (error instanceof InvalidStoreRequestError) return [];
        throw error;
      }
    },
  );

  router.route<unknown, { environment?: Environment }, { projectId: string }>(
    {
      method: 'get',
      path: '/projects/:projectId',
      summary:
        "A project's feature switches, workflow, case list and templates in UAT or PRO ('tenant' for the tenant layer)",
      permission: CONFIG_PERMISSION,
      object: LAYER_OBJECT,
      params: projectParams,
      query: { type: 'object', properties: { environment: { enum: ['UAT', 'PRO'] } } },
    },
    async (c, { params, query }) =>
      service(callerOf(c)).projectConfiguration(scopeProject(params.projectId), query.environment ?? 'UAT'),
  );

  router.route<{ features: Record<string, unknown> }, Record<string, unknown>, { projectId: string }>(
    {
      method: 'put',
      path: '/uat/projects/:projectId/features',
      summary: "Sets a project's feature switches in UAT (editTimeLimitHours null = unlimited)",
      permission: CONFIG_PERMISSION,
      object: LAYER_OBJECT,
      params: projectParams,
      body: {
        type: 'object',
        required: ['features'],
        additionalProperties: false,
        properties: { features: { type: 'object', maxProperties: FEATURE_SWITCH_NAMES.length + 5 } },
      },
    },
    async (c, { params, body }) =>
      service(callerOf(c)).saveFeatures(scopeProject(params.projectId), body.features),
  );

  router.route<{ override: unknown }, Record<string, unknown>, { projectId: string }>(
    {
      method: 'put',
      path: '/uat/projects/:projectId/workflow',
      summary:
        "Sets a project's workflow override in UAT (JSON merge patch over the base; null = base). Refused when a node is unreachable or cannot reach regulatory submission",
      permission: CONFIG_PERMISSION,
      object: LAYER_OBJECT,
      params: projectParams,
      body: overrideBody,
    },
    async (c, { params, body }) =>
      service(callerOf(c)).saveWorkflow(scopeProject(params.projectId), body.override),
  );

  router.route<{ override: ListOverride | null }, Record<string, unknown>, { projectId: string }>(
    {
      method: 'put',
      path: '/uat/projects/:projectId/list',
      summary: "Sets a project's case-list columns and filters (ids in order) in UAT; null = base",
      permission: CONFIG_PERMISSION,
      object: LAYER_OBJECT,
      params: projectParams,
      body: overrideBody,
    },
    async (c, { params, body }) =>
      service(callerOf(c)).saveList(scopeProject(params.projectId), body.override),
  );

  router.route<TemplateDefinition, Record<string, unknown>, { projectId: string; templateId: string }>(
    {
      method: 'put',
      path: '/uat/projects/:projectId/templates/:templateId',
      summary:
        'Creates or replaces a Handlebars template in UAT; refused with line and reason when it does not compile',
      permission: TEMPLATE_PERMISSION,
      object: LAYER_OBJECT,
      params: {
        type: 'object',
        required: ['projectId', 'templateId'],
        properties: {
          projectId: { type: 'string', minLength: 1, maxLength: 100 },
          templateId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
        },
      },
      body: {
        type: 'object',
        required: ['kind', 'name', 'body'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          kind: { enum: [...TEMPLATE_KINDS] },
          name: bilingual,
          body: { type: 'string', maxLength: 200_000 },
          lang: { enum: ['zh', 'en'] },
        },
      },
    },
    async (c, { params, body }) =>
      service(callerOf(c)).saveTemplate(scopeProject(params.projectId), { ...body, id: params.templateId }),
  );

  router.route<unknown, Record<string, unknown>, { projectId: string; templateId: string }>(
    {
      method: 'delete',
      path: '/uat/projects/:projectId/templates/:templateId',
      summary: 'Removes a template from UAT',
      permission: TEMPLATE_PERMISSION,
      object: LAYER_OBJECT,
      params: {
        type: 'object',
        required: ['projectId', 'templateId'],
        properties: {
          projectId: { type: 'string', maxLength: 100 },
          templateId: { type: 'string', maxLength: 64 },
        },
      },
    },
    async (c, { params }) =>
      service(callerOf(c)).deleteTemplate(scopeProject(params.projectId), params.templateId),
  );

  // Rendering over a case is the cases module's (POST /api/cases/:caseId/template-preview).
  router.route<{ body: string }>(
    {
      method: 'post',
      path: '/templates/preview',
      summary: 'Compiles a template: its problem with line and reason, or none',
      permission: TEMPLATE_PERMISSION,
      body: {
        type: 'object',
        required: ['body'],
        additionalProperties: false,
        properties: { body: { type: 'string', maxLength: 200_000 } },
      },
    },
    (_c, { body }) => ({ problem: compileProblem(body.body), text: null, renderError: null }),
  );

  router.route(
    {
      method: 'get',
      path: '/publish/preview',
      summary:
        'What publishing UAT to PRO would change (switches, workflows, lists, templates, schema and rule edits) and its impact on open cases',
      permission: PUBLISH_PERMISSION,
    },
    async (c) => service(callerOf(c)).previewPublish(),
  );

  const signerFor =
    (caller: Caller): PublishSigner =>
    (password, meaning, subjectId) =>
      signer(caller.deps, caller.principal, password, meaning, {
        type: 'configurationVersion',
        id: subjectId,
      });

  router.route<{ password: string; note?: string }>(
    {
      method: 'post',
      path: '/publish',
      summary: "Publishes UAT to PRO as the next immutable version, signed with the caller's password",
      permission: PUBLISH_PERMISSION,
      body: {
        type: 'object',
        required: ['password'],
        additionalProperties: false,
        properties: {
          password: { type: 'string', minLength: 1, maxLength: 200 },
          note: { type: 'string', maxLength: 500 },
        },
      },
    },
    async (c, { body }) => service(callerOf(c)).publish(signerFor(callerOf(c)), body.password, body.note),
  );

  router.route<{ version: number; password: string; note?: string }>(
    {
      method: 'post',
      path: '/rollback',
      summary: "Publishes an earlier version's content again as a new signed version",
      permission: PUBLISH_PERMISSION,
      body: {
        type: 'object',
        required: ['version', 'password'],
        additionalProperties: false,
        properties: {
          version: { type: 'integer', minimum: 1 },
          password: { type: 'string', minLength: 1, maxLength: 200 },
          note: { type: 'string', maxLength: 500 },
        },
      },
    },
    async (c, { body }) =>
      service(callerOf(c)).rollback(signerFor(callerOf(c)), body.password, body.version, body.note),
  );

  router.route(
    {
      method: 'get',
      path: '/versions',
      summary: 'Version history, newest first: who, when, note, schema/rule and configurator changes, impact',
      permission: CONFIG_PERMISSION,
    },
    async (c) => service(callerOf(c)).history(),
  );
}

const identitySigner: Signer = (deps, principal, password, meaning, subject) =>
  signWithPassword(deps, principal, password, meaning, subject);

export function createConfiguratorModule(options: { signer?: Signer } = {}) {
  const signer = options.signer ?? identitySigner;
  return defineModule({
    name: 'configurator',
    dependsOn: ['auth', 'configuration', 'projects'],
    collections: configuratorCollections,
    objects: { 'configurator-layer': layerObject },
    routes: (router) => routes(router, signer),
  });
}

export const configuratorModule = createConfiguratorModule();
