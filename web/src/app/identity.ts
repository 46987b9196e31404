/** The identity calls through the application's requester. */
import type {
  Captcha,
  MenuNode,
  ServerMe,
  ServerMenuItem,
  ServerSessionView,
  SessionInfo,
} from '../api/identity';
import { IDENTITY_PATHS, permittedMenuTree, toSessionInfo } from '../api/identity';
import { RequestError } from '../api/request';
import { api } from './api';

/** A new verification code; `replaces` retires the one on screen. */
export function fetchCaptcha(replaces?: string | null): Promise<Captcha> {
  return api.request<Captcha>(IDENTITY_PATHS.captcha, { params: replaces ? { replaces } : {}, silent: true });
}

export interface PolicyText {
  title: string;
  content: string;
}

export function fetchPrivacy(): Promise<{ privacyPolicy: PolicyText; userPrivacyPolicy: PolicyText }> {
  return api.request(IDENTITY_PATHS.privacy);
}

export interface LoginForm {
  account: string;
  password: string;
  captchaId?: string;
  captchaCode?: string;
}

/** Signs in; the form shows the refusal itself (silent). */
export function login(form: LoginForm): Promise<ServerSessionView> {
  return api.request<ServerSessionView>(IDENTITY_PATHS.login, { body: form, silent: true });
}

async function loadMenus(me: ServerMe): Promise<MenuNode[]> {
  // A password that must be changed first limits the session (4012): no menus until then.
  if (me.mustChangePassword) return [];
  try {
    const answer = await api.request<ServerMenuItem[] | { items: ServerMenuItem[] }>(IDENTITY_PATHS.menus, {
      silent: true,
    });
    return permittedMenuTree(answer, {
      operator: me.operator,
      permissions: me.permissions,
      userId: me.user.userId,
    });
  } catch (error) {
    if (error instanceof RequestError && (error.code === 4012 || error.code === 404)) return [];
    throw error;
  }
}

/** Who the session belongs to; `signingIn` turns a refusal into the sign-in's own error. */
export async function loadSessionInfo(signingIn = false): Promise<SessionInfo> {
  const me = await api.request<ServerMe>(
    IDENTITY_PATHS.me,
    signingIn ? { silent: true, sessionPrompts: false } : {},
  );
  return toSessionInfo(me, await loadMenus(me));
}

export function logout(): Promise<unknown> {
  return api.request(IDENTITY_PATHS.logout, { body: {}, silent: true });
}

/** Switches tenant and/or organisation: the server answers a new session (the old token ends). */
export function switchSession(target: {
  tenantId?: string;
  organisationId?: string;
}): Promise<ServerSessionView> {
  return api.request<ServerSessionView>(IDENTITY_PATHS.switch, { body: target });
}

export function changePassword(form: { oldPassword: string; newPassword: string; confirmPassword: string }) {
  return api.envelope<null>(IDENTITY_PATHS.changePassword, { body: form, silent: true });
}

export interface ActivationInfo {
  account: string;
  name: string;
  purpose: string;
  expiresAt: string;
  passwordRules: {
    minLength: number;
    requireUpper: boolean;
    requireLower: boolean;
    requireDigit: boolean;
    requireSpecial: boolean;
  };
}

/**
 * Exchanges the token the page arrived with for a code held in memory: the token stops working, so
 * the address it travelled in (history, a Referer) holds nothing usable.
 */
export function exchangeActivation(token: string): Promise<ActivationInfo & { code: string }> {
  return api.request<ActivationInfo & { code: string }>(`${IDENTITY_PATHS.activation}/exchange`, {
    method: 'POST',
    body: { token },
    silent: true,
  });
}

/** `token` is the code exchangeActivation answered. */
export function activate(form: { token: string; password: string; confirmPassword: string }) {
  return api.envelope<null>(IDENTITY_PATHS.activation, { body: form, silent: true });
}
