import { describe, expect, it } from 'vitest';
import type { ServerMenuItem } from './identity';
import { permittedMenuTree } from './identity';

const item = (
  id: string,
  parent: string | null,
  area: ServerMenuItem['area'],
  extra: Partial<ServerMenuItem> = {},
): ServerMenuItem => ({
  id,
  type: 'menu',
  path: `/${id.replace(/:/g, '/')}`,
  parent,
  label: { zh: id, en: id },
  permission: area === 'public' || area === 'personal' ? null : id,
  area,
  order: 0,
  ...extra,
});

const items: ServerMenuItem[] = [
  item('login', null, 'public'),
  item('personal', null, 'personal'),
  item('authoritymanagement', null, 'tenant', { order: 2 }),
  item('authoritymanagement:organization', 'authoritymanagement', 'tenant', { order: 1 }),
  item('authoritymanagement:organization:add', 'authoritymanagement:organization', 'tenant', {
    type: 'button',
    path: null,
  }),
  item('authoritymanagement:drugInfo', 'authoritymanagement', 'tenant', { available: false }),
  item('casemanagement', null, 'tenant', { order: 1, available: false }),
  item('casemanagement:casebookin', 'casemanagement', 'tenant', { available: false }),
  item('checklog', null, 'tenant', { order: 3, available: false }),
  item('checklog:loginOperationLog', 'checklog', 'tenant'),
  item('holoxcontrol', null, 'operator'),
  item('holoxcontrol:lessee', 'holoxcontrol', 'operator'),
];
const everything = items.map((i) => i.id);

describe('permitted menu tree', () => {
  it('keeps the tenant area items the keys grant and whose module is mounted, in order', () => {
    const tree = permittedMenuTree({ items }, { operator: false, permissions: everything, userId: 'u1' });
    expect(tree.map((n) => n.id)).toEqual(['authoritymanagement', 'checklog']);
    expect(tree[0]!.children.map((n) => n.id)).toEqual(['authoritymanagement:organization']);
    expect(tree[0]!.children[0]!.children.map((n) => [n.id, n.type])).toEqual([
      ['authoritymanagement:organization:add', 'button'],
    ]);
  });

  it('gives two roles different menus', () => {
    const tree = permittedMenuTree(items, {
      operator: false,
      permissions: ['checklog', 'checklog:loginOperationLog'],
      userId: 'u1',
    });
    expect(tree.map((n) => n.id)).toEqual(['checklog']);
  });

  it('hides a child whose parent is not granted, and shows operators their area only', () => {
    expect(
      permittedMenuTree(items, {
        operator: false,
        permissions: ['checklog:loginOperationLog'],
        userId: 'u1',
      }),
    ).toEqual([]);
    const operator = permittedMenuTree(items, { operator: true, permissions: everything, userId: 'u1' });
    expect(operator.map((n) => n.id)).toEqual(['holoxcontrol']);
  });

  it("follows the server's grant when it sends one, and user-only keys", () => {
    const granted = items.map((i) => ({ ...i, granted: i.id.startsWith('checklog') }));
    expect(
      permittedMenuTree(granted, { operator: false, permissions: [], userId: 'u1' }).map((n) => n.id),
    ).toEqual(['checklog']);
    const own = permittedMenuTree(items, {
      operator: false,
      permissions: ['checklog:u1', 'checklog:loginOperationLog:u1'],
      userId: 'u1',
    });
    expect(own.map((n) => n.id)).toEqual(['checklog']);
  });

  it('reads a nested answer as well as a flat one', () => {
    const nested: ServerMenuItem[] = [
      { ...item('checklog', null, 'tenant'), children: [item('checklog:loginOperationLog', null, 'tenant')] },
    ];
    const tree = permittedMenuTree(nested, { operator: false, permissions: everything, userId: 'u1' });
    expect(tree[0]!.children.map((n) => n.id)).toEqual(['checklog:loginOperationLog']);
  });
});
