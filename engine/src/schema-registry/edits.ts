/** Typed configuration edits (tenant and project layers) and their checks. */
import type { Rule } from '../rules/types';
import { checkRule } from '../rules/check';
import { allowedCodes, CODELIST_ADDED, CODELIST_SUBSET } from './expand';
import type { CaseTabs } from '../case-model/types';
import { moveInLayout, placeNewField, pointerOfPath, removeFromLayout } from './layout';
import { deref, getAt, keywordOf, locateProperty, walkFields } from './schema-set';
import type { BilingualText, Codelist, CodelistValue, FieldInfo, JsonSchema, SchemaSet } from './types';

export type ConfigEdit =
  | { op: 'addField'; path: string; schema: JsonSchema; required?: boolean }
  | { op: 'hideField'; path: string }
  | { op: 'relabel'; path: string; label: Partial<BilingualText> }
  | { op: 'require'; path: string }
  | { op: 'unrequire'; path: string }
  | { op: 'changeOptions'; path: string; subset?: string[]; add?: CodelistValue[] }
  | { op: 'addRule'; rule: Rule }
  | { op: 'disableRule'; ruleId: string }
  /** Reorders a field or moves it to another group of the form (before `before`, else last). */
  | { op: 'moveField'; path: string; group: string; before?: string };

export type ConfigLayerName = 'tenant' | 'project';

/** A refused edit: where, why (message key in schemas/i18n/validation) and the values for the message. */
export interface EditProblem {
  layer: ConfigLayerName;
  index: number;
  op: string;
  messageKey: string;
  params: Record<string, string | number>;
}

export interface EditContext {
  rootId: string;
  codelists: Record<string, Codelist>;
  /** E2B ids whose conformance is Mandatory in the ICH table (schemas/rules/e2b-mandatory.json). */
  mandatoryE2bIds: ReadonlySet<string>;
  /** Field paths required in the base schema; they cannot be unrequired or hidden. */
  baseRequired: ReadonlySet<string>;
  /** Ids of every known rule (base profiles and rules added by earlier edits). */
  ruleIds: Set<string>;
}

export interface EditState {
  schemas: SchemaSet;
  customRules: Rule[];
  disabledRules: Set<string>;
  /** The case form layout (tabs, groups, field order), edited by addField, hideField and moveField. */
  layout: CaseTabs;
}

const FIELD_NAME = /^[a-z][A-Za-z0-9]*$/;
const CUSTOM_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

function containsE2bId(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(containsE2bId);
  if (node === null || typeof node !== 'object') return false;
  return Object.entries(node).some(([key, value]) => key === 'x-e2b' || containsE2bId(value));
}

function isLabel(value: unknown): value is BilingualText {
  const label = value as BilingualText | undefined;
  return (
    !!label &&
    typeof label.zh === 'string' &&
    label.zh.trim() !== '' &&
    typeof label.en === 'string' &&
    label.en.trim() !== ''
  );
}

/** True when the field may not be hidden or unrequired. */
export function isMandatoryField(schemas: SchemaSet, context: EditContext, path: string): boolean {
  if (context.baseRequired.has(path)) return true;
  const target = locateProperty(schemas, context.rootId, path);
  if (!target) return false;
  const e2b = keywordOf(schemas, target.property, 'x-e2b');
  return typeof e2b === 'string' && context.mandatoryE2bIds.has(e2b);
}

export function baseRequiredPaths(schemas: SchemaSet, rootId: string): Set<string> {
  return new Set(
    walkFields(schemas, rootId)
      .filter((field: FieldInfo) => field.required)
      .map((field) => field.path),
  );
}

function setRequired(parent: JsonSchema, name: string, required: boolean): void {
  const list = Array.isArray(parent.required)
    ? (parent.required as string[]).filter((item) => item !== name)
    : [];
  if (required) list.push(name);
  if (list.length > 0) parent.required = list;
  else delete parent.required;
}

/**
 * Applies one layer of edits to `state` (mutated) and returns the refused ones.
 * A refused edit changes nothing; the edits after it still apply.
 */
