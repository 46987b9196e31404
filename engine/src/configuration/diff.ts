/** A readable diff between two resolved configurations (what a publish UAT -> PRO changes). */
import { allowedCodes } from '../schema-registry/expand';
import type { ResolvedConfiguration } from '../schema-registry/resolve';
import { walkFields } from '../schema-registry/schema-set';
import type { BilingualText, FieldInfo } from '../schema-registry/types';
import type { Rule } from '../rules/types';
import { stableStringify } from '../schema-registry/stable-hash';
import { pathOfPointer } from '../schema-registry/layout';

/** The laid-out fields of each group in order, by group id. */
function groupOrders(configuration: ResolvedConfiguration): Map<string, string[]> {
  return new Map(
    (configuration.layout?.tabs ?? []).flatMap((tab) =>
      tab.groups.map((group) => [group.id, group.fields.map(pathOfPointer)] as [string, string[]]),
    ),
  );
}

/** Fields kept in order between two lists (a longest common subsequence): the others moved. */
function keptInOrder(before: string[], after: string[]): Set<string> {
  const lengths = before.map(() => new Array<number>(after.length + 1).fill(0));
  lengths.push(new Array<number>(after.length + 1).fill(0));
  for (let i = before.length - 1; i >= 0; i--)
    for (let j = after.length - 1; j >= 0; j--)
      lengths[i]![j] =
        before[i] === after[j]
          ? lengths[i + 1]![j + 1]! + 1
          : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const kept = new Set<string>();
  for (let i = 0, j = 0; i < before.length && j < after.length;) {
    if (before[i] === after[j]) {
      kept.add(before[i]!);
      i++;
      j++;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i++;
    else j++;
  }
  return kept;
}

/** Fields that joined a group, or changed place among the fields of their group (a field may sit in several groups). */
function movedFields(before: ResolvedConfiguration, after: ResolvedConfiguration) {
  const oldOrders = groupOrders(before);
  const newOrders = groupOrders(after);
  const groupsOf = (orders: Map<string, string[]>, path: string) =>
    [...orders].filter(([, paths]) => paths.includes(path)).map(([id]) => id);
  const moved: { path: string; from: string; to: string }[] = [];
  for (const [id, paths] of newOrders) {
    const old = oldOrders.get(id) ?? [];
    const stayed = paths.filter((path) => old.includes(path));
    const kept = keptInOrder(
      old.filter((path) => stayed.includes(path)),
      stayed,
    );
    for (const path of paths) {
      if (kept.has(path)) continue;
      const was = groupsOf(oldOrders, path);
      if (was.length === 0) continue;
      const left = was.find((group) => !newOrders.get(group)?.includes(path));
      moved.push({ path, from: was.includes(id) ? id : (left ?? was[0]!), to: id });
    }
  }
  return moved;
}

export type ConfigurationChangeKind =
  | 'fieldAdded'
  | 'fieldRemoved'
  | 'fieldHidden'
  | 'fieldShown'
  | 'fieldRelabelled'
  | 'fieldRequired'
  | 'fieldUnrequired'
  | 'optionsChanged'
  | 'fieldMoved'
  | 'ruleAdded'
  | 'ruleRemoved'
  | 'ruleChanged'
  | 'ruleDisabled'
  | 'ruleEnabled';

export interface ConfigurationChange {
  kind: ConfigurationChangeKind;
  path?: string;
  ruleId?: string;
  before?: unknown;
  after?: unknown;
  /** One line for people, in both languages. */
  text: BilingualText;
}

function fieldName(field: FieldInfo): BilingualText {
  const e2b = field.e2b ? ` (${field.e2b})` : '';
  return { zh: `${field.label?.zh ?? field.path}${e2b}`, en: `${field.label?.en ?? field.path}${e2b}` };
}

const WORDS: Record<ConfigurationChangeKind, BilingualText> = {
  fieldAdded: { zh: '新增字段', en: 'Field added' },
  fieldRemoved: { zh: '移除字段', en: 'Field removed' },
  fieldHidden: { zh: '隐藏字段', en: 'Field hidden' },
  fieldShown: { zh: '显示字段', en: 'Field shown' },
  fieldRelabelled: { zh: '修改标签', en: 'Label changed' },
  fieldRequired: { zh: '设为必填', en: 'Made required' },
  fieldUnrequired: { zh: '取消必填', en: 'Made optional' },
  optionsChanged: { zh: '修改选项', en: 'Options changed' },
  fieldMoved: { zh: '调整字段位置', en: 'Field moved' },
  ruleAdded: { zh: '新增规则', en: 'Rule added' },
  ruleRemoved: { zh: '移除规则', en: 'Rule removed' },
  ruleChanged: { zh: '修改规则', en: 'Rule changed' },
  ruleDisabled: { zh: '停用规则', en: 'Rule disabled' },
  ruleEnabled: { zh: '启用规则', en: 'Rule enabled' },
};

function line(kind: ConfigurationChangeKind, subject: BilingualText, detail?: BilingualText): BilingualText {
  return {
    zh: `${WORDS[kind].zh}：${subject.zh}${detail ? `（${detail.zh}）` : ''}`,
    en: `${WORDS[kind].en}: ${subject.en}${detail ? ` (${detail.en})` : ''}`,
  };
}

function codes(configuration: ResolvedConfiguration, field: FieldInfo): string[] | undefined {
  return allowedCodes(field.schema, configuration.codelists)?.map((value) => value.code);
}

/** Changes from `before` (undefined: nothing published yet) to `after`, fields first, then rules. */
export function diffConfigurations(
  before: ResolvedConfiguration | undefined,
  after: ResolvedConfiguration,
): ConfigurationChange[] {
  const changes: ConfigurationChange[] = [];
  const oldFields = new Map(
    before ? walkFields(before.schemas, before.rootId).map((field) => [field.path, field]) : [],
  );
  const newFields = new Map(walkFields(after.schemas, after.rootId).map((field) => [field.path, field]));
  if (before) {
    for (const [path, field] of newFields) {
      const old = oldFields.get(path);
      const name = fieldName(field);
      if (!old) {
        const detail = field.required ? { zh: '必填', en: 'required' } : undefined;
        changes.push({ kind: 'fieldAdded', path, text: line('fieldAdded', name, detail) });
        continue;
      }
      if (old.hidden !== field.hidden)
        changes.push({
          kind: field.hidden ? 'fieldHidden' : 'fieldShown',
          path,
          text: line(field.hidden ? 'fieldHidden' : 'fieldShown', name),
        });
      if (stableStringify(old.label) !== stableStringify(field.label)) {
        const detail = {
          zh: `${old.label?.zh ?? ''} → ${field.label?.zh ?? ''}`,
          en: `${old.label?.en ?? ''} → ${field.label?.en ?? ''}`,
        };
        changes.push({
          kind: 'fieldRelabelled',
          path,
          before: old.label,
          after: field.label,
          text: line('fieldRelabelled', name, detail),
        });
      }
      if (old.required !== field.required) {
        const kind = field.required ? 'fieldRequired' : 'fieldUnrequired';
        changes.push({ kind, path, text: line(kind, name) });
      }
      const oldCodes = codes(before, old);
      const newCodes = codes(after, field);
      if (stableStringify(oldCodes) !== stableStringify(newCodes)) {
        const added = (newCodes ?? []).filter((code) => !oldCodes?.includes(code));
        const removed = (oldCodes ?? []).filter((code) => !newCodes?.includes(code));
        const detail = {
          zh: `新增 ${added.join(', ') || '无'}；移除 ${removed.join(', ') || '无'}`,
          en: `added ${added.join(', ') || 'none'}; removed ${removed.join(', ') || 'none'}`,
        };
        changes.push({
          kind: 'optionsChanged',
          path,
          before: oldCodes,
          after: newCodes,
          text: line('optionsChanged', name, detail),
        });
      }
    }
    for (const { path, from, to } of movedFields(before, after)) {
      const field = newFields.get(path);
      if (!field || !oldFields.has(path)) continue;
      changes.push({
        kind: 'fieldMoved',
        path,
        before: from,
        after: to,
        text: line('fieldMoved', fieldName(field), { zh: `${from} → ${to}`, en: `${from} → ${to}` }),
      });
    }
    for (const [path, field] of oldFields)
      if (!newFields.has(path))
        changes.push({ kind: 'fieldRemoved', path, text: line('fieldRemoved', fieldName(field)) });
  } else {
    for (const [path, field] of newFields)
      if (field.schema['x-custom'] === true)
        changes.push({ kind: 'fieldAdded', path, text: line('fieldAdded', fieldName(field)) });
  }
  const rules = (configuration: ResolvedConfiguration | undefined) =>
    new Map<string, Rule>((configuration?.customRules ?? []).map((rule) => [rule.id, rule]));
  const oldRules = rules(before);
  const newRules = rules(after);
  const ruleSubject = (rule: Rule): BilingualText => ({
    zh: `${rule.id} ${rule.message.zh}`,
    en: `${rule.id} ${rule.message.en}`,
  });
  for (const [id, rule] of newRules) {
    const old = oldRules.get(id);
    if (!old)
      changes.push({
        kind: 'ruleAdded',
        ruleId: id,
        after: rule,
        text: line('ruleAdded', ruleSubject(rule)),
      });
    else if (stableStringify(old) !== stableStringify(rule))
      changes.push({
        kind: 'ruleChanged',
        ruleId: id,
        before: old,
        after: rule,
        text: line('ruleChanged', ruleSubject(rule)),
      });
  }
  for (const [id, rule] of oldRules)
    if (!newRules.has(id))
      changes.push({
        kind: 'ruleRemoved',
        ruleId: id,
        before: rule,
        text: line('ruleRemoved', ruleSubject(rule)),
      });
  const oldDisabled = new Set(before?.disabledRules ?? []);
  const newDisabled = new Set(after.disabledRules);
  const subject = (id: string): BilingualText => ({ zh: id, en: id });
  for (const id of newDisabled)
    if (!oldDisabled.has(id))
      changes.push({ kind: 'ruleDisabled', ruleId: id, text: line('ruleDisabled', subject(id)) });
  for (const id of oldDisabled)
    if (!newDisabled.has(id))
      changes.push({ kind: 'ruleEnabled', ruleId: id, text: line('ruleEnabled', subject(id)) });
  return changes;
}
