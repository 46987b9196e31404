/** Documents of the identity modules. */

/** Password and session rules of a tenant (SPEC 5, 9): every field required. */
export interface SecuritySettings {
  /** Consecutive wrong passwords before the account locks. */
  maxLoginErrors: number;
  /** Hours after which a locked account unlocks by itself. */
  autoUnlockHours: number;
  /** A password older than this many days must be changed at login; 0 means no cycle. */
  passwordChangeDays: number;
  minLength: number;
  requireUpper: boolean;
  requireLower: boolean;
  requireDigit: boolean;
  requireSpecial: boolean;
  /** Session expiry, sliding on every request: 30-360 minutes. */
  sessionMinutes: number;
}

export const DEFAULT_SECURITY: SecuritySettings = {
  maxLoginErrors: 5,
  autoUnlockHours: 1,
  passwordChangeDays: 90,
  minLength: 8,
  requireUpper: true,
  requireLower: true,
  requireDigit: true,
  requireSpecial: true,
  sessionMinutes: 120,
};

export type TenantStatus = 'pending' | 'active' | 'rejected' | 'disabled';

export interface TenantLimits {
  projects: number;
  sponsors: number;
  users: number;
}

export interface Tenant {
  name: string;
  nameEn?: string;
  code: string;
  status: TenantStatus;
  /** ISO instant; null: no expiry. */
  expiresAt: string | null;
  limits: TenantLimits;
  contact: { name: string; email: string; phone?: string };
  detail?: { address?: string; description?: string; creditCode?: string };
  security: SecuritySettings;
  /** The enterprise administrator who registered the tenant (top level, not changeable). */
  enterpriseAdminId: string | null;
  /** The tenant system administrator (changeable by the enterprise administrator). */
  systemAdminId: string | null;
  registeredAt: string;
  decidedAt?: string;
  decisionNote?: string;
  /** Deleted by the operator (only once disabled or rejected): kept, hidden from the default list, restorable. */
  deleted?: boolean;
  deletedAt?: string;
  deletedBy?: string;
}

/**
 * Credentials of one person, shared by the tenants they belong to. `tenantIds` lists the accepted
 * memberships only (an invitation joins it when the holder accepts). The lock fields serve
 * operators; a tenant member's lock lives on the membership (User), per tenant.
 */
export interface Account {
  account: string;
  /** Lower-case account, unique. */
  accountKey: string;
  passwordHash: string | null;
  passwordChangedAt: string | null;
  failedCount: number;
  lockedUntil: string | null;
  mustChangePassword: boolean;
  /** Platform operators work in /holoxcontrol only. */
  operator: boolean;
  operatorRoleIds: string[];
  /** Tenants the operator looks after (user jurisdiction); empty: all. */
  jurisdiction: string[];
  tenantIds: string[];
  lastTenantId: string | null;
  name: string;
}

/** `invited`: an existing account was invited and has not accepted yet; the membership does nothing. */
export type UserState = 'invited' | 'inactive' | 'enabled' | 'disabled' | 'locked';

/** A person's membership of one tenant; `accountId` links it to the account (the caller's userId). */
export interface User {
  accountId: string;
  account: string;
  accountKey: string;
  name: string;
  phone?: string;
  email: string;
  job?: string;
  state: UserState;
  organisationIds: string[];
  currentOrganisationId: string | null;
  roleIds: string[];
  /** Workflow duties (SPEC 6) the user performs, for display and assignment pickers. */
  duties?: string[];
  /** Consecutive wrong passwords in this tenant (the lock counts per account and tenant). */
  failedCount?: number;
  /** Locked in this tenant until then (state `locked`). */
  lockedUntil?: string | null;
  /** Deleted from the tenant (kept, disabled, hidden from the default list; restorable). */
  deleted?: boolean;
  deletedAt?: string;
  deletedBy?: string;
}

export type SessionEnd = 'logout' | 'replaced' | 'forced' | 'expired' | 'switched' | 'disabled';

export interface Session {
  tokenHash: string;
  accountId: string;
  sessionTenantId: string;
  organisationId: string | null;
  operator: boolean;
  account: string;
  name: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  sessionMinutes: number;
  mustChangePassword: boolean;
  ip: string | null;
  userAgent: string | null;
  endedAt: string | null;
  endReason: SessionEnd | null;
}

/** The pseudo-tenant of platform operator sessions: no tenant data lives under it. */
export const OPERATOR_TENANT = 'platform-operator';