export function applyEdits(
  state: EditState,
  edits: readonly ConfigEdit[],
  layer: ConfigLayerName,
  context: EditContext,
): EditProblem[] {
  const problems: EditProblem[] = [];
  edits.forEach((edit, index) => {
    const refuse = (messageKey: string, params: Record<string, string | number> = {}): void => {
      problems.push({ layer, index, op: edit.op, messageKey, params: { op: edit.op, ...params } });
    };
    if (edit.op === 'addRule' || edit.op === 'disableRule') {
      if (edit.op === 'disableRule') {
        if (!context.ruleIds.has(edit.ruleId))
          return refuse('validation.configEdit.unknownRule', { ruleId: edit.ruleId });
        state.disabledRules.add(edit.ruleId);
        return;
      }
      const ruleProblems = checkRule(edit.rule, walkFields(state.schemas, context.rootId));
      if (ruleProblems.length > 0)
        return refuse('validation.configEdit.badRule', {
          ruleId: String(edit.rule?.id),
          detail: ruleProblems.join('; '),
        });
      if (context.ruleIds.has(edit.rule.id))
        return refuse('validation.configEdit.duplicateRule', { ruleId: edit.rule.id });
      context.ruleIds.add(edit.rule.id);
      state.customRules.push(edit.rule);
      return;
    }
    if (typeof edit.path !== 'string' || edit.path === '')
      return refuse('validation.configEdit.badPath', { path: String(edit.path) });
    if (edit.op === 'addField') {
      const cut = edit.path.lastIndexOf('.');
      const parentPath = cut > 0 ? edit.path.slice(0, cut) : '';
      const name = cut > 0 ? edit.path.slice(cut + 1) : edit.path;
      if (!FIELD_NAME.test(name)) return refuse('validation.configEdit.badFieldName', { path: edit.path });
      const schema = edit.schema;
      if (!schema || typeof schema !== 'object' || !CUSTOM_TYPES.has(String(schema.type))) {
        return refuse('validation.configEdit.badFieldType', { path: edit.path });
      }
      if (containsE2bId(schema)) return refuse('validation.configEdit.customFieldE2b', { path: edit.path });
      if (!isLabel(schema['x-label']))
        return refuse('validation.configEdit.labelMissing', { path: edit.path });
      if (typeof schema['x-codelist'] === 'string' && !context.codelists[schema['x-codelist']]) {
        return refuse('validation.configEdit.unknownCodelist', {
          path: edit.path,
          codelist: schema['x-codelist'],
        });
      }
      let holder: JsonSchema | undefined = state.schemas[context.rootId];
      if (parentPath !== '') {
        const inItems = parentPath.endsWith('[*]');
        const target = locateProperty(
          state.schemas,
          context.rootId,
          inItems ? parentPath.slice(0, -3) : parentPath,
        );
        if (!target) return refuse('validation.configEdit.pathNotFound', { path: parentPath });
        // A field added to a shared definition appears wherever that definition is used.
        let resolved = deref(state.schemas, target.property);
        if (inItems)
          resolved = deref(state.schemas, {
            fileId: resolved.location.fileId,
            tokens: [...resolved.location.tokens, 'items'],
          });
        holder = resolved.schema;
      }
      if (!holder || typeof holder.properties !== 'object')
        return refuse('validation.configEdit.notAnObject', { path: parentPath });
      const properties = holder.properties as Record<string, JsonSchema>;
      if (properties[name]) return refuse('validation.configEdit.fieldExists', { path: edit.path });
      properties[name] = { ...structuredClone(schema), 'x-custom': true };
      if (edit.required) setRequired(holder, name, true);
      placeNewField(state.layout, pointerOfPath(edit.path));
      return;
    }
    const target = locateProperty(state.schemas, context.rootId, edit.path);
    if (!target) return refuse('validation.configEdit.pathNotFound', { path: edit.path });
    const property = getAt(state.schemas, target.property)!;
    switch (edit.op) {
      case 'hideField':
        if (isMandatoryField(state.schemas, context, edit.path))
          return refuse('validation.configEdit.mandatoryHide', { path: edit.path });
        property['x-hidden'] = true;
        setRequired(target.parent.schema, target.name, false);
        removeFromLayout(state.layout, pointerOfPath(edit.path));
        return;
      case 'moveField': {
        if (keywordOf(state.schemas, target.property, 'x-hidden') === true)
          return refuse('configurator.layout.hiddenField', { path: edit.path });
        if (edit.before !== undefined && typeof edit.before !== 'string')
          return refuse('validation.configEdit.badPath', { path: String(edit.before) });
        const problem = moveInLayout(
          state.layout,
          pointerOfPath(edit.path),
          String(edit.group),
          edit.before === undefined ? undefined : pointerOfPath(edit.before),
        );
        if (problem) return refuse(problem.messageKey, problem.params);
        return;
      }
      case 'relabel': {
        const current = (keywordOf(state.schemas, target.property, 'x-label') as
          BilingualText | undefined) ?? { zh: '', en: '' };
        const label = { ...current, ...edit.label };
        if (!isLabel(label)) return refuse('validation.configEdit.labelMissing', { path: edit.path });
        property['x-label'] = { zh: label.zh, en: label.en };
        return;
      }
      case 'require':
        if (keywordOf(state.schemas, target.property, 'x-hidden') === true)
          return refuse('validation.configEdit.requireHidden', { path: edit.path });
        setRequired(target.parent.schema, target.name, true);
        return;
      case 'unrequire':
        if (isMandatoryField(state.schemas, context, edit.path))
          return refuse('validation.configEdit.mandatoryUnrequire', { path: edit.path });
        setRequired(target.parent.schema, target.name, false);
        return;
      default:
        return refuse('validation.configEdit.unknownOp');
      case 'changeOptions': {
        const codelistName = keywordOf(state.schemas, target.property, 'x-codelist');
        if (typeof codelistName !== 'string')
          return refuse('validation.configEdit.noCodelist', { path: edit.path });
        const list = context.codelists[codelistName];
        if (!list)
          return refuse('validation.configEdit.unknownCodelist', { path: edit.path, codelist: codelistName });
        const known = new Set(list.values.map((value) => value.code));
        const unknown = (edit.subset ?? []).filter((code) => !known.has(code));
        if (unknown.length > 0)
          return refuse('validation.configEdit.unknownCodes', { path: edit.path, codes: unknown.join(', ') });
        if (edit.subset && edit.subset.length === 0)
          return refuse('validation.configEdit.emptySubset', { path: edit.path });
        const added = edit.add ?? [];
        const clash = added.filter((value) => known.has(value.code) || !isLabel(value));
        if (clash.length > 0)
          return refuse('validation.configEdit.badAddedCodes', {
            path: edit.path,
            codes: clash.map((value) => value.code).join(', '),
          });
        if (edit.subset) property[CODELIST_SUBSET] = [...edit.subset];
        if (added.length > 0) {
          const previous = (property[CODELIST_ADDED] as CodelistValue[] | undefined) ?? [];
          property[CODELIST_ADDED] = [
            ...previous.filter((value) => !added.some((item) => item.code === value.code)),
            ...added,
          ];
        }
        if (!property['x-codelist']) property['x-codelist'] = codelistName;
        allowedCodes(property, context.codelists);
        return;
      }
    }
  });
  return problems;
}
