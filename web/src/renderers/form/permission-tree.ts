/**
 * The permission tree of a role form: the menu and button items of schemas/menus (as
 * GET /api/access/menus answers them) nested by parent, and the selection rules: ticking an item
 * ticks what is under it and the menus above it (a button is useless without its page), clearing
 * an item clears what is under it.
 */
import type { LocalisedText } from '../../i18n';

export interface MenuEntry {
  id: string;
  type: 'menu' | 'button';
  parent: string | null;
  label: LocalisedText;
  permission: string | null;
  area: string;
  order: number;
  /** The caller holds it, so may grant it. */
  granted: boolean;
}

export interface PermissionNode {
  id: string;
  type: 'menu' | 'button';
  label: LocalisedText;
  grantable: boolean;
  children: PermissionNode[];
}

/** The items of one area that carry a permission, as a tree in menu order. */
export function permissionTree(entries: MenuEntry[], area: string): PermissionNode[] {
  const items = entries.filter((e) => e.area === area && e.permission !== null);
  const ids = new Set(items.map((e) => e.id));
  const nodes = new Map<string, PermissionNode>(
    items.map((e) => [e.id, { id: e.id, type: e.type, label: e.label, grantable: e.granted, children: [] }]),
  );
  const roots: PermissionNode[] = [];
  for (const e of [...items].sort((a, b) => a.order - b.order)) {
    const node = nodes.get(e.id)!;
    if (e.parent && ids.has(e.parent)) nodes.get(e.parent)!.children.push(node);
    else roots.push(node);
  }
  return roots;
}

function descendants(node: PermissionNode, into: string[] = []): string[] {
  for (const child of node.children) {
    into.push(child.id);
    descendants(child, into);
  }
  return into;
}

/** Parent of each node id. */
export function parentsOf(roots: PermissionNode[]): Map<string, string> {
  const parents = new Map<string, string>();
  const walk = (node: PermissionNode) => {
    for (const child of node.children) {
      parents.set(child.id, node.id);
      walk(child);
    }
  };
  roots.forEach(walk);
  return parents;
}

/** The selection after ticking or clearing a node. Items the caller cannot grant are left as they were. */
export function toggle(
  selected: readonly string[],
  node: PermissionNode,
  on: boolean,
  parents: Map<string, string>,
  grantable: (id: string) => boolean,
): string[] {
  const next = new Set(selected);
  const below = [node.id, ...descendants(node)].filter(grantable);
  if (on) {
    below.forEach((id) => next.add(id));
    for (let up = parents.get(node.id); up; up = parents.get(up)) if (grantable(up)) next.add(up);
  } else below.forEach((id) => next.delete(id));
  return [...next];
}

/** Checkbox state: ticked, partly ticked (some items below), or clear. */
export function stateOf(node: PermissionNode, selected: ReadonlySet<string>): boolean | 'mixed' {
  const below = descendants(node);
  const ticked = below.filter((id) => selected.has(id)).length;
  if (selected.has(node.id)) return below.length && ticked < below.length ? 'mixed' : true;
  return ticked ? 'mixed' : false;
}
