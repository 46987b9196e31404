/**
 * The configurator: per-project feature switches, workflow overrides, case-list overrides and
 * Handlebars templates, edited in UAT and published to PRO together with the schema and rule
 * edits of the configuration module (one version number, one e-signature, one history).
 */
import {
  caseListDefinition,
  applyListOverride,
  checkFeatureSwitches,
  checkListOverride,
  checkWorkflowOverride,
  resolveFeatures,
  caseWorkflow,
} from '@pv/engine';
import type {
  CaseListDefinition,
  ConfiguratorProblem,
  FeatureSwitches,
  ListOverride,
  ConfigEdit,
  CodelistValue,
  WorkflowDefinition,
} from '@pv/engine';
import { ConfigurationService } from '../configuration/index';
import type { ConfigurationVersion, Environment } from '../configuration/index';
import { AppError, errors } from '../http';
import { Code } from '../http';
import { noClock } from '../clock';
import type { Clock } from '../clock';
import type { CollectionDefinition, TenantHandle } from '../store';
import { InvalidStoreRequestError } from '../store';
import { compileTemplate } from './render';
import { compileProblem } from './templates';
import type { TemplateDefinition } from './templates';

export const CONFIGURATOR_DRAFTS = 'configuratorDrafts';
/** The case's current workflow node (its code list follows the project's workflow). */
const NODE_PATH = 'state.workflowNode';
const isNodeCodes = (edit: ConfigEdit): boolean => edit.op === 'changeOptions' && edit.path === NODE_PATH;
export const CONFIGURATOR_VERSIONS = 'configuratorVersions';
/** Case management's projects: a published workflow override lands on the project it belongs to. */
const PROJECTS = 'projects';

export const configuratorCollections: CollectionDefinition[] = [
  {
    name: CONFIGURATOR_DRAFTS,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { scope: 1 }, unique: true }],
  },
  {
    name: CONFIGURATOR_VERSIONS,
    scope: 'tenant',
    audited: true,
    indexes: [{ fields: { version: 1 }, unique: true }],
  },
];

/** What one scope ('tenant' or 'project:<id>') configures; absent parts run with the base. */
export interface ScopeContent {
  features?: Partial<FeatureSwitches>;
  /** JSON merge patch over schemas/workflows/case.json. */
  workflow?: unknown;
  list?: ListOverride | null;
  templates?: TemplateDefinition[];
}

export type ContentOfTenant = Record<string, ScopeContent>;

interface DraftDoc extends ScopeContent {
  scope: string;
}

export interface ConfiguratorChange {
  scope: string;
  part: 'features' | 'workflow' | 'list' | 'templates';
  text: { zh: string; en: string };
}

export interface ConfiguratorVersion {
  version: number;
  content: ContentOfTenant;
  changes: ConfiguratorChange[];
  publishedAt: string;
  publishedBy: string;
  signatureId: string;
  rollbackOf?: number;
}

/** The e-signature of a publish or rollback: the identity module's signWithPassword in production. */
export type PublishSigner = (
  password: string,
  meaning: string,
  subjectId: string,
) => Promise<{ _id: string }>;

export const scopeOf = (projectId: string | null): string => (projectId ? `project:${projectId}` : 'tenant');

function refused(problems: ConfiguratorProblem[]): AppError {
  const first = problems[0]!;
  return new AppError(Code.badRequest, first.messageKey, first.params, 400, { data: { problems } });
}

