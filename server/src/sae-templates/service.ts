/**
 * Applying a project SAE template: its overlay is written into the project's UAT drafts (schema and
 * rule edits in the configuration module, switches/workflow/list/templates in the configurator),
 * never into PRO; the project follows it once the configurator's signed publish has run.
 */
import { ConfigurationService } from '../configuration/index';
import { ConfiguratorService } from '../configurator/index';
import type { TemplateDefinition } from '../configurator/index';
import { errors } from '../http';
import type { MessageParams } from '../i18n';
import type { Clock } from '../http';
import type { PlatformHandle, TenantHandle } from '../store';
import { InvalidStoreRequestError } from '../store';
import type { SoftDeleted } from '../entities';
import { assertOverlay, mergeEdits } from './overlay';
import type { SaeOverlay } from './overlay';

export const SAE_TEMPLATES = 'saeTemplates';

export interface SaeTemplate extends SoftDeleted {
  code: string;
  name: string;
  nameEn: string;
  description?: string;
  descriptionEn?: string;
  status: 'enabled' | 'disabled';
  overlay: SaeOverlay;
}

export interface ApplyResult {
  projectId: string;
  templateId: string;
  environment: 'UAT';
  /** The project's UAT edits after the apply, and how many of them the template added. */
  edits: number;
  editsAdded: number;
  features: string[];
  workflow: boolean;
  list: boolean;
  templates: string[];
}

/** An enabled, not deleted template (what tenants see). */
export async function enabledTemplate(
  platform: PlatformHandle,
  id: string,
): Promise<SaeTemplate & { _id: string }> {
  const template = await platform.collection<SaeTemplate>(SAE_TEMPLATES).findOne({ _id: id });
  if (!template || template.deleted || template.status !== 'enabled')
    throw errors.notFound('saeTemplates.notFound');
  return template;
}

async function assertProject(handle: TenantHandle, projectId: string): Promise<void> {
  let project: SoftDeleted | null = null;
  try {
    project = await handle.collection<SoftDeleted>('projects').findOne({ _id: projectId });
  } catch (error) {
    // Without the projects module there is no project to configure.
    if (!(error instanceof InvalidStoreRequestError)) throw error;
  }
  if (!project || project.deleted) throw errors.notFound('saeTemplates.projectNotFound', { projectId });
}

/**
 * Writes a template's overlay into a project's UAT drafts. Everything is checked first against the
 * tenant's current UAT (a refusal changes nothing); then the edits are merged (the project's own
 * kept, the template's added once), switches overlaid, workflow and list replaced when the template
 * has them, templates replaced by id.
 */
export async function applyTemplate(
  handle: TenantHandle,
  clock: Clock,
  template: SaeTemplate & { _id: string },
  projectId: string,
  translate?: (key: string, params: MessageParams) => string,
): Promise<ApplyResult> {
  await assertProject(handle, projectId);
  const configuration = new ConfigurationService(handle, clock);
  const configurator = new ConfiguratorService(handle, clock);
  const uat = await configuration.uat();
  const ownEdits = uat.projects[projectId] ?? [];
  const edits = mergeEdits(ownEdits, template.overlay.edits);
  const own = (await configurator.uat())[`project:${projectId}`] ?? {};
  const overlay = template.overlay;
  const features = overlay.features ? { ...(own.features ?? {}), ...overlay.features } : undefined;
  assertOverlay(
    {
      edits,
      ...(features ? { features } : {}),
      ...(overlay.workflow ? { workflow: overlay.workflow } : {}),
      ...(overlay.list ? { list: overlay.list } : {}),
      ...(overlay.templates ? { templates: overlay.templates } : {}),
    },
    uat.tenant,
    translate,
  );

  await configuration.saveDraft(projectId, edits);
  if (features) await configurator.saveFeatures(projectId, features);
  if (overlay.workflow) await configurator.saveWorkflow(projectId, overlay.workflow);
  if (overlay.list) await configurator.saveList(projectId, overlay.list);
  for (const item of overlay.templates ?? [])
    await configurator.saveTemplate(projectId, item as TemplateDefinition);
  return {
    projectId,
    templateId: template._id,
    environment: 'UAT',
    edits: edits.length,
    editsAdded: edits.length - ownEdits.length,
    features: Object.keys(overlay.features ?? {}),
    workflow: Boolean(overlay.workflow),
    list: Boolean(overlay.list),
    templates: (overlay.templates ?? []).map((item) => item.id),
  };
}
