/** The configurator calls the screens make (server/src/configurator/index.ts). */
import { api } from '../../app/api';
import type { FeatureSwitches, ListOverride, WorkflowDefinition, CaseListDefinition } from '@pv/engine';
import type { LocalisedText } from '../../i18n';

export interface ProjectChoice {
  id: string;
  code: string;
  name: string;
  nameEn: string;
}

export interface TemplateDefinition {
  id: string;
  kind: 'narrative' | 'message';
  name: LocalisedText;
  body: string;
  /** A narrative's language (offered for drafts in that language); absent = any. */
  lang?: 'zh' | 'en';
}

export interface ProjectConfiguration {
  environment: 'UAT' | 'PRO';
  version: number;
  features: FeatureSwitches;
  workflow: { override: unknown; definition: WorkflowDefinition };
  list: { override: ListOverride | null; definition: CaseListDefinition };
  templates: TemplateDefinition[];
}

export interface ChangeLine {
  scope: string;
  part?: string;
  text: LocalisedText;
}

export interface PublishPreview {
  changes: ChangeLine[];
  configuration: {
    changes: { scope: string; changes: { text: LocalisedText }[] }[];
    impact: {
      openCases: number;
      newlyFailingCases: number;
      byRule: { ruleId: string; cases: number }[];
    } | null;
  };
}

export interface VersionEntry {
  version: number;
  publishedAt: string;
  publishedBy: string;
  note?: string;
  rollbackOf?: number;
  changes: { scope: string; changes: { text: LocalisedText }[] }[];
  configuratorChanges: ChangeLine[];
}

export interface CompileAnswer {
  problem: { line: number; column: number | null; reason: string } | null;
  text: string | null;
  renderError: string | null;
}

const base = '/configurator';
const project = (projectId: string) => `${base}/uat/projects/${encodeURIComponent(projectId)}`;

/** Refusals are shown beside the edit, not as a toast: every save is silent. */
export const configurator = {
  projects: () => api.request<ProjectChoice[]>(`${base}/projects`),
  load: (projectId: string, environment: 'UAT' | 'PRO' = 'UAT') =>
    api.request<ProjectConfiguration>(`${base}/projects/${encodeURIComponent(projectId)}`, {
      params: { environment },
    }),
  saveFeatures: (projectId: string, features: Partial<FeatureSwitches>) =>
    api.request(`${project(projectId)}/features`, { method: 'PUT', body: { features }, silent: true }),
  saveWorkflow: (projectId: string, override: unknown) =>
    api.request(`${project(projectId)}/workflow`, { method: 'PUT', body: { override }, silent: true }),
  saveList: (projectId: string, override: ListOverride | null) =>
    api.request(`${project(projectId)}/list`, { method: 'PUT', body: { override }, silent: true }),
  saveTemplate: (projectId: string, template: TemplateDefinition) =>
    api.request(`${project(projectId)}/templates/${encodeURIComponent(template.id)}`, {
      method: 'PUT',
      body: {
        kind: template.kind,
        name: template.name,
        body: template.body,
        ...(template.kind === 'narrative' && template.lang ? { lang: template.lang } : {}),
      },
      silent: true,
    }),
  deleteTemplate: (projectId: string, templateId: string) =>
    api.request(`${project(projectId)}/templates/${encodeURIComponent(templateId)}`, {
      method: 'DELETE',
      silent: true,
    }),
  /** The compile check; given a case, the template rendered over it too (the cases module renders). */
  preview: (body: string, caseId?: string, kind?: TemplateDefinition['kind']) =>
    caseId
      ? api.request<CompileAnswer>(`/cases/${encodeURIComponent(caseId)}/template-preview`, {
          method: 'POST',
          body: { body, ...(kind ? { kind } : {}) },
          silent: true,
        })
      : api.request<CompileAnswer>(`${base}/templates/preview`, {
          method: 'POST',
          body: { body },
          silent: true,
        }),
  publishPreview: () => api.request<PublishPreview>(`${base}/publish/preview`),
  publish: (password: string, note?: string) =>
    api.request<{ version: number }>(`${base}/publish`, {
      method: 'POST',
      body: note ? { password, note } : { password },
      silent: true,
    }),
  rollback: (version: number, password: string) =>
    api.request<{ version: number }>(`${base}/rollback`, {
      method: 'POST',
      body: { version, password },
      silent: true,
    }),
  versions: () => api.request<VersionEntry[]>(`${base}/versions`),
};

/** The server's translated refusal, or the error's text. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
