/**
 * Every administration page of the registry has its definition, and every definition is complete
 * in both languages: titles, columns, filters, actions and each form field (nested ones too) carry
 * zh and en labels; every permission it names is declared in schemas/menus.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FormDefinition, PageDefinition } from '../../renderers/definition';
import { ANNOTATIONS, entityFiles, resolvePage } from '../../renderers/form/entity-form';
import { resolveEntity } from '@pv/engine';
import { ADMIN_PAGES } from './registry';

const dir = fileURLToPath(new URL('../../../../schemas/ui/admin/', import.meta.url));
const menus = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../../schemas/menus/menus.json', import.meta.url)), 'utf8'),
) as { items: { id: string; path?: string; permission: string | null }[] };
const permissions = new Set(menus.items.map((i) => i.permission).filter(Boolean));
const menuPaths = new Set(menus.items.map((i) => i.path));
const raw = (name: string) => JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8')) as PageDefinition;
const load = (name: string) => resolvePage(raw(name));

/** Keywords that say what a value may be: an admin UI file never writes one (schemas/entities does). */
const RULE_KEYWORDS = new Set([
  'pattern',
  'format',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'items',
  'properties',
  'additionalProperties',
  'oneOf',
  'anyOf',
  'allOf',
  'if',
  'then',
  'else',
]);

/** Where a definition (any JSON) declares a property schema of its own: the paths of its rule keywords. */
function ownRules(node: unknown, path = '', fieldNames = false): string[] {
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => [
    // Keys of these maps are field names (a receiver has a field called `format`), not keywords.
    ...(!fieldNames && (RULE_KEYWORDS.has(key) || key === 'schema') ? [`${path}/${key}`] : []),
    ...ownRules(value, `${path}/${key}`, FIELD_MAPS.has(key) && !fieldNames),
  ]);
}
const FIELD_MAPS = new Set(['labels', 'annotate', 'uiSchema', 'fieldPermissions', 'fixed']);

function formsOf(page: PageDefinition): [string, FormDefinition][] {
  return [
    ...page.lists.flatMap((list) => [
      ...(list.form ? [[list.id, list.form] as [string, FormDefinition]] : []),
      ...[...(list.rowActions ?? []), ...(list.batchActions ?? [])].flatMap((action) =>
        action.form ? [[`${list.id} ${action.key}`, action.form] as [string, FormDefinition]] : [],
      ),
    ]),
    ...(page.records ?? []).map((record) => [record.id, record.form] as [string, FormDefinition]),
  ];
}

function bilingual(text: unknown, where: string): void {
  const t = text as { zh?: string; en?: string } | undefined;
  expect(t?.zh, `${where} zh`).toBeTruthy();
  expect(t?.en, `${where} en`).toBeTruthy();
}

function checkForm(form: FormDefinition, where: string): void {
  if (form.note) bilingual(form.note, `${where} note`);
  const walk = (schema: Record<string, unknown>, prefix: string) => {
    for (const [name, child] of Object.entries(
      (schema.properties as Record<string, Record<string, unknown>>) ?? {},
    )) {
      const path = prefix ? `${prefix}.${name}` : name;
      bilingual(form.labels[path], `${where} field ${path}`);
      for (const value of (child.enum as unknown[]) ?? [])
        bilingual(form.labels[`${path}.${String(value)}`], `${where} ${path}=${String(value)}`);
      // The Fluent form renderer shows an enum without a type as an unsupported field.
      if (child.enum) expect(child.type, `${where} ${path} enum type`).toBeDefined();
      // A field drawn by its own component (`ui:field`, e.g. the SAE overlay) labels its insides.
      const custom = (form.uiSchema?.[path] as Record<string, unknown> | undefined)?.['ui:field'];
      if (child.type === 'object' && !custom) walk(child, path);
    }
  };
  walk(form.schema, '');
  for (const [field, permission] of Object.entries(form.fieldPermissions ?? {})) {
    expect(form.schema.properties && field in (form.schema.properties as object), `${where} ${field}`).toBe(
      true,
    );
    expect(permissions.has(permission), `${where} ${permission}`).toBe(true);
  }
  for (const call of [form.create, form.update])
    if (call?.permission) expect(permissions.has(call.permission), `${where} ${call.permission}`).toBe(true);
}

