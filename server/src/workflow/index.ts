/**
 * The case workflow as data (`/api/workflow`): the workflow a project runs, a dry-run check of an
 * override for the workflow designer, and saving a project's override in UAT (PRO changes only
 * through the configurator's signed publish).
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { projectWorkflow } from './definitions';
export type { WorkflowHistoryEntry } from './history';
export type { Signer, SignatureProof } from './signature';
export { identitySigner } from './signature';

import { caseWorkflow, checkWorkflow, mergePatch } from '@pv/engine';
import type { WorkflowDefinition } from '@pv/engine';
import { tenantHandle } from '../http';
import { errors } from '../http';
import { ok } from '../http';
import { defineModule } from '../http';
import type { ModuleRouter } from '../http';
import { ConfiguratorService } from '../configurator';
import { PROJECTS } from '../projects';
import type { Project } from '../projects';
import { projectWorkflow } from './definitions';
import { PROJECT_OBJECT } from '../projects';

function routes(router: ModuleRouter): void {
  router.route<unknown, { projectId?: string }>(
    {
      method: 'get',
      path: '/case',
      summary:
        "The case workflow a project runs (base with the project's override), for the header, the history and the designer",
      permission: 'activecase',
      query: { type: 'object', properties: { projectId: { type: 'string', maxLength: 64 } } },
    },
    async (c, { query }) => {
      if (!query.projectId) return caseWorkflow;
      const project = await tenantHandle(c).collection<Project>(PROJECTS).findOne({ _id: query.projectId });
      if (!project) throw errors.notFound('cases.unknownProject', { id: query.projectId });
      return projectWorkflow(project.workflowOverride);
    },
  );

  router.route<{ override: unknown }>(
    {
      method: 'post',
      path: '/case/check',
      summary:
        'Checks a project override (JSON merge patch over the base workflow) without saving: the problems, empty when sound',
      permission: 'authoritymanagement:projectInfo:config',
      body: {
        type: 'object',
        required: ['override'],
        properties: { override: { type: ['object', 'null'] } },
      },
    },
    (c, { body }) => {
      const def = (
        body.override ? mergePatch(caseWorkflow, body.override) : caseWorkflow
      ) as WorkflowDefinition;
      return { problems: checkWorkflow(def) };
    },
  );

  router.route<{ override: unknown }, Record<string, unknown>, { projectId: string }>(
    {
      method: 'put',
      path: '/case/projects/:projectId',
      object: PROJECT_OBJECT,
      summary:
        "Saves a project's workflow override in UAT (refused with the reason when it leaves a node unreachable or no way to regulatory submission); cases follow it once the configurator publishes UAT to PRO with an e-signature",
      permission: 'authoritymanagement:projectInfo:config',
      params: {
        type: 'object',
        required: ['projectId'],
        properties: { projectId: { type: 'string', maxLength: 64 } },
      },
      body: {
        type: 'object',
        required: ['override'],
        additionalProperties: false,
        properties: { override: { type: ['object', 'null'] } },
      },
    },
    async (c, { params, body }) => {
      const handle = tenantHandle(c);
      const project = await handle.collection<Project>(PROJECTS).findOne({ _id: params.projectId });
      if (!project) throw errors.notFound('cases.unknownProject', { id: params.projectId });
      // The project document's workflowOverride is PRO: only the signed publish writes it.
      const saved = await new ConfiguratorService(handle, c.get('deps').clock).saveWorkflow(
        params.projectId,
        body.override,
      );
      return ok(c, { environment: 'UAT', workflow: saved.workflow ?? null }, 'workflow.overrideSavedInUat');
    },
  );
}

export const workflowModule = defineModule({
  name: 'workflow',
  dependsOn: ['auth', 'configurator', 'projects'],
  routes,
});
