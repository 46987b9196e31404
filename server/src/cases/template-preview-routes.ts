/**
 * A template rendered over a case (`POST /api/cases/:caseId/template-preview`): the configurator's
 * template editor previews a narrative or message template on a real case. The route lives with
 * the case it reads (its permission is checked in the case's own project, and only a member of
 * that project sees the case), while the configurator keeps the compile check that needs no case.
 */
import { compileProblem, renderNarrative, renderTemplate, TEMPLATE_KINDS } from '../configurator';
import type { TemplateKind } from '../configurator';
import { callerOf, errors } from '../http';
import type { ModuleRouter } from '../http';
import { C } from './collections';
import { caseContent } from './document';
import { CASE_OBJECT, requireCaseAccess } from './membership';

/** Who edits templates (the configurator's permission), here in the case's project. */
const TEMPLATE_PERMISSION = 'authoritymanagement:templateConfiguration:edit';

export function templatePreviewRoutes(router: ModuleRouter): void {
  router.route<
    { body: string; kind?: TemplateKind; lang?: 'zh' | 'en' },
    Record<string, unknown>,
    { caseId: string }
  >(
    {
      method: 'post',
      path: '/:caseId/template-preview',
      object: CASE_OBJECT,
      summary:
        'Compiles a template (problem with line and reason) and, when it compiles, renders it over the case (narratives with the H.1 narrative helpers)',
      permission: TEMPLATE_PERMISSION,
      params: {
        type: 'object',
        required: ['caseId'],
        properties: { caseId: { type: 'string', minLength: 1, maxLength: 100 } },
      },
      body: {
        type: 'object',
        required: ['body'],
        additionalProperties: false,
        properties: {
          body: { type: 'string', maxLength: 200_000 },
          kind: { enum: [...TEMPLATE_KINDS] },
          lang: { enum: ['zh', 'en'] },
        },
      },
    },
    async (c, { params, body }) => {
      const caller = callerOf(c);
      // The case is rendered for the caller: only a member of its project (or an administrator) sees it.
      await requireCaseAccess(caller, params.caseId);
      const problem = compileProblem(body.body);
      if (problem) return { problem, text: null, renderError: null };
      const doc = await caller.tenant.collection(C.cases).findOne({ _id: params.caseId });
      if (!doc) throw errors.notFound('cases.notFound', { id: params.caseId });
      // H.1 narratives render with the narrative helpers and context; a refusal answers 400.
      if (body.kind === 'narrative')
        return {
          problem: null,
          text: renderNarrative(body.body, caseContent(doc), body.lang ?? 'zh'),
          renderError: null,
        };
      const rendered = renderTemplate(body.body, doc);
      return 'text' in rendered
        ? { problem: null, text: rendered.text, renderError: null }
        : { problem: null, text: null, renderError: rendered.error };
    },
  );
}
