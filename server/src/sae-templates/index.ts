/**
 * Project SAE templates (/holoxcontrol/projectSaeTemplate): platform-maintained presets of a
 * project's case configuration for serious adverse event reporting in clinical trials. The
 * operator keeps them (generic entity CRUD; each overlay checked by the configurator's own checks);
 * a tenant's configurator reads the enabled ones and applies one to a project, which writes the
 * project's UAT draft only: PRO changes through the configurator's signed publish, as always.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { overlayProblems, assertOverlay, mergeEdits } from './overlay';
export type { SaeOverlay, OverlayProblem } from './overlay';
export type { SaeTemplate, ApplyResult } from './service';
export { DEFAULT_TEMPLATE_ID } from './default';

import { requirePrincipal, tenantHandle } from '../http';
import { defineModule } from '../http';
import type { ModuleDeps } from '../http';
import { DuplicateKeyError } from '../store';
import { entityRoutes } from '../entities';
import { defaultTemplate, DEFAULT_TEMPLATE_ID } from './default';
import { assertOverlay } from './overlay';
import { applyTemplate, enabledTemplate, SAE_TEMPLATES } from './service';
import type { SaeTemplate } from './service';

/** Who configures a tenant's projects (the configurator's permission) reads and applies templates. */
const CONFIG_PERMISSION = 'authoritymanagement:projectInfo:config';

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
};

/** What a tenant sees of a template: no operator bookkeeping. */
const tenantView = (template: SaeTemplate & { _id: string }) => ({
  id: template._id,
  code: template.code,
  name: template.name,
  nameEn: template.nameEn,
  description: template.description ?? '',
  descriptionEn: template.descriptionEn ?? '',
  overlay: template.overlay,
});

/** The default template, once: a restart (or a second process starting) finds it and leaves it alone. */
async function seed(deps: ModuleDeps): Promise<void> {
  const templates = deps.store.platform({ userId: 'system:seed' }).collection<SaeTemplate>(SAE_TEMPLATES);
  // Deleted by an operator counts as present: the seed never brings it back.
  if (await templates.findOne({ _id: DEFAULT_TEMPLATE_ID })) return;
  try {
    await templates.insertOne({ _id: DEFAULT_TEMPLATE_ID, ...structuredClone(defaultTemplate) });
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
  }
}

export const saeTemplatesModule = defineModule({
  name: 'sae-templates',
  dependsOn: ['configuration', 'configurator'],
  prefix: '',
  collections: [
    {
      name: SAE_TEMPLATES,
      scope: 'platform',
      audited: true,
      indexes: [{ fields: { deleted: 1, status: 1, code: 1 } }],
    },
  ],
  seed,
  routes(router) {
    entityRoutes<SaeTemplate>(router, {
      path: '/operator/sae-templates',
      collection: SAE_TEMPLATES,
      scope: 'platform',
      entity: 'sae-template',
      permission: 'holoxcontrol:projectSaeTemplate',
      sort: { code: 1 },
      exact: ['status'],
      keywordFields: ['code', 'name', 'nameEn', 'description', 'descriptionEn'],
      notFound: 'saeTemplates.notFound',
      unique: { fields: ['code'], message: 'saeTemplates.codeTaken' },
      check: (input) => assertOverlay(input.overlay),
    });

    router.route(
      {
        method: 'get',
        path: '/sae-templates',
        summary: 'The enabled project SAE templates a tenant may apply (read-only), by code',
        permission: CONFIG_PERMISSION,
      },
      async (c) => {
        const platform = c.get('deps').store.platform({ userId: requirePrincipal(c).userId });
        const templates = await platform
          .collection<SaeTemplate>(SAE_TEMPLATES)
          .find({ deleted: { $ne: true }, status: 'enabled' }, { sort: { code: 1 }, limit: 500 });
        return templates.map(tenantView);
      },
    );

    router.route<unknown, unknown, { id: string }>(
      {
        method: 'get',
        path: '/sae-templates/:id',
        summary: 'One enabled project SAE template with its overlay (read-only)',
        permission: CONFIG_PERMISSION,
        params: idParams,
      },
      async (c, { params }) => {
        const platform = c.get('deps').store.platform({ userId: requirePrincipal(c).userId });
        return tenantView(await enabledTemplate(platform, params.id));
      },
    );

    router.route<{ projectId: string }, unknown, { id: string }>(
      {
        method: 'post',
        path: '/sae-templates/:id/apply',
        summary:
          "Writes a template's overlay into a project's UAT draft (never PRO: publishing stays the configurator's signed step); refused with the reason, changing nothing, when it does not fit the tenant's configuration",
        permission: CONFIG_PERMISSION,
        params: idParams,
        body: {
          type: 'object',
          required: ['projectId'],
          additionalProperties: false,
          properties: { projectId: { type: 'string', minLength: 1, maxLength: 100 } },
        },
      },
      async (c, { params, body }) => {
        const platform = c.get('deps').store.platform({ userId: requirePrincipal(c).userId });
        const template = await enabledTemplate(platform, params.id);
        return applyTemplate(tenantHandle(c), c.get('deps').clock, template, body.projectId, c.get('t'));
      },
    );
  },
});
