/**
 * The menus a user sees: their permitted menu tree (from the server) cut down to the routes whose
 * page is built. A route whose module is not built is neither served nor shown.
 */
import type { MenuNode } from '../api/identity';

/** Menu nodes only (no buttons), keeping a branch when it has a built page or a visible child. */
export function visibleMenus(menus: MenuNode[], built: ReadonlySet<string>): MenuNode[] {
  const result: MenuNode[] = [];
  for (const node of menus) {
    if (node.type !== 'menu') continue;
    const children = visibleMenus(node.children, built);
    if (built.has(node.path) || children.length > 0) result.push({ ...node, children });
  }
  return result;
}

/** Every menu path in the tree (permitted routes). */
export function menuPaths(menus: MenuNode[], into = new Set<string>()): Set<string> {
  for (const node of menus) {
    if (node.type === 'menu') into.add(node.path);
    menuPaths(node.children, into);
  }
  return into;
}

/** The first route a user can open: where login lands. */
export function firstRoute(menus: MenuNode[], built: ReadonlySet<string>): string | null {
  for (const node of menus) {
    if (node.type !== 'menu') continue;
    if (built.has(node.path)) return node.path;
    const child = firstRoute(node.children, built);
    if (child) return child;
  }
  return null;
}

/** The top-level menu that holds a path. */
export function topMenuOf(menus: MenuNode[], path: string): MenuNode | null {
  const contains = (node: MenuNode): boolean => node.path === path || node.children.some(contains);
  return menus.find(contains) ?? null;
}

/** Permission identifiers of the buttons under a menu path (the page's allowed actions). */
export function buttonPermissions(menus: MenuNode[], path: string): Set<string> {
  const result = new Set<string>();
  const walk = (nodes: MenuNode[], inside: boolean) => {
    for (const node of nodes) {
      const here = inside || (node.type === 'menu' && node.path === path);
      if (here && node.type === 'button') result.add(node.permission);
      walk(node.children, here);
    }
  };
  walk(menus, false);
  return result;
}
