/**
 * The identity API as the web uses it (server/src/{auth,tenancy,access,users}). Server answers are
 * normalised here, so pages depend on these types only.
 */
import type { LocalisedText } from '../i18n';

/** One node of the caller's menu tree: a menu (route) or a button, with its permission identifier. */
export interface MenuNode {
  id: string;
  type: 'menu' | 'button';
  /** Full route path of a menu, e.g. /authoritymanagement/organization. */
  path: string;
  permission: string;
  label: LocalisedText;
  children: MenuNode[];
}

export interface NamedRef {
  id: string;
  name: string;
  nameEn?: string | null;
}

/** What the client keeps of a signed-in session (SPEC 3 "Client session state"). */
export interface SessionInfo {
  user: { id: string; account: string; name: string };
  tenant: NamedRef | null;
  /** Tenants the account may switch to. */
  tenants: NamedRef[];
  operator: boolean;
  organisations: NamedRef[];
  currentOrgId: string | null;
  /** The caller's permitted menus and buttons. */
  menus: MenuNode[];
  /** Permission identifiers the caller holds (buttons and menus). */
  permissions: string[];
  mustChangePassword: boolean;
  sessionMinutes: number;
}

/** /auth/captcha: off when the operator turned the verification code off. */
export type Captcha =
  { enabled: true; captchaId: string; image: string } | { enabled: false; captchaId: null; image: null };

/** The identity calls (server/src/auth/routes.ts, mounted at /api/auth; menus at /api/access). */
export const IDENTITY_PATHS = {
  captcha: '/auth/captcha',
  privacy: '/auth/privacy',
  login: '/auth/login',
  logout: '/auth/logout',
  me: '/auth/me',
  menus: '/access/menus',
  switch: '/auth/switch',
  changePassword: '/auth/password',
  activation: '/auth/activation',
  signature: '/auth/signature',
} as const;

/** The session view /auth/login and /auth/switch answer. */
export interface ServerSessionView {
  token: string;
  sessionMinutes: number;
  mustChangePassword: boolean;
  operator: boolean;
  user: { userId: string; account: string; name: string; organisationId: string | null };
  tenant: { tenantId: string; name: string; nameEn: string | null } | null;
  tenants: { tenantId: string; name: string; nameEn: string | null; status: string }[];
}

/** /auth/me: the session view plus organisations and permission keys. */
export interface ServerMe extends Omit<ServerSessionView, 'token'> {
  organisations: { organisationId: string; name: string }[];
  permissions: string[];
}

/** An item of the menu tree (schemas/menus/menus.json) as /access/menus answers it. */
export interface ServerMenuItem {
  id: string;
  type: 'menu' | 'button';
  path: string | null;
  parent: string | null;
  label: LocalisedText;
  permission: string | null;
  area: 'public' | 'personal' | 'tenant' | 'operator';
  order: number;
  /** False when the server module behind the item is not mounted. */
  available?: boolean;
  /** The server's decision whether the caller holds the item's permission. */
  granted?: boolean;
  children?: ServerMenuItem[];
}

/** Flattens a nested or flat answer into items with parents. */
function flattenMenuItems(
  items: ServerMenuItem[],
  parent: string | null = null,
  into: ServerMenuItem[] = [],
): ServerMenuItem[] {
  for (const item of items) {
    into.push({ ...item, parent: item.parent ?? parent });
    if (item.children) flattenMenuItems(item.children, item.id, into);
  }
  return into;
}

/**
 * The caller's menu tree: items whose module is mounted, in the caller's area (operators see the
 * operator area, tenant users the tenant area), granted by their permission keys; public and
 * personal items are not part of the navigation menus (the personal menu holds the latter).
 */
export function permittedMenuTree(
  answer: ServerMenuItem[] | { items: ServerMenuItem[] },
  me: { operator: boolean; permissions: string[]; userId: string },
): MenuNode[] {
  const items = flattenMenuItems(Array.isArray(answer) ? answer : answer.items);
  const keys = new Set(me.permissions);
  const area = me.operator ? 'operator' : 'tenant';
  // A group (an item other items hang under) stands or falls with its children, whatever module it names.
  const parents = new Set(items.map((item) => item.parent).filter(Boolean));
  const allowed = items.filter(
    (item) =>
      (item.available !== false || parents.has(item.id)) &&
      item.area === area &&
      (item.granted ??
        (!item.permission || keys.has(item.permission) || keys.has(`${item.permission}:${me.userId}`))),
  );
  // A child whose parent is not granted stays hidden with it: the tree is granted top down.
  const build = (parent: string | null): MenuNode[] =>
    allowed
      .filter((item) => item.parent === parent)
      .sort((a, b) => a.order - b.order)
      .map((item) => ({
        id: item.id,
        type: item.type,
        path: item.path ?? '',
        permission: item.permission ?? item.id,
        label: item.label,
        children: build(item.id),
        unavailable: item.available === false,
      }))
      .filter((node) => !node.unavailable || node.children.length > 0)
      .map(({ unavailable: _unavailable, ...node }) => node);
  return build(null);
}

/** The client session state from /auth/me and the menu tree. */
export function toSessionInfo(me: ServerMe, menus: MenuNode[]): SessionInfo {
  return {
    user: { id: me.user.userId, account: me.user.account, name: me.user.name },
    tenant: me.tenant ? { id: me.tenant.tenantId, name: me.tenant.name, nameEn: me.tenant.nameEn } : null,
    tenants: me.tenants.map((t) => ({ id: t.tenantId, name: t.name, nameEn: t.nameEn })),
    operator: me.operator,
    organisations: me.organisations.map((o) => ({ id: o.organisationId, name: o.name })),
    currentOrgId: me.user.organisationId,
    menus,
    permissions: me.permissions,
    mustChangePassword: me.mustChangePassword,
    sessionMinutes: me.sessionMinutes,
  };
}
