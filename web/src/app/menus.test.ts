import { describe, expect, it } from 'vitest';
import type { MenuNode } from '../api/identity';
import { buttonPermissions, firstRoute, menuPaths, topMenuOf, visibleMenus } from './menus';

const node = (path: string, children: MenuNode[] = [], type: MenuNode['type'] = 'menu'): MenuNode => ({
  id: path,
  type,
  path,
  permission: path,
  label: { zh: path, en: path },
  children,
});

const tree = [
  node('/casemanagement', [node('/casemanagement/casebookin')]),
  node('/authoritymanagement', [
    node('/authoritymanagement/organization', [
      node('org:add', [], 'button'),
      node('org:edit', [], 'button'),
    ]),
    node('/authoritymanagement/userAccountManagement', [node('user:add', [], 'button')]),
  ]),
];

describe('menus', () => {
  const built = new Set(['/authoritymanagement/organization']);

  it('hides branches whose pages are not built and every button', () => {
    const visible = visibleMenus(tree, built);
    expect(visible.map((n) => n.path)).toEqual(['/authoritymanagement']);
    expect(visible[0]!.children.map((n) => n.path)).toEqual(['/authoritymanagement/organization']);
    expect(visible[0]!.children[0]!.children).toEqual([]);
  });

  it('lands on the first built permitted route', () => {
    expect(firstRoute(visibleMenus(tree, built), built)).toBe('/authoritymanagement/organization');
    expect(firstRoute(tree, new Set())).toBeNull();
  });

  it('lists permitted paths, the top menu of a path and the buttons of a page', () => {
    expect(menuPaths(tree).has('/authoritymanagement/userAccountManagement')).toBe(true);
    expect(menuPaths(tree).has('org:add')).toBe(false);
    expect(topMenuOf(tree, '/authoritymanagement/organization')?.path).toBe('/authoritymanagement');
    expect([...buttonPermissions(tree, '/authoritymanagement/organization')]).toEqual([
      'org:add',
      'org:edit',
    ]);
  });
});
