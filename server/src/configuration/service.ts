/**
 * Tenant and project configuration: edits are made in UAT (drafts), published to PRO as immutable
 * numbered versions with a readable diff and their impact on open cases, rolled back by publishing
 * an earlier version's content as a new version. Cases are checked against PRO and record the
 * version they were checked with.
 */
import {
  baseConfiguration,
  diffConfigurations,
  layerConfiguration,
  resolveConfiguration,
  validateCase,
} from '@pv/engine';
import type {
  ConfigurationChange,
  ConfigEdit,
  EditProblem,
  ResolvedConfiguration,
  ValidationResult,
} from '@pv/engine';
import { AppError, errors } from '../http';
import { Code } from '../http';
import type { Clock } from '../http';
import type { CollectionDefinition, TenantHandle } from '../store';
import { DuplicateKeyError, InvalidStoreRequestError } from '../store';

export const DRAFTS = 'configurationDrafts';
export const VERSIONS = 'configurationVersions';
/** The case collection of case management, read for the impact of a publish. */
export const CASES = 'cases';

export const configurationCollections: CollectionDefinition[] = [
  { name: DRAFTS, scope: 'tenant', audited: true, indexes: [{ fields: { scope: 1 }, unique: true }] },
  { name: VERSIONS, scope: 'tenant', audited: true, indexes: [{ fields: { version: 1 }, unique: true }] },
];

export type Environment = 'UAT' | 'PRO';

/** The layers of a tenant: its own edits and each project's. */
export interface ConfigurationLayersOfTenant {
  tenant: ConfigEdit[];
  projects: Record<string, ConfigEdit[]>;
}

/** Who changed a draft and when is kept by the store (updatedAt, updatedBy) and its audit trail. */
interface DraftDoc {
  /** 'tenant' or 'project:<projectId>'. */
  scope: string;
  edits: ConfigEdit[];
}

export interface ImpactByRule {
  ruleId: string;
  cases: number;
}

export interface PublishImpact {
  openCases: number;
  /** Open cases with at least one error the previous PRO configuration did not report. */
  newlyFailingCases: number;
  byRule: ImpactByRule[];
}

export interface ScopeChanges {
  /** 'tenant' or the project id. */
  scope: string;
  changes: ConfigurationChange[];
}

export interface ConfigurationVersion extends ConfigurationLayersOfTenant {
  version: number;
  publishedAt: string;
  publishedBy: string;
  note?: string;
  /** Set when this version restores an earlier one. */
  rollbackOf?: number;
  changes: ScopeChanges[];
  impact: PublishImpact | null;
}

export interface CheckedCase extends ValidationResult {
  /** The PRO version number the case was checked with; 0 = the base configuration (nothing published). */
  configurationVersion: number;
  configurationHash: string;
}

const scopeOf = (projectId: string | null): string => (projectId ? `project:${projectId}` : 'tenant');

/** Refused edits answer 400 with the first problem's message and every problem in data. */
function refused(problems: EditProblem[]): AppError {
  const first = problems[0]!;
  return new AppError(Code.badRequest, first.messageKey, first.params, 400, { data: { problems } });
}

export class ConfigurationService {
  constructor(
    private readonly handle: TenantHandle,
    private readonly clock: Clock,
  ) {}

  private drafts() {
    return this.handle.collection<DraftDoc>(DRAFTS);
  }

  private versions() {
    return this.handle.collection<ConfigurationVersion>(VERSIONS);
  }

  async uat(): Promise<ConfigurationLayersOfTenant> {
    const layers: ConfigurationLayersOfTenant = { tenant: [], projects: {} };
    for (const draft of await this.drafts().find({})) {
      if (draft.scope === 'tenant') layers.tenant = draft.edits;
      else layers.projects[draft.scope.slice('project:'.length)] = draft.edits;
    }
    return layers;
  }

  async latest(): Promise<ConfigurationVersion | null> {
    return (await this.latestStored())?.version ?? null;
  }

  /** The latest published version with its stored id: unique across stores, so a cache key. */
  async latestStored(): Promise<{ id: string; version: ConfigurationVersion } | null> {
    const found = await this.versions().findOne({}, { sort: { version: -1 } });
    return found ? { id: found._id, version: stripStored(found) } : null;
  }