describe('administration page definitions', () => {
  it('exist for every registered route, and every route is a menu route', () => {
    const files = new Set(readdirSync(dir).map((f) => f.replace(/\.json$/, '')));
    for (const [path, name] of Object.entries(ADMIN_PAGES)) {
      expect(files.has(name), `${path} -> ${name}.json`).toBe(true);
      expect(menuPaths.has(path), path).toBe(true);
    }
  });

  it('label everything in zh and en and name only declared permissions', () => {
    for (const name of new Set(Object.values(ADMIN_PAGES))) {
      const page = load(name);
      bilingual(page.title, `${name} title`);
      for (const record of page.records ?? []) {
        bilingual(record.title, `${name}/${record.id}`);
        checkForm(record.form, `${name}/${record.id}`);
        if (record.permission) expect(permissions.has(record.permission)).toBe(true);
      }
      for (const list of page.lists) {
        const where = `${name}/${list.id}`;
        bilingual(list.title, where);
        if (list.permission) expect(permissions.has(list.permission), where).toBe(true);
        for (const column of list.columns) {
          bilingual(column.label, `${where} column ${column.key}`);
          for (const [value, text] of Object.entries(column.options ?? {}))
            bilingual(text, `${where} ${column.key}=${value}`);
        }
        for (const filter of list.filters ?? []) bilingual(filter.label, `${where} filter ${filter.param}`);
        for (const action of [...(list.rowActions ?? []), ...(list.batchActions ?? [])]) {
          bilingual(action.label, `${where} action ${action.key}`);
          if (action.confirm) bilingual(action.confirm, `${where} action ${action.key} confirm`);
          if (action.permission)
            expect(permissions.has(action.permission), `${where} ${action.permission}`).toBe(true);
          if (action.form) checkForm(action.form, `${where} action ${action.key}`);
        }
        if (list.form) checkForm(list.form, where);
      }
    }
  });

  it('declare no property schema of their own: forms name an entity and its fields', () => {
    const names = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    for (const name of names) {
      const page = raw(name);
      expect(ownRules(page), `${name}.json restates rules of schemas/entities`).toEqual([]);
      for (const [where, form] of formsOf(page)) {
        expect(form.entity, `${name} ${where} entity`).toBeTruthy();
        const entity = resolveEntity(entityFiles, form.entity!);
        for (const field of [...(form.fields ?? []), ...(form.required ?? [])])
          expect(entity.properties[field], `${name} ${where}: ${form.entity} has ${field}`).toBeDefined();
        for (const [field, extra] of Object.entries(form.annotate ?? {})) {
          // `columns.field` annotates a property of the objects the shown array field holds.
          expect(form.fields, `${name} ${where} annotates a shown field`).toContain(field.split('.')[0]);
          for (const key of Object.keys(extra))
            expect(ANNOTATIONS, `${name} ${where} ${field}`).toContain(key);
        }
      }
    }
  });

  it('take the value labels of enum columns and filters from the entity, not a copy', () => {
    for (const name of new Set(Object.values(ADMIN_PAGES))) {
      for (const list of raw(name).lists) {
        const entity = list.form?.entity?.split('#')[0];
        if (!entity) continue;
        const properties = resolveEntity(entityFiles, entity).properties;
        const named = [
          ...list.columns.map((c) => [c.field ?? c.key, c.options] as const),
          ...(list.filters ?? []).map((f) => [f.param, f.options] as const),
        ];
        for (const [field, options] of named) {
          const declared = properties[field]?.enum as unknown[] | undefined;
          // Options are for values the entity does not declare (e.g. a role type shown but never saved).
          if (declared && options)
            expect(
              Object.keys(options).sort(),
              `${name}/${list.id} ${field} restates the entity's enum`,
            ).not.toEqual(declared.map(String).sort());
        }
      }
      for (const list of load(name).lists)
        for (const column of list.columns)
          if (column.type === 'enum')
            expect(column.options, `${name}/${list.id} ${column.key}`).toBeDefined();
    }
  });

  it('finds a planted rule of a form’s own', () => {
    const planted = raw('organisations');
    const form = planted.lists[0]!.form!;
    expect(ownRules(planted)).toEqual([]);
    form.annotate = { phone: { pattern: '^[0-9]+$' } as never };
    expect(ownRules(planted)).toEqual(['/lists/0/form/annotate/phone/pattern']);
    expect(ownRules({ form: { schema: { type: 'object' } } })).toEqual(['/form/schema']);
  });

  it('render the entity’s own rules: the user and organisation phones take what the server takes', () => {
    const phoneOf = (page: string) =>
      (load(page).lists[0]!.form!.schema.properties as Record<string, { pattern?: string }>).phone!.pattern;
    const server = (entityFiles.formats!.$defs as Record<string, { pattern: string }>).phone!.pattern;
    expect(phoneOf('organisations')).toBe(server);
    expect(phoneOf('users')).toBe(server);
  });
});
