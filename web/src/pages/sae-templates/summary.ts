/**
 * A project SAE template's overlay as readable lines (what applying it would write), shared by the
 * operator's overlay editor and the tenant's apply dialog. Pure: labels come in through `st`.
 */
import type { SaeKey, SaeText } from './text';

export interface OverlayEdit {
  op: string;
  path?: string;
  ruleId?: string;
  rule?: { id?: string; message?: { zh?: string; en?: string } };
  label?: { zh?: string; en?: string };
  schema?: { 'x-label'?: { zh?: string; en?: string } };
  required?: boolean;
}

export interface Overlay {
  edits: OverlayEdit[];
  features?: Record<string, unknown>;
  workflow?: unknown;
  list?: unknown;
  templates?: { id: string; kind: string; name: { zh: string; en: string }; lang?: string }[];
}

type Pick = (text: { zh: string; en: string }) => string;
const both = (text: { zh?: string; en?: string }) => ({ zh: text.zh ?? '', en: text.en ?? '' });

export interface OverlaySection {
  key: 'edits' | 'features' | 'workflow' | 'list' | 'templates';
  title: string;
  lines: string[];
}

const OP_KEYS: Record<string, SaeKey> = {
  addField: 'uiOpAddField',
  hideField: 'uiOpHideField',
  relabel: 'uiOpRelabel',
  require: 'uiOpRequire',
  unrequire: 'uiOpUnrequire',
  changeOptions: 'uiOpChangeOptions',
  addRule: 'uiOpAddRule',
  disableRule: 'uiOpDisableRule',
  moveField: 'uiOpMoveField',
};

/** True when the value has the overlay's shape (an object with an edits array). */
export function isOverlay(value: unknown): value is Overlay {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { edits?: unknown }).edits)
  );
}

function editLine(edit: OverlayEdit, st: SaeText, pick: Pick): string {
  const op = OP_KEYS[edit.op] ? st(OP_KEYS[edit.op]!) : edit.op;
  const label =
    edit.op === 'relabel' ? edit.label : edit.op === 'addField' ? edit.schema?.['x-label'] : undefined;
  const target =
    edit.op === 'addRule'
      ? `${edit.rule?.id ?? ''}${edit.rule?.message ? ` ${pick(both(edit.rule.message))}` : ''}`
      : edit.op === 'disableRule'
        ? (edit.ruleId ?? '')
        : (edit.path ?? '');
  return `${op} ${target}${label ? ` → ${pick(both(label))}` : ''}${edit.required ? ` (${st('uiOpRequire')})` : ''}`;
}

export function overlaySections(
  overlay: Overlay,
  st: SaeText,
  pick: Pick,
  /** A feature switch's name in the display language (the configurator's labels). */
  featureLabel: (name: string) => string = (name) => name,
): OverlaySection[] {
  const sections: OverlaySection[] = [
    {
      key: 'edits',
      title: st('uiEdits', { count: overlay.edits.length }),
      lines: overlay.edits.map((edit) => editLine(edit, st, pick)),
    },
  ];
  const features = Object.entries(overlay.features ?? {});
  if (features.length)
    sections.push({
      key: 'features',
      title: st('uiFeatures'),
      lines: features.map(
        ([name, value]) =>
          `${featureLabel(name)}: ${value === true ? st('uiOn') : value === false ? st('uiOff') : String(value)}`,
      ),
    });
  if (overlay.workflow) sections.push({ key: 'workflow', title: st('uiWorkflow'), lines: [] });
  if (overlay.list) sections.push({ key: 'list', title: st('uiList'), lines: [] });
  if (overlay.templates?.length)
    sections.push({
      key: 'templates',
      title: st('uiTemplates', { count: overlay.templates.length }),
      lines: overlay.templates.map(
        (template) =>
          `${pick(template.name)} (${template.kind === 'narrative' ? st('uiKindNarrative') : template.kind === 'message' ? st('uiKindMessage') : template.kind}${template.lang ? `, ${template.lang}` : ''})`,
      ),
    });
  return sections;
}
