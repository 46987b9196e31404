/**
 * A project SAE template's overlay: the format of one project's layer in the layered
 * configuration (schema and rule edits of the configuration module; feature switches, workflow,
 * case list and templates of the configurator), checked by the very checks those modules apply to
 * a project's drafts, and merged into a project's UAT draft when a tenant applies it.
 */
import {
  baseConfiguration,
  caseListDefinition,
  checkFeatureSwitches,
  checkListOverride,
  checkWorkflowOverride,
  layerConfiguration,
  caseWorkflow,
} from '@pv/engine';
import type { FeatureSwitches, ListOverride, ConfigEdit } from '@pv/engine';
import { compileProblem } from '../configurator/index';
import type { TemplateDefinition } from '../configurator/index';
import { compileTemplate } from '../configurator';
import { Code } from '../http';
import { AppError } from '../http';
import type { MessageParams } from '../i18n';

export interface SaeOverlay {
  /** Schema and rule edits of the project layer (addField, hideField, relabel, require, addRule ...). */
  edits: ConfigEdit[];
  features?: Partial<FeatureSwitches>;
  /** JSON merge patch over the case workflow. */
  workflow?: unknown;
  list?: ListOverride;
  /** H.1 narrative (and message) templates, replacing a project's template of the same id. */
  templates?: TemplateDefinition[];
}

/** One reason an overlay is refused: a message key of its owning namespace and its values. */
export interface OverlayProblem {
  /** edits, features, workflow, list or templates. */
  part: keyof SaeOverlay;
  /** Position in `edits` or `templates`, when the problem is one item's. */
  index?: number;
  messageKey: string;
  params: MessageParams;
}

/**
 * Why an overlay cannot be a project's layer over `tenantEdits` (the tenant's UAT edits when a
 * tenant applies it; none when the operator saves it): the configurator's own checks, in order.
 */
export function overlayProblems(overlay: SaeOverlay, tenantEdits: ConfigEdit[] = []): OverlayProblem[] {
  const problems: OverlayProblem[] = layerConfiguration(baseConfiguration(), {
    tenant: tenantEdits,
    project: overlay.edits,
  }).problems.map(({ layer, index, messageKey, params }) => ({
    part: 'edits',
    // A tenant edit the project's layer cannot follow is still reported (with the layer named).
    ...(layer === 'project' ? { index } : {}),
    messageKey,
    params,
  }));
  if (overlay.features)
    for (const problem of checkFeatureSwitches(overlay.features))
      problems.push({ part: 'features', ...problem });
  if (overlay.workflow !== undefined && overlay.workflow !== null)
    for (const problem of checkWorkflowOverride(caseWorkflow, overlay.workflow).problems)
      problems.push({ part: 'workflow', ...problem });
  if (overlay.list)
    for (const problem of checkListOverride(caseListDefinition, overlay.list))
      problems.push({ part: 'list', ...problem });
  const seen = new Set<string>();
  (overlay.templates ?? []).forEach((template, index) => {
    if (seen.has(template.id))
      problems.push({
        part: 'templates',
        index,
        messageKey: 'saeTemplates.duplicateTemplateId',
        params: { id: template.id },
      });
    seen.add(template.id);
    const problem = compileProblem(template.body);
    if (problem) {
      problems.push({
        part: 'templates',
        index,
        messageKey: 'configurator.template.doesNotCompile',
        params: { line: problem.line, reason: problem.reason },
      });
      return;
    }
    // H.1 narratives render through the narratives module: its helpers decide (as the configurator's save).
    if (template.kind === 'narrative')
      try {
        compileTemplate(template.body, template.lang ?? 'zh');
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        problems.push({ part: 'templates', index, messageKey: error.messageKey, params: error.params });
      }
  });
  return problems;
}

/**
 * Refuses with the first problem's translated message; every problem is in `data.problems`, each
 * with its own message when the caller hands in the request's translator.
 */
export function assertOverlay(
  overlay: SaeOverlay,
  tenantEdits: ConfigEdit[] = [],
  translate?: (key: string, params: MessageParams) => string,
): void {
  const problems = overlayProblems(overlay, tenantEdits);
  if (problems.length === 0) return;
  const first = problems[0]!;
  const data = translate
    ? problems.map((problem) => ({ ...problem, message: translate(problem.messageKey, problem.params) }))
    : problems;
  throw new AppError(Code.badRequest, first.messageKey, first.params, 400, { data: { problems: data } });
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * A project's edits after applying a template: its own edits first, then the template's edits it
 * does not hold yet (so applying the same template twice changes nothing). A template edit that
 * contradicts one of the project's (the same custom field with another definition ...) is left in
 * and refused by the layer check, with its reason.
 */
export function mergeEdits(project: ConfigEdit[], template: ConfigEdit[]): ConfigEdit[] {
  return [...project, ...template.filter((edit) => !project.some((own) => same(own, edit)))];
}
