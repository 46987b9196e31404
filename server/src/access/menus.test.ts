import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { createPlatform } from '../app';
import type { Store } from '../store';
import { modules } from '../modules';
import { menuItems, permissionsOfArea } from './menus';
import { keyGrants } from './permissions';

const schema = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../schemas/menus/menus.schema.json', import.meta.url)), 'utf8'),
) as object;

describe('schemas/menus', () => {
  it('is valid against its schema, with unique ids and existing parents', () => {
    const validate = new Ajv2020({ strict: false }).compile(schema);
    const document = { items: menuItems() };
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    const ids = new Set(menuItems().map((i) => i.id));
    expect(ids.size).toBe(menuItems().length);
    for (const item of menuItems()) if (item.parent) expect(ids.has(item.parent), item.id).toBe(true);
    for (const item of menuItems())
      if (item.type === 'button') expect(item.permission, item.id).toBe(item.id);
  });

  it('covers the routes of SPEC section 2', () => {
    const paths = new Set(menuItems().map((i) => i.path));
    for (const path of [
      '/login',
      '/invalid',
      '/tenantRegistration',
      '/userActive',
      '/previewHistoryVersion',
      '/refresh',
      '/versionUpdate',
      '/public/projectList',
      '/public/auditTrail',
      '/home/personalhome',
      '/home/downloadstasks',
      '/activecase',
      '/casemanagement/queryLetterManagement',
      '/reportmanagment/exportCimos',
      '/submittransfer/supervisionSubmit',
      '/pooledanalysis/eventLevel',
      '/dsur/questionAdministration',
      '/checklog/loginOperationLog',
      '/authoritymanagement/sysTenantConfig',
      '/authoritymanagement/onlineUser',
      '/holoxcontrol/lessee',
      '/holoxcontrol/linelistingField',
    ]) {
      expect(paths.has(path), path).toBe(true);
    }
  });

  it('declares every permission a server route checks', () => {
    const platform = createPlatform({ store: {} as Store, modules, config: { webDist: null } });
    const known = new Set([...permissionsOfArea('tenant'), ...permissionsOfArea('operator')]);
    for (const route of platform.routes) {
      if (route.declaration.permission)
        expect(known.has(route.declaration.permission), route.path).toBe(true);
    }
  });

  it('grants a key ending in a user id to that user only', () => {
    const keys = new Set(['activecase:delete:u1', 'activecase:save']);
    expect(keyGrants(keys, 'activecase:delete', 'u1')).toBe(true);
    expect(keyGrants(keys, 'activecase:delete', 'u2')).toBe(false);
    expect(keyGrants(keys, 'activecase:save', 'u2')).toBe(true);
  });
});
