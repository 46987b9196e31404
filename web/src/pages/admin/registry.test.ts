/**
 * Every administration page of the registry has its definition, and every definition is complete
 * in both languages: titles, columns, filters, actions and each form field (nested ones too) carry
 * zh and en labels; every permission it names is declared in schemas/menus.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FormDefinition, PageDefinition } from '../../renderers/definition';
import { ADMIN_PAGES } from './registry';

const dir = fileURLToPath(new URL('../../../../schemas/ui/admin/', import.meta.url));
const menus = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../../schemas/menus/menus.json', import.meta.url)), 'utf8'),
) as { items: { id: string; path?: string; permission: string | null }[] };
const permissions = new Set(menus.items.map((i) => i.permission).filter(Boolean));
const menuPaths = new Set(menus.items.map((i) => i.path));
const load = (name: string) => JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8')) as PageDefinition;

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
      if (child.type === 'object') walk(child, path);
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
        for (const action of list.rowActions ?? []) {
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
});
