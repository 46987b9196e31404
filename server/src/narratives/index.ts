/**
 * H.1 narrative drafts (`/api/narratives`): the draft narrative of a case from the project's
 * published template, which the user edits before saving it to H.1. Templates are edited in the
 * configurator's UAT and reach cases only through its signed publish.
 */
// The public surface first: other modules read these while this module's routes may still be loading.

import { callerOf } from '../http';
import { tenantHandle } from '../http';
import { errors } from '../http';
import { defineModule } from '../http';
import type { ModuleRouter } from '../http';
import type { JsonSchema } from '../http';
import type { TenantHandle } from '../store';
import { projectTemplates } from '../configurator';
import { caseContent } from '../cases';
import { loadCase } from '../cases';
import { findProject } from '../cases';
import type { NarrativeLang } from '../configurator';
import { defaultTemplate, renderNarrative } from '../configurator';
import { CASE_OBJECT, requireCaseAccess } from '../cases';

const draftBody: JsonSchema = { type: 'string', minLength: 1, maxLength: 50000 };

/**
 * The template for a draft, from the templates published to PRO (configurator, signed publish):
 * the one asked for, else the one the project names, else the project's own (or the tenant's) in
 * the language, else the bundled default. UAT drafts of templates never reach a case.
 */
async function templateFor(
  handle: TenantHandle,
  projectId: string | null,
  lang: NarrativeLang,
  templateId?: string,
): Promise<{ id: string | null; body: string }> {
  // Tenant templates come first, the project's own after them (they win).
  const published = await projectTemplates(handle, projectId, 'narrative', 'PRO');
  if (templateId) {
    const chosen = published.find((template) => template.id === templateId);
    if (!chosen) throw errors.notFound('narratives.templateNotFound');
    return { id: chosen.id, body: chosen.body };
  }
  const fits = published.filter((template) => !template.lang || template.lang === lang);
  const named = projectId ? (await findProject(handle, projectId))?.narrativeTemplateId : null;
  const chosen = fits.find((template) => template.id === named) ?? fits.at(-1);
  return chosen ? { id: chosen.id, body: chosen.body } : { id: null, body: defaultTemplate(lang) };
}

function routes(router: ModuleRouter): void {
  router.route<unknown, { projectId?: string }>(
    {
      method: 'get',
      path: '/templates',
      summary:
        'H.1 narrative templates in force for the tenant or a project (published to PRO through the configurator), and the bundled defaults',
      permission: 'authoritymanagement:templateConfiguration',
      query: { type: 'object', properties: { projectId: { type: 'string', maxLength: 64 } } },
    },
    async (c, { query }) => ({
      items: await projectTemplates(tenantHandle(c), query.projectId ?? null, 'narrative', 'PRO'),
      defaults: { zh: defaultTemplate('zh'), en: defaultTemplate('en') },
    }),
  );

  router.route<
    { lang?: NarrativeLang; templateId?: string; body?: string },
    Record<string, unknown>,
    { caseId: string }
  >(
    {
      method: 'post',
      path: '/cases/:caseId/draft',
      object: CASE_OBJECT,
      summary:
        "Drafts the H.1 narrative of a case from the project's template (or the one given, or an unsaved template body to try); the case is not changed",
      permission: 'activecase:save',
      params: {
        type: 'object',
        required: ['caseId'],
        properties: { caseId: { type: 'string', maxLength: 64 } },
      },
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          lang: { enum: ['zh', 'en'] },
          templateId: { type: 'string', maxLength: 64 },
          body: draftBody,
        },
      },
    },
    async (c, { params, body, ctx }) => {
      await requireCaseAccess(callerOf(c), params.caseId);
      const handle = tenantHandle(c);
      const doc = caseContent(await loadCase(handle, params.caseId));
      const lang: NarrativeLang = body?.lang ?? ctx.lang;
      const projectId = (doc.report as { studyProjectId?: string } | undefined)?.studyProjectId ?? null;
      const template = body?.body
        ? { id: null, body: body.body }
        : await templateFor(handle, projectId, lang, body?.templateId);
      return { text: renderNarrative(template.body, doc, lang), templateId: template.id, lang };
    },
  );
}

export const narrativesModule = defineModule({
  name: 'narratives',
  dependsOn: ['cases', 'configurator'],
  routes,
});
