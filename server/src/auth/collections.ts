/**
 * The identity modules' collection names (C), and the auth module's own collections. Credentials,
 * sessions, verification codes and links are platform collections (a login starts before the
 * tenant is known); everything a tenant administers lives in tenant collections, declared by the
 * module that owns them (tenancy, access, users: their collections.ts).
 */
import type { CollectionDefinition } from '../store';

export const C = {
  // platform scope
  tenants: 'tenants',
  accounts: 'accounts',
  sessions: 'sessions',
  captchas: 'captchas',
  /** Account name + tenant pairs that need the verification code to log in (login.ts). */
  loginChallenges: 'loginChallenges',
  links: 'accountLinks',
  /** Invitations of existing accounts to further tenants, waiting for the holder (auth/invitations.ts). */
  invitations: 'invitations',
  platformLoginLog: 'platformLoginLog',
  operatorRoles: 'operatorRoles',
  /** The operator's system configuration (defaults of new tenants). */
  platformSettings: 'platformSettings',
  // tenant scope
  users: 'users',
  organisations: 'organisations',
  company: 'companyInfo',
  roles: 'roles',
  projectMembers: 'projectMembers',
  loginLog: 'loginLog',
  operationLog: 'operationLog',
  signatures: 'signatures',
  signatureRecords: 'signatureRecords',
} as const;

export const authCollections: CollectionDefinition[] = [
  {
    name: C.accounts,
    scope: 'platform',
    audited: true,
    indexes: [{ fields: { accountKey: 1 }, unique: true }],
  },
  {
    name: C.sessions,
    scope: 'platform',
    indexes: [
      { fields: { tokenHash: 1 }, unique: true },
      { fields: { accountId: 1, endedAt: 1 } },
      { fields: { sessionTenantId: 1, endedAt: 1 } },
    ],
  },
  { name: C.captchas, scope: 'platform', indexes: [{ fields: { expiresAt: 1 } }] },
  { name: C.loginChallenges, scope: 'platform' },
  { name: C.links, scope: 'platform', indexes: [{ fields: { tokenHash: 1 }, unique: true }] },
  { name: C.invitations, scope: 'platform', audited: true, indexes: [{ fields: { accountId: 1 } }] },
  // account: the log lists' sort by account (and their account filter).
  {
    name: C.platformLoginLog,
    scope: 'platform',
    indexes: [{ fields: { at: -1 } }, { fields: { account: 1 } }],
  },
  { name: C.loginLog, scope: 'tenant', indexes: [{ fields: { at: -1 } }, { fields: { account: 1 } }] },
  {
    name: C.operationLog,
    scope: 'tenant',
    indexes: [{ fields: { at: -1 } }, { fields: { userId: 1 } }, { fields: { account: 1 } }],
  },
  { name: C.signatures, scope: 'tenant', audited: true },
  { name: C.signatureRecords, scope: 'tenant', audited: true, indexes: [{ fields: { userId: 1 } }] },
];
