/**
 * H.1 narrative templates per project (`/api/narratives`): template configuration and the draft
 * narrative of a case, which the user edits before saving it to H.1.
 */
import { tenantHandle } from '../http/context';
import { errors } from '../http/errors';
import { defineModule } from '../http/module';
import type { ModuleRouter } from '../http/route';
import type { JsonSchema } from '../http/validation';
import type { CollectionDefinition, Handle, StoredDoc } from '../store/port';
import { caseContent } from '../cases/document';
import { loadCase } from '../cases/persistence';
import { findProject } from '../cases/projects';
import type { NarrativeLang } from './render';
import { compileTemplate, defaultTemplate, renderNarrative } from './render';

export { renderNarrative, compileTemplate } from './render';

const COLLECTION = 'narrativeTemplates';

export interface NarrativeTemplate {
  name: string;
  /** The project the template belongs to; null for the tenant's templates. */
  projectId: string | null;
  lang: NarrativeLang;
  body: string;
}

const collections: CollectionDefinition[] = [
  { name: COLLECTION, scope: 'tenant', audited: true, indexes: [{ fields: { projectId: 1, lang: 1 } }] },
];

const fields: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: 100 },
  projectId: { type: ['string', 'null'], maxLength: 64 },
  lang: { enum: ['zh', 'en'] },
  body: { type: 'string', minLength: 1, maxLength: 50000 },
};
const idParams: JsonSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 64 } },
};

const view = ({ _id, tenantId: _t, createdBy: _cb, ...rest }: StoredDoc<NarrativeTemplate>) => ({
  id: _id,
  ...rest,
});

/** The template for a draft: the one asked for, else the project's in the language, else the bundled default. */
async function templateFor(
  handle: Handle,
  projectId: string | null,
  lang: NarrativeLang,
  templateId?: string,
): Promise<{ id: string | null; body: string }> {
  const templates = handle.collection<NarrativeTemplate>(COLLECTION);
  if (templateId) {
    const chosen = await templates.findOne({ _id: templateId });
    if (!chosen) throw errors.notFound('narratives.templateNotFound');
    return { id: chosen._id, body: chosen.body };
  }
  if (projectId) {
    const project = await findProject(handle, projectId);
    if (project?.narrativeTemplateId) {
      const preferred = await templates.findOne({ _id: project.narrativeTemplateId });
      if (preferred && preferred.lang === lang) return { id: preferred._id, body: preferred.body };
    }
    const own = await templates.findOne({ projectId, lang }, { sort: { updatedAt: -1 } });
    if (own) return { id: own._id, body: own.body };
  }
  return { id: null, body: defaultTemplate(lang) };
}

function routes(router: ModuleRouter): void {
  router.route<unknown, { projectId?: string }>(
    {
      method: 'get',
      path: '/templates',
      summary: 'H.1 narrative templates of the tenant or of one project',
      permission: 'authoritymanagement:templateConfiguration',
      query: { type: 'object', properties: { projectId: { type: 'string', maxLength: 64 } } },
    },
    async (c, { query }) => {
      const filter = query.projectId ? { projectId: query.projectId } : {};
      const docs = await tenantHandle(c)
        .collection<NarrativeTemplate>(COLLECTION)
        .find(filter, { sort: { name: 1 } });
      return { items: docs.map(view), defaults: { zh: defaultTemplate('zh'), en: defaultTemplate('en') } };
    },
  );

  router.route<NarrativeTemplate>(
    {
      method: 'post',
      path: '/templates',
      summary: 'Adds a template; one that does not compile is refused with the line and the reason',
      permission: 'authoritymanagement:templateConfiguration:add',
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'lang', 'body'],
        properties: fields,
      },
    },
    async (c, { body }) => {
      compileTemplate(body.body, body.lang);
      const doc = await tenantHandle(c)
        .collection<NarrativeTemplate>(COLLECTION)
        .insertOne({ ...body, projectId: body.projectId ?? null });
      return view(doc);
    },
  );

  router.route<Partial<NarrativeTemplate> & { rev: number }, Record<string, unknown>, { id: string }>(
    {
      method: 'put',
      path: '/templates/:id',
      summary: 'Edits a template from the revision read',
      permission: 'authoritymanagement:templateConfiguration:edit',
      params: idParams,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['rev'],
        properties: { ...fields, rev: { type: 'integer', minimum: 1 } },
      },
    },
    async (c, { params, body }) => {
      const templates = tenantHandle(c).collection<NarrativeTemplate>(COLLECTION);
      const current = await templates.findOne({ _id: params.id });
      if (!current) throw errors.notFound('narratives.templateNotFound');
      const { rev, ...changes } = body;
      compileTemplate(changes.body ?? current.body, changes.lang ?? current.lang);
      return view((await templates.updateOne({ _id: params.id }, { $set: changes }, { expectedRev: rev }))!);
    },
  );

  router.route<unknown, Record<string, unknown>, { id: string }>(
    {
      method: 'delete',
      path: '/templates/:id',
      summary: 'Deletes a template',
      permission: 'authoritymanagement:templateConfiguration:delete',
      params: idParams,
    },
    async (c, { params }) => {
      if (!(await tenantHandle(c).collection(COLLECTION).deleteOne({ _id: params.id }))) {
        throw errors.notFound('narratives.templateNotFound');
      }
      return null;
    },
  );

  router.route<
    { lang?: NarrativeLang; templateId?: string; body?: string },
    Record<string, unknown>,
    { caseId: string }
  >(
    {
      method: 'post',
      path: '/cases/:caseId/draft',
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
          body: fields.body!,
        },
      },
    },
    async (c, { params, body, ctx }) => {
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

export const narrativesModule = defineModule({ name: 'narratives', collections, routes });
