import { describe, expect, it } from 'vitest';
import type { MenuEntry } from './permission-tree';
import { parentsOf, permissionTree, stateOf, toggle } from './permission-tree';

const entry = (
  id: string,
  parent: string | null,
  type: 'menu' | 'button',
  order: number,
  granted = true,
): MenuEntry => ({
  id,
  type,
  parent,
  label: { zh: id, en: id },
  permission: id,
  area: 'tenant',
  order,
  granted,
});

const entries: MenuEntry[] = [
  entry('admin', null, 'menu', 1),
  entry('admin:users', 'admin', 'menu', 2),
  entry('admin:users:add', 'admin:users', 'button', 3),
  entry('admin:users:delete', 'admin:users', 'button', 4, false),
  entry('home', null, 'menu', 0),
  { ...entry('ops', null, 'menu', 5), area: 'operator' },
  { ...entry('login', null, 'menu', 6), permission: null },
];

describe('permission tree', () => {
  const roots = permissionTree(entries, 'tenant');
  const parents = parentsOf(roots);
  const grantable = (id: string) => entries.find((e) => e.id === id)!.granted;
  const users = roots[1]!.children[0]!;

  it('nests the area’s permissioned items by parent, in menu order', () => {
    expect(roots.map((r) => r.id)).toEqual(['home', 'admin']);
    expect(users.children.map((c) => [c.id, c.type])).toEqual([
      ['admin:users:add', 'button'],
      ['admin:users:delete', 'button'],
    ]);
  });

  it('ticking a button ticks the menus above it; ticking a menu ticks what the user may grant below it', () => {
    expect(toggle([], users.children[0]!, true, parents, grantable).sort()).toEqual([
      'admin',
      'admin:users',
      'admin:users:add',
    ]);
    expect(toggle([], users, true, parents, grantable).sort()).toEqual([
      'admin',
      'admin:users',
      'admin:users:add',
    ]);
  });

  it('clearing a menu clears what is under it and keeps the rest', () => {
    expect(
      toggle(['home', 'admin', 'admin:users', 'admin:users:add'], users, false, parents, grantable).sort(),
    ).toEqual(['admin', 'home']);
  });

  it('shows a menu with only part of its items ticked as mixed', () => {
    expect(stateOf(users, new Set(['admin:users', 'admin:users:add']))).toBe('mixed');
    expect(stateOf(users, new Set(['admin:users', 'admin:users:add', 'admin:users:delete']))).toBe(true);
    expect(stateOf(users, new Set())).toBe(false);
  });
});