const STORE_FIELDS = new Set(['_id', 'tenantId', 'rev', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy']);
function strip<T>(doc: object): T {
  return Object.fromEntries(Object.entries(doc).filter(([key]) => !STORE_FIELDS.has(key))) as T;
}

function contentOf(doc: DraftDoc): ScopeContent {
  const { scope: _scope, ...content } = strip<DraftDoc>(doc);
  return content;
}

/** The project's effective content: the tenant's parts under the project's own. */
function effective(content: ContentOfTenant, projectId: string | null): ScopeContent {
  const tenant = content.tenant ?? {};
  const project = projectId ? (content[scopeOf(projectId)] ?? {}) : {};
  const templates = new Map<string, TemplateDefinition>();
  for (const template of [...(tenant.templates ?? []), ...(project.templates ?? [])])
    templates.set(template.id, template);
  return {
    features: { ...(tenant.features ?? {}), ...(project.features ?? {}) },
    workflow: project.workflow ?? tenant.workflow ?? null,
    list: project.list ?? tenant.list ?? null,
    templates: [...templates.values()],
  };
}

export interface ProjectConfiguration {
  environment: Environment;
  /** PRO version the content comes from (UAT: the version it would follow); 0 = nothing published. */
  version: number;
  features: FeatureSwitches;
  workflow: { override: unknown; definition: WorkflowDefinition };
  list: { override: ListOverride | null; definition: CaseListDefinition };
  templates: TemplateDefinition[];
}

export class ConfiguratorService {
  constructor(
    private readonly handle: TenantHandle,
    private readonly clock: Clock,
  ) {}

  private drafts() {
    return this.handle.collection<DraftDoc>(CONFIGURATOR_DRAFTS);
  }

  private versions() {
    return this.handle.collection<ConfiguratorVersion>(CONFIGURATOR_VERSIONS);
  }

  private configuration() {
    return new ConfigurationService(this.handle, this.clock);
  }

  async uat(): Promise<ContentOfTenant> {
    const content: ContentOfTenant = {};
    for (const draft of await this.drafts().find({})) content[draft.scope] = contentOf(draft);
    return content;
  }

  /** The content of PRO version `version` (latest when omitted); versions published without configurator content inherit the one before. */
  async pro(version?: number): Promise<{ version: number; content: ContentOfTenant }> {
    const filter = version === undefined ? {} : { version: { $lte: version } };
    const found = await this.versions().findOne(filter, { sort: { version: -1 } });
    const latest = version ?? (await this.configuration().latest())?.version ?? 0;
    return { version: latest, content: found ? found.content : {} };
  }

  async projectConfiguration(
    projectId: string | null,
    environment: Environment,
  ): Promise<ProjectConfiguration> {
    const { version, content } =
      environment === 'UAT'
        ? { version: (await this.pro()).version, content: await this.uat() }
        : await this.pro();
    const own = effective(content, projectId);
    const { definition } = checkWorkflowOverride(caseWorkflow, own.workflow);
    return {
      environment,
      version,
      features: resolveFeatures(own.features),
      workflow: { override: own.workflow ?? null, definition },
      list: { override: own.list ?? null, definition: applyListOverride(caseListDefinition, own.list) },
      templates: own.templates ?? [],
    };
  }

  /** Changes one part of a scope's UAT content; the part is checked first and a refusal changes nothing. */
  private async savePart(projectId: string | null, part: Partial<ScopeContent>): Promise<ScopeContent> {
    const scope = scopeOf(projectId);
    const drafts = this.drafts();
    const current = await drafts.findOne({ scope });
    const set: Record<string, unknown> = {};
    const unset: Record<string, ''> = {};
    for (const [key, value] of Object.entries(part)) {
      if (value === null || value === undefined) unset[key] = '';
      else set[key] = value;
    }
    if (current) {
      const update = {
        ...(Object.keys(set).length ? { $set: set } : {}),
        ...(Object.keys(unset).length ? { $unset: unset } : {}),
      };
      const updated = await drafts.updateOne({ scope }, update, { expectedRev: current.rev });
      if (!updated) throw errors.conflict('configurator.draftConflict');
      return contentOf(updated);
    }
    return contentOf(await drafts.insertOne({ scope, ...set }));
  }

  async saveFeatures(projectId: string | null, features: Record<string, unknown>): Promise<ScopeContent> {
    const problems = checkFeatureSwitches(features);
    if (problems.length) throw refused(problems);
    return this.savePart(projectId, { features: features as Partial<FeatureSwitches> });
  }

  async saveWorkflow(projectId: string | null, override: unknown): Promise<ScopeContent> {
    if (override !== null) {
      const { problems } = checkWorkflowOverride(caseWorkflow, override);
      if (problems.length) throw refused(problems);
    }
    return this.savePart(projectId, { workflow: override });
  }

  async saveList(projectId: string | null, override: ListOverride | null): Promise<ScopeContent> {
    if (override !== null) {
      const problems = checkListOverride(caseListDefinition, override);
      if (problems.length) throw refused(problems);
    }
    return this.savePart(projectId, { list: override });
  }

  async saveTemplate(projectId: string | null, template: TemplateDefinition): Promise<ScopeContent> {
    // H.1 narratives render through the narratives module: its check (fixed helpers) decides.
    if (template.kind === 'narrative') compileTemplate(template.body, template.lang ?? 'zh');
    const problem = compileProblem(template.body);
    if (problem)
      throw refused([
        {
          messageKey: 'configurator.template.doesNotCompile',
          params: { line: problem.line, reason: problem.reason },
        },
      ]);
    const current = (await this.drafts().findOne({ scope: scopeOf(projectId) }))?.templates ?? [];
    const templates = [...current.filter((item) => item.id !== template.id), template];
    return this.savePart(projectId, { templates });
  }

  async deleteTemplate(projectId: string | null, templateId: string): Promise<ScopeContent> {
    const current = (await this.drafts().findOne({ scope: scopeOf(projectId) }))?.templates ?? [];
    if (!current.some((item) => item.id === templateId))
      throw errors.notFound('configurator.template.notFound', { id: templateId });
    return this.savePart(projectId, { templates: current.filter((item) => item.id !== templateId) });
  }

  /** What publishing now would change: the configurator's parts and the schema/rule edits, with impact. */
  async previewPublish(): Promise<{
    changes: ConfiguratorChange[];
    configuration: Awaited<ReturnType<ConfigurationService['previewPublish']>>;
  }> {
    return {
      changes: describeChanges((await this.pro()).content, await this.uat()),
      configuration: await this.configuration().previewPublish(),
    };
  }

  /** Publishes UAT (schema edits and configurator content) to PRO as one signed, numbered version. */
  async publish(sign: PublishSigner, password: string, note?: string) {
    const next = await this.uat();
    // Checked again: a draft saved under older base definitions must not reach PRO unchecked.
    for (const [scope, content] of Object.entries(next)) recheck(scope, content);
    const expected = ((await this.configuration().latest())?.version ?? 0) + 1;
    const signature = await sign(password, 'configuration.publish', String(expected));
    await this.syncWorkflowNodeCodes(next);
    const published = await this.configuration().publish(note);
    return this.record(published, next, signature._id);
  }

  /**
   * A case at a node the project's workflow adds (a second medical review ...) must still pass its
   * checks: the case schema's node code list (state.workflowNode) gets the added nodes, as a
   * changeOptions edit of the same layer that the configurator keeps in step with the workflow.
   */
  private async syncWorkflowNodeCodes(content: ContentOfTenant): Promise<void> {
    const configuration = this.configuration();
    const layers = await configuration.uat();
    const addedNodes = (override: unknown, skip: ReadonlySet<string>): CodelistValue[] =>
      override
        ? Object.entries(checkWorkflowOverride(caseWorkflow, override).definition.nodes)
            .filter(([id]) => !(id in caseWorkflow.nodes) && !skip.has(id))
            .map(([id, node]) => ({ code: id, zh: node.label.zh, en: node.label.en }))
        : [];
    const sync = async (projectId: string | null, edits: ConfigEdit[], add: CodelistValue[]) => {
      const kept = edits.filter((edit) => !isNodeCodes(edit));
      const next = add.length ? [...kept, { op: 'changeOptions' as const, path: NODE_PATH, add }] : kept;
      if (JSON.stringify(next) !== JSON.stringify(edits)) await configuration.saveDraft(projectId, next);
    };
    const tenantAdds = addedNodes(content.tenant?.workflow, new Set());
    await sync(null, layers.tenant, tenantAdds);
    const projectIds = new Set([
      ...Object.keys(layers.projects),
      ...Object.keys(content)
        .filter((scope) => scope.startsWith('project:'))
        .map((scope) => scope.slice('project:'.length)),
    ]);
    const byTenant = new Set(tenantAdds.map((value) => value.code));
    for (const projectId of projectIds)
      await sync(
        projectId,
        layers.projects[projectId] ?? [],
        addedNodes(content[scopeOf(projectId)]?.workflow, byTenant),
      );
  }

  /** Restores an earlier version (schema edits and configurator content) as a new signed version. */
  async rollback(sign: PublishSigner, password: string, version: number, note?: string) {
    await this.configuration().getVersion(version);
    const { content } = await this.pro(version);
    const expected = ((await this.configuration().latest())?.version ?? 0) + 1;
    const signature = await sign(password, 'configuration.rollback', String(expected));
    const published = await this.configuration().rollback(version, note);
    return this.record(published, content, signature._id, version);
  }

  private async record(
    published: ConfigurationVersion,
    content: ContentOfTenant,
    signatureId: string,
    rollbackOf?: number,
  ) {
    const previous = await this.pro(published.version - 1);
    const changes = describeChanges(previous.content, content);
    const stored = await this.versions().insertOne({
      version: published.version,
      content,
      changes,
      publishedAt: published.publishedAt,
      publishedBy: published.publishedBy,
      signatureId,
      ...(rollbackOf ? { rollbackOf } : {}),
    });
    await this.applyWorkflows(previous.content, content);
    return { ...published, configurator: strip<ConfiguratorVersion>(stored) };
  }

  /**
   * Case management reads a project's workflow from the project document (workflowOverride):
   * a published change lands there. Projects that do not exist yet are skipped.
   */
  private async applyWorkflows(previous: ContentOfTenant, next: ContentOfTenant): Promise<void> {
    const projectIds = new Set(
      [...Object.keys(previous), ...Object.keys(next)]
        .filter((scope) => scope.startsWith('project:'))
        .map((scope) => scope.slice('project:'.length)),
    );
    const tenantChanged =
      JSON.stringify(previous.tenant?.workflow ?? null) !== JSON.stringify(next.tenant?.workflow ?? null);
    let projects;
    try {
      projects = this.handle.collection<{ workflowOverride?: unknown }>(PROJECTS);
      if (tenantChanged) for (const project of await projects.find({})) projectIds.add(String(project._id));
    } catch (error) {
      if (error instanceof InvalidStoreRequestError) return;
      throw error;
    }
    for (const projectId of projectIds) {
      const before = effective(previous, projectId).workflow ?? null;
      const after = effective(next, projectId).workflow ?? null;
      if (JSON.stringify(before) === JSON.stringify(after)) continue;
      await projects.updateOne(
        { _id: projectId },
        after === null ? { $unset: { workflowOverride: '' } } : { $set: { workflowOverride: after } },
      );
    }
  }

  /** Version history: the configuration's versions with the configurator's changes beside them. */
  async history() {
    const versions = await this.configuration().listVersions();
    const mine = new Map(
      (await this.versions().find({}, { sort: { version: -1 } })).map((doc) => [doc.version, doc]),
    );
    return versions.map((version) => {
      const own = mine.get(version.version);
      return {
        ...version,
        configuratorChanges: own?.changes ?? [],
        signatureId: own?.signatureId ?? null,
      };
    });
  }
}

function recheck(scope: string, content: ScopeContent): void {
  const problems: ConfiguratorProblem[] = [
    ...(content.features ? checkFeatureSwitches(content.features) : []),
    ...(content.workflow ? checkWorkflowOverride(caseWorkflow, content.workflow).problems : []),
    ...(content.list ? checkListOverride(caseListDefinition, content.list) : []),
  ];
  for (const template of content.templates ?? []) {
    const problem = compileProblem(template.body);
    if (problem)
      problems.push({
        messageKey: 'configurator.template.doesNotCompile',
        params: { line: problem.line, reason: problem.reason },
      });
  }
  if (problems.length)
    throw refused(problems.map((problem) => ({ ...problem, params: { ...problem.params, scope } })));
}

const FEATURE_LABELS: Record<keyof FeatureSwitches, { zh: string; en: string }> = {
  editOthersData: { zh: '编辑他人录入数据', en: "Edit others' entered data" },
  sdv: { zh: 'SDV', en: 'SDV' },
  dmReview: { zh: 'DM审核', en: 'DM review' },
  mmReview: { zh: 'MM审核', en: 'MM review' },
  dataQuery: { zh: '数据质疑', en: 'Data query' },
  piSign: { zh: 'PI签字', en: 'PI sign' },
  freeze: { zh: '冻结', en: 'Freeze' },
  patientSide: { zh: '患者端启用', en: 'Patient side' },
  qrPhoneBinding: { zh: '二维码及手机号绑定', en: 'QR-code and phone binding' },
  editTimeLimitHours: { zh: '数据编辑时限（小时）', en: 'Data edit time limit (hours)' },
};

const shown = (value: unknown, lang: 'zh' | 'en'): string => {
  if (value === true) return lang === 'zh' ? '开' : 'on';
  if (value === false) return lang === 'zh' ? '关' : 'off';
  if (value === null || value === undefined) return lang === 'zh' ? '不限' : 'unlimited';
  return String(value);
};

/** Readable zh/en lines for what changes between two contents, per scope and part. */
export function describeChanges(before: ContentOfTenant, after: ContentOfTenant): ConfiguratorChange[] {
  const changes: ConfiguratorChange[] = [];
  const scopes = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const scope of scopes) {
    const a = before[scope] ?? {};
    const b = after[scope] ?? {};
    const fa = resolveFeatures(a.features);
    const fb = resolveFeatures(b.features);
    for (const name of Object.keys(FEATURE_LABELS) as (keyof FeatureSwitches)[]) {
      if (fa[name] === fb[name]) continue;
      const label = FEATURE_LABELS[name];
      changes.push({
        scope,
        part: 'features',
        text: {
          zh: `${label.zh}：${shown(fa[name], 'zh')} → ${shown(fb[name], 'zh')}`,
          en: `${label.en}: ${shown(fa[name], 'en')} → ${shown(fb[name], 'en')}`,
        },
      });
    }
    if (JSON.stringify(a.workflow ?? null) !== JSON.stringify(b.workflow ?? null)) {
      const before = checkWorkflowOverride(caseWorkflow, a.workflow).definition;
      const after = checkWorkflowOverride(caseWorkflow, b.workflow).definition;
      const added = Object.keys(after.nodes).filter((id) => !before.nodes[id]);
      const removed = Object.keys(before.nodes).filter((id) => !after.nodes[id]);
      const changed = Object.keys(after.nodes).filter(
        (id) => before.nodes[id] && JSON.stringify(before.nodes[id]) !== JSON.stringify(after.nodes[id]),
      );
      const names = (ids: string[], defs: WorkflowDefinition, lang: 'zh' | 'en') =>
        ids.map((id) => defs.nodes[id]?.label[lang] ?? id).join(lang === 'zh' ? '、' : ', ');
      const parts = (lang: 'zh' | 'en') =>
        [
          added.length ? `${lang === 'zh' ? '新增节点' : 'nodes added'} ${names(added, after, lang)}` : '',
          removed.length
            ? `${lang === 'zh' ? '删除节点' : 'nodes removed'} ${names(removed, before, lang)}`
            : '',
          changed.length
            ? `${lang === 'zh' ? '修改节点' : 'nodes changed'} ${names(changed, after, lang)}`
            : '',
        ]
          .filter(Boolean)
          .join(lang === 'zh' ? '；' : '; ');
      changes.push({
        scope,
        part: 'workflow',
        text: { zh: `工作流：${parts('zh') || '调整'}`, en: `Workflow: ${parts('en') || 'adjusted'}` },
      });
    }
    if (JSON.stringify(a.list ?? null) !== JSON.stringify(b.list ?? null)) {
      const columns = applyListOverride(caseListDefinition, b.list).columns.map((column) => column.id);
      changes.push({
        scope,
        part: 'list',
        text: { zh: `病例列表：列 ${columns.join('、')}`, en: `Case list: columns ${columns.join(', ')}` },
      });
    }
    const ta = new Map((a.templates ?? []).map((t) => [t.id, t]));
    const tb = new Map((b.templates ?? []).map((t) => [t.id, t]));
    for (const [id, template] of tb) {
      const old = ta.get(id);
      if (old && JSON.stringify(old) === JSON.stringify(template)) continue;
      changes.push({
        scope,
        part: 'templates',
        text: old
          ? { zh: `模板已修改：${template.name.zh}`, en: `Template changed: ${template.name.en}` }
          : { zh: `新增模板：${template.name.zh}`, en: `Template added: ${template.name.en}` },
      });
    }
    for (const [id, template] of ta)
      if (!tb.has(id))
        changes.push({
          scope,
          part: 'templates',
          text: { zh: `删除模板：${template.name.zh}`, en: `Template removed: ${template.name.en}` },
        });
  }
  return changes;
}

/**
 * The feature switches a project runs with in PRO (or UAT when the caller works there): what case
 * management, queries and the patient side call before they act.
 */
export async function projectFeatures(
  handle: TenantHandle,
  projectId: string,
  environment: Environment = 'PRO',
): Promise<FeatureSwitches> {
  return (await new ConfiguratorService(handle, noClock).projectConfiguration(projectId, environment))
    .features;
}

/** The case list a project shows (columns and filters in its configured order). */
export async function projectCaseList(
  handle: TenantHandle,
  projectId: string,
  environment: Environment = 'PRO',
): Promise<CaseListDefinition> {
  return (await new ConfiguratorService(handle, noClock).projectConfiguration(projectId, environment)).list
    .definition;
}

/** The templates of a kind a project may use (tenant templates and the project's own). */
export async function projectTemplates(
  handle: TenantHandle,
  projectId: string | null,
  kind: TemplateDefinition['kind'],
  environment: Environment = 'PRO',
): Promise<TemplateDefinition[]> {
  const { templates } = await new ConfiguratorService(handle, noClock).projectConfiguration(
    projectId,
    environment,
  );
  return templates.filter((template) => template.kind === kind);
}
