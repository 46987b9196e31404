/** The route and menu tree of schemas/menus, read once. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface MenuItem {
  id: string;
  type: 'menu' | 'button';
  path: string | null;
  parent: string | null;
  label: { zh: string; en: string };
  permission: string | null;
  module: string;
  area: 'public' | 'personal' | 'tenant' | 'operator';
  order: number;
}

const MENUS_FILE = fileURLToPath(new URL('../../../schemas/menus/menus.json', import.meta.url));

let cached: MenuItem[] | null = null;
export function menuItems(): MenuItem[] {
  cached ??= (JSON.parse(readFileSync(MENUS_FILE, 'utf8')) as { items: MenuItem[] }).items;
  return cached;
}

/** Every permission identifier of an area. */
export function permissionsOfArea(area: MenuItem['area']): string[] {
  return menuItems()
    .filter((item) => item.area === area && item.permission)
    .map((item) => item.permission!);
}

export function isOperatorPermission(permission: string): boolean {
  return permission === 'holoxcontrol' || permission.startsWith('holoxcontrol:');
}
