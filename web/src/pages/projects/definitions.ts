/**
 * The project screens' generic-renderer configurations (schemas/ui/admin/*.json). The study-site
 * and project-drug lists name `{projectId}` in their paths; `forProject` fills it.
 */
import type {
  FormDefinition,
  ListDefinition,
  PageDefinition,
  RowActionDefinition,
} from '../../renderers/definition';
import { resolvePage } from '../../renderers/form/entity-form';
import projects from '../../../../schemas/ui/admin/projects.json';
import sites from '../../../../schemas/ui/admin/project-sites.json';
import drugs from '../../../../schemas/ui/admin/project-drugs.json';
import generators from '../../../../schemas/ui/admin/report-code-generators.json';

// JSON imports widen literal types (method, paging ...); the files are checked by definitions.test.ts.
// Forms name entity fields; resolvePage derives their schemas from schemas/entities.
export const projectsPage = resolvePage(projects as unknown as PageDefinition);
export const projectList = projectsPage.lists[0]!;
export const generatorsPage = resolvePage(generators as unknown as PageDefinition);
const sitesPage = resolvePage(sites as unknown as PageDefinition);
const drugsPage = resolvePage(drugs as unknown as PageDefinition);

export function lockAction(locked: boolean): RowActionDefinition {
  return projectList.rowActions!.find((action) => action.key === (locked ? 'unlock' : 'lock'))!;
}

/**
 * A project's list (sites or drugs) with its id in every path; read-only while the project is
 * locked (the server refuses the changes anyway; the screen does not offer them).
 */
export function forProject(kind: 'sites' | 'drugs', projectId: string, locked = false): ListDefinition {
  const page = kind === 'sites' ? sitesPage : drugsPage;
  const text = JSON.stringify(page.lists[0]).replaceAll('{projectId}', encodeURIComponent(projectId));
  const list = JSON.parse(text) as ListDefinition;
  if (!locked) return list;
  const { create: _create, update: _update, ...form } = list.form!;
  return { ...list, form, rowActions: [] };
}

/** The basic information form: no edit while the project is locked. */
export function basicForm(locked: boolean): FormDefinition {
  const { update, ...form } = projectList.form!;
  return locked ? form : { ...form, update: update! };
}

export const definitionFiles: Record<string, PageDefinition> = {
  projects: projectsPage,
  'project-sites': sitesPage,
  'project-drugs': drugsPage,
  'report-code-generators': generatorsPage,
};
