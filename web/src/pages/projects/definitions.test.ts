/**
 * The project screens' definitions are complete in zh and en, name only declared permissions, and
 * their forms ask only for fields the server's entity schemas accept (the server derives its
 * request bodies from schemas/entities, so a form field outside them would always be refused).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import zh from '../../../../schemas/i18n/projects/zh.json';
import en from '../../../../schemas/i18n/projects/en.json';
import type { FormDefinition } from '../../renderers/definition';
import { definitionFiles, forProject, lockAction } from './definitions';

const root = (path: string) => fileURLToPath(new URL(`../../../../${path}`, import.meta.url));
const menus = JSON.parse(readFileSync(root('schemas/menus/menus.json'), 'utf8')) as {
  items: { permission: string | null }[];
};
const permissions = new Set(menus.items.map((i) => i.permission));
type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema };
const entity = (name: string) =>
  JSON.parse(readFileSync(root(`schemas/entities/${name}.json`), 'utf8')) as Schema;

function bilingual(text: unknown, where: string): void {
  const t = text as { zh?: string; en?: string } | undefined;
  expect(t?.zh, `${where} zh`).toBeTruthy();
  expect(t?.en, `${where} en`).toBeTruthy();
}

function checkForm(form: FormDefinition, where: string): void {
  const walk = (schema: Schema, prefix: string) => {
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      bilingual(form.labels[path], `${where} ${path}`);
      for (const value of (child.enum as unknown[]) ?? [])
        bilingual(form.labels[`${path}.${String(value)}`], path);
      // RJSF renders an enum without a type as an unsupported field.
      if (child.enum) expect(child.type, `${where} ${path} type`).toBe('string');
      if (child.items?.properties) walk(child.items, path);
    }
  };
  walk(form.schema as Schema, '');
  for (const call of [form.create, form.update])
    if (call?.permission) expect(permissions.has(call.permission)).toBe(true);
}

describe('project administration definitions', () => {
  it('label everything in zh and en and name only declared permissions', () => {
    for (const [name, page] of Object.entries(definitionFiles)) {
      bilingual(page.title, name);
      for (const list of page.lists) {
        bilingual(list.title, `${name}/${list.id}`);
        for (const column of list.columns) bilingual(column.label, `${name} column ${column.key}`);
        for (const filter of list.filters ?? []) bilingual(filter.label, `${name} filter ${filter.param}`);
        for (const tab of list.tabs ?? []) bilingual(tab.label, `${name} tab ${tab.key}`);
        for (const action of list.rowActions ?? []) {
          bilingual(action.label, `${name} action ${action.key}`);
          if (action.permission) expect(permissions.has(action.permission), action.permission).toBe(true);
          if (action.form) checkForm(action.form, `${name} action ${action.key}`);
        }
        if (list.form) checkForm(list.form, name);
      }
    }
  });

  it('ask only for fields the server accepts, with the same required fields', () => {
    const pairs: [FormDefinition, string][] = [
      [definitionFiles.projects!.lists[0]!.form!, 'project'],
      [forProject('sites', 'p1').form!, 'study-site'],
      [forProject('drugs', 'p1').form!, 'project-drug'],
    ];
    for (const [form, name] of pairs) {
      const accepted = entity(name);
      const writable = Object.entries(accepted.properties!).filter(([, p]) => p.readOnly !== true);
      expect(Object.keys(form.schema.properties as object).sort()).toEqual(writable.map(([k]) => k).sort());
      expect(form.schema.required).toEqual(accepted.required);
    }
  });

  it('fill the project into the site and drug paths, and lock with a typed confirmation', () => {
    const sites = forProject('sites', 'a b');
    expect(sites.source.path).toBe('/projects/a%20b/sites');
    expect(sites.form?.update?.path).toBe('/projects/a%20b/sites/{id}');
    for (const locked of [false, true]) {
      const action = lockAction(locked);
      expect(action.path).toBe(`/projects/{projectId}/${locked ? 'unlock' : 'lock'}`);
      // The confirmation field is not a project field: the form never arrives pre-filled.
      expect(Object.keys(action.form!.schema.properties as object)).not.toContain('code');
      expect(action.form!.schema.required).toEqual(['confirmationCode']);
    }
  });

  it('has every screen label in both languages', () => {
    const uiKeys = (catalogue: Record<string, string>) =>
      Object.keys(catalogue).filter((k) => k.startsWith('ui'));
    expect(uiKeys(zh).sort()).toEqual(uiKeys(en).sort());
    for (const key of uiKeys(zh)) expect((en as Record<string, string>)[key], key).toBeTruthy();
  });
});
