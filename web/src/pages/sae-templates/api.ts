/** The tenant's calls for project SAE templates (server/src/sae-templates). */
import { api } from '../../app/api';
import type { Overlay } from './summary';

export interface SaeTemplateChoice {
  id: string;
  code: string;
  name: string;
  nameEn: string;
  description: string;
  descriptionEn: string;
  overlay: Overlay;
}

export interface ApplyResult {
  projectId: string;
  templateId: string;
  environment: 'UAT';
  edits: number;
  editsAdded: number;
  features: string[];
  templates: string[];
}

/** A refused apply lists every problem; each has its message key and values (the first is the answer's msg). */
export interface ApplyProblem {
  part: string;
  index?: number;
  messageKey: string;
}

export const saeTemplates = {
  list: () => api.request<SaeTemplateChoice[]>('/sae-templates'),
  apply: (templateId: string, projectId: string) =>
    api.request<ApplyResult>(`/sae-templates/${encodeURIComponent(templateId)}/apply`, {
      method: 'POST',
      body: { projectId },
      silent: true,
    }),
};