  async listVersions(): Promise<Omit<ConfigurationVersion, 'tenant' | 'projects'>[]> {
    const list = await this.versions().find({}, { sort: { version: -1 } });
    return list.map(({ version, publishedAt, publishedBy, note, rollbackOf, changes, impact }) => ({
      version,
      publishedAt,
      publishedBy,
      ...(note ? { note } : {}),
      ...(rollbackOf ? { rollbackOf } : {}),
      changes,
      impact,
    }));
  }

  async getVersion(version: number): Promise<ConfigurationVersion> {
    const found = await this.versions().findOne({ version });
    if (!found) throw errors.notFound('configuration.versionNotFound', { version });
    return stripStored(found);
  }

  /** Replaces the UAT edits of the tenant (projectId null) or of one project; refused edits change nothing. */
  async saveDraft(projectId: string | null, edits: ConfigEdit[]): Promise<ConfigEdit[]> {
    const uat = await this.uat();
    const layers = projectId ? { tenant: uat.tenant, project: edits } : { tenant: edits };
    const problems = layerConfiguration(baseConfiguration(), layers).problems.filter(
      (problem) => problem.layer === (projectId ? 'project' : 'tenant'),
    );
    if (problems.length > 0) throw refused(problems);
    // A tenant edit can break a project's edits (e.g. hiding a field a project requires): check them all.
    if (!projectId) {
      for (const [project, projectEdits] of Object.entries(uat.projects)) {
        const broken = layerConfiguration(baseConfiguration(), {
          tenant: edits,
          project: projectEdits,
        }).problems;
        if (broken.length > 0)
          throw refused(broken.map((problem) => ({ ...problem, params: { ...problem.params, project } })));
      }
    }
    const scope = scopeOf(projectId);
    const updated = await this.drafts().updateOne({ scope }, { $set: { edits } });
    if (!updated) await this.drafts().insertOne({ scope, edits });
    return edits;
  }

  /** The configuration a project runs with in an environment, and the PRO version number (0: base). */
  async resolve(
    projectId: string | null,
    environment: Environment,
  ): Promise<{ configuration: ResolvedConfiguration; version: number }> {
    if (environment === 'UAT')
      return {
        configuration: layersFor(await this.uat(), projectId),
        version: (await this.latest())?.version ?? 0,
      };
    const latest = await this.latest();
    return {
      configuration: layersFor(latest ?? { tenant: [], projects: {} }, projectId),
      version: latest?.version ?? 0,
    };
  }

  /** Checks a case with its project's PRO configuration (UAT on request, to try a draft). */
  async check(
    projectId: string | null,
    caseDoc: unknown,
    options: { environment?: Environment; profiles?: string[] } = {},
  ): Promise<CheckedCase> {
    const { configuration, version } = await this.resolve(projectId, options.environment ?? 'PRO');
    const result = validateCase(configuration, caseDoc, {
      now: this.clock.now(),
      ...(options.profiles ? { profiles: options.profiles } : {}),
    });
    return { ...result, configurationVersion: version, configurationHash: configuration.hash };
  }

  /** Publishes the UAT layers as the next PRO version. */
  async publish(note?: string): Promise<ConfigurationVersion> {
    return this.addVersion(await this.uat(), { ...(note ? { note } : {}) });
  }

  /** Restores an earlier version's content as a new version (history is never rewritten). */
  async rollback(version: number, note?: string): Promise<ConfigurationVersion> {
    const target = await this.getVersion(version);
    return this.addVersion(
      { tenant: target.tenant, projects: target.projects },
      { rollbackOf: version, ...(note ? { note } : {}) },
    );
  }

  /** What publishing UAT now would change in PRO and its impact on open cases, without publishing. */
  async previewPublish(): Promise<{ changes: ScopeChanges[]; impact: PublishImpact | null }> {
    const current = await this.latest();
    return this.compose(current ?? { tenant: [], projects: {} }, await this.uat());
  }

