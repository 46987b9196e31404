/**
 * The case form layout as part of the layered configuration: where each field sits (tab, group,
 * order). Custom fields are placed beside their siblings when added, hidden fields leave the
 * layout, and `moveField` reorders a field or moves it to another group of a compatible shape.
 */
import { findCaseProperty } from '../case-model/walk';
import type { CaseJsonSchema, CaseTabGroup, CaseTabs } from '../case-model/types';
import type { ConfigEdit, ConfigLayerName } from './edits';
import type { SchemaSet } from './types';

/** `drugs[*].dosages[*].doseValue` -> `/drugs/*\/dosages/*\/doseValue` (the layout's pointers). */
export function pointerOfPath(path: string): string {
  return `/${path
    .replace(/\[(\*|\d+)\]/g, '.*')
    .split('.')
    .join('/')}`;
}

/** The inverse of pointerOfPath for layout pointers. */
export function pathOfPointer(pointer: string): string {
  return pointer.slice(1).split('/').join('.').replace(/\.\*/g, '[*]');
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

const groupsOf = (layout: CaseTabs): CaseTabGroup[] => layout.tabs.flatMap((tab) => tab.groups);

/** True when `pointer` is a field of the object `group` edits (its own items, not a nested array's). */
export function fitsGroup(group: CaseTabGroup, pointer: string): boolean {
  if (!group.array) return !pointer.includes('/*');
  const prefix = `${group.array}/*/`;
  return pointer.startsWith(prefix) && !pointer.slice(prefix.length).includes('*');
}

/** Removes `pointer` from every group. */
export function removeFromLayout(layout: CaseTabs, pointer: string): void {
  for (const group of groupsOf(layout))
    if (group.fields.includes(pointer)) group.fields = group.fields.filter((item) => item !== pointer);
}

/** A new field goes after the last of its siblings in the first group that shows them. */
export function placeNewField(layout: CaseTabs, pointer: string): void {
  const parent = parentOf(pointer);
  const group =
    groupsOf(layout).find(
      (candidate) =>
        fitsGroup(candidate, pointer) && candidate.fields.some((field) => parentOf(field) === parent),
    ) ?? groupsOf(layout).find((candidate) => candidate.array && `${candidate.array}/*` === parent);
  if (!group) return;
  const last = group.fields.map(parentOf).lastIndexOf(parent);
  group.fields.splice(last + 1, 0, pointer);
}

/** Moves `pointer` into `groupId` before `before` (at the end when absent); a problem key when refused. */
export function moveInLayout(
  layout: CaseTabs,
  pointer: string,
  groupId: string,
  before: string | undefined,
): { messageKey: string; params: Record<string, string> } | null {
  const group = groupsOf(layout).find((candidate) => candidate.id === groupId);
  const path = pathOfPointer(pointer);
  if (!group) return { messageKey: 'configurator.layout.unknownGroup', params: { group: groupId } };
  if (!fitsGroup(group, pointer))
    return { messageKey: 'configurator.layout.wrongGroup', params: { path, group: groupId } };
  if (before !== undefined && (before === pointer || !group.fields.includes(before)))
    return {
      messageKey: 'configurator.layout.beforeNotInGroup',
      params: { path: pathOfPointer(before), group: groupId },
    };
  removeFromLayout(layout, pointer);
  const at = before === undefined ? group.fields.length : group.fields.indexOf(before);
  group.fields.splice(at, 0, pointer);
  return null;
}

/**
 * The layout with each group's field schemas resolved from the configuration (custom fields,
 * labels, code-list subsets), for renderers that take the schema from the group
 * (web/src/case-form group-schema reads `group.properties`).
 */
export function configuredTabs(configuration: {
  rootId: string;
  schemas: SchemaSet;
  layout: CaseTabs;
}): CaseTabs {
  const byId = new Map(Object.entries(configuration.schemas) as [string, CaseJsonSchema][]);
  const root = configuration.schemas[configuration.rootId] as CaseJsonSchema;
  return {
    notInTabs: configuration.layout.notInTabs,
    tabs: configuration.layout.tabs.map((tab) => ({
      ...tab,
      groups: tab.groups.map((group) => {
        const properties: Record<string, CaseJsonSchema> = {};
        for (const pointer of group.fields) {
          const schema = findCaseProperty(root, byId, pointer);
          if (schema) properties[pointer] = schema;
        }
        return { ...group, properties };
      }),
    })),
  };
}

export type FieldLayer = 'base' | ConfigLayerName;

export interface FieldOrigin {
  /** The layer that declares the field: base schemas, or the tenant or project that added it. */
  origin: FieldLayer;
  /** Layers with edits to the field (label, required, hidden, options, place). */
  changedIn: ConfigLayerName[];
}

/** Where each field named by the layers' edits comes from, by dotted path; unnamed fields are base. */
export function fieldOrigins(layers: {
  tenant?: readonly ConfigEdit[];
  project?: readonly ConfigEdit[];
}): Record<string, FieldOrigin> {
  const origins: Record<string, FieldOrigin> = {};
  for (const layer of ['tenant', 'project'] as const)
    for (const edit of layers[layer] ?? []) {
      if (!('path' in edit) || typeof edit.path !== 'string') continue;
      const entry = (origins[edit.path] ??= { origin: 'base', changedIn: [] });
      if (edit.op === 'addField') entry.origin = layer;
      // A layer editing its own field is still just its declaration.
      else if (entry.origin !== layer && !entry.changedIn.includes(layer)) entry.changedIn.push(layer);
    }
  return origins;
}