  private async compose(
    previous: ConfigurationLayersOfTenant,
    next: ConfigurationLayersOfTenant,
  ): Promise<{ changes: ScopeChanges[]; impact: PublishImpact | null }> {
    const scopes = [null, ...new Set([...Object.keys(previous.projects), ...Object.keys(next.projects)])];
    const changes: ScopeChanges[] = [];
    for (const projectId of scopes) {
      const scopeChanges = diffConfigurations(layersFor(previous, projectId), layersFor(next, projectId));
      if (projectId !== null) {
        // Tenant changes show once, under 'tenant', not again under every project.
        const tenantLines = new Set(changes[0]?.changes.map((change) => change.text.en));
        const own = scopeChanges.filter((change) => !tenantLines.has(change.text.en));
        if (own.length > 0) changes.push({ scope: projectId, changes: own });
      } else changes.push({ scope: 'tenant', changes: scopeChanges });
    }
    return { changes, impact: await this.impact(previous, next) };
  }

  private async addVersion(
    next: ConfigurationLayersOfTenant,
    extra: { note?: string; rollbackOf?: number },
  ): Promise<ConfigurationVersion> {
    const current = await this.latest();
    const { changes, impact } = await this.compose(current ?? { tenant: [], projects: {} }, next);
    const version: ConfigurationVersion = {
      version: (current?.version ?? 0) + 1,
      tenant: next.tenant,
      projects: next.projects,
      publishedAt: this.clock.now().toISOString(),
      publishedBy: this.handle.actor.userId,
      ...extra,
      changes,
      impact,
    };
    try {
      const stored = await this.versions().insertOne(version);
      return stripStored(stored);
    } catch (error) {
      // Two publishes at once: the second loses the race for the number and is told to retry.
      if (error instanceof DuplicateKeyError) throw errors.conflict('configuration.publishConflict');
      throw error;
    }
  }

  /** How many open cases the new layers would newly fail, by rule; null when case management is absent. */
  private async impact(
    previous: ConfigurationLayersOfTenant,
    next: ConfigurationLayersOfTenant,
  ): Promise<PublishImpact | null> {
    let open: Record<string, unknown>[];
    try {
      open = await this.handle
        .collection<Record<string, unknown>>(CASES)
        .find({ 'state.isCompleted': { $ne: true }, 'state.validity': { $nin: ['invalid', 'deleted'] } });
    } catch (error) {
      if (error instanceof InvalidStoreRequestError) return null;
      throw error;
    }
    const now = this.clock.now();
    const byRule = new Map<string, number>();
    let newlyFailingCases = 0;
    for (const doc of open) {
      const projectId = projectOfCase(doc);
      const errorKeys = (configuration: ResolvedConfiguration) =>
        validateCase(configuration, doc, { now })
          .findings.filter((finding) => finding.severity === 'error')
          .map((finding) => ({ key: `${finding.ruleId}|${finding.path}`, ruleId: finding.ruleId }));
      const before = new Set(errorKeys(layersFor(previous, projectId)).map((item) => item.key));
      const fresh = errorKeys(layersFor(next, projectId)).filter((item) => !before.has(item.key));
      if (fresh.length === 0) continue;
      newlyFailingCases++;
      for (const ruleId of new Set(fresh.map((item) => item.ruleId)))
        byRule.set(ruleId, (byRule.get(ruleId) ?? 0) + 1);
    }
    return {
      openCases: open.length,
      newlyFailingCases,
      byRule: [...byRule]
        .map(([ruleId, cases]) => ({ ruleId, cases }))
        .sort((a, b) => b.cases - a.cases || a.ruleId.localeCompare(b.ruleId)),
    };
  }
}

/** The project a case belongs to (report.studyProjectId). */
export function projectOfCase(doc: Record<string, unknown>): string | null {
  const report = doc.report as { studyProjectId?: unknown } | undefined;
  return typeof report?.studyProjectId === 'string' && report.studyProjectId !== ''
    ? report.studyProjectId
    : null;
}

function layersFor(layers: ConfigurationLayersOfTenant, projectId: string | null): ResolvedConfiguration {
  return resolveConfiguration(baseConfiguration(), {
    tenant: layers.tenant,
    project: projectId ? (layers.projects[projectId] ?? []) : [],
  });
}

const STORE_FIELDS = ['_id', 'tenantId', 'rev', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'];

/** A stored version without the store's bookkeeping fields. */
function stripStored(doc: object): ConfigurationVersion {
  return Object.fromEntries(
    Object.entries(doc).filter(([key]) => !STORE_FIELDS.includes(key)),
  ) as unknown as ConfigurationVersion;
}
