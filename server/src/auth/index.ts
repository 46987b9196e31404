/**
 * The auth module: login with verification code, sessions and the platform authenticator,
 * passwords, activation links, online users, login log, electronic signature.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
// The collection names before anything else: the identity modules' collection lists read them at load.
export { C, authCollections } from './collections';
export { signWithPassword } from './signature';
export type { SignatureRecord, Crop } from './signature';
export { reverifyPassword } from './login';
export { hashPassword, verifyPassword, secretsEqual, digestsEqual } from './crypto';
export type { IdentityOptions } from './options';
export { identityOptionsFromEnv } from './options';
export type { SecuritySettings, Tenant, User, UserState, Account } from './model';
export { accountsOf, findAccount, findAccountByName, newAccount, userDocId, usersOf } from './accounts';
export { consumeCaptcha } from './captcha';
export { randomToken, sha256Hex } from './crypto';
export { invite, memberState } from './invitations';
export { issueLink, linkPath, showLink } from './links';
export { DEFAULT_SECURITY, OPERATOR_TENANT } from './model';
export type { TenantLimits } from './model';
export {
  ACCOUNT_PATTERN,
  assertAccount,
  assertEmail,
  assertNewPassword,
  assertPhone,
  passwordProblems,
} from './policy';
export { endSessions, openSession } from './sessions';
export { allTenantIds } from './tenant-ids';
export { registerAuthorizer, registerTenantDirectory } from './providers';
export type { Authorizer, CallerGrants, TenantDirectory } from './providers';

import { defineModule } from '../http';
import { createAuthenticator } from './authenticator';
import { authCollections } from './collections';
import type { IdentityOptions } from './options';
import { identityOptionsFromEnv } from './options';
import { authRoutes } from './routes';
import { invitationRoutes } from './invitations';

/** Without options, the environment's, read when the module is mounted (as tenancy and users do). */
export function createAuthModule(options?: IdentityOptions) {
  return defineModule({
    name: 'auth',
    // Access and tenancy build on auth and register what it asks of them (providers.ts).
    dependsOn: [],
    collections: authCollections,
    routes: (router, deps) => {
      authRoutes(router, deps, options ?? identityOptionsFromEnv());
      invitationRoutes(router, deps);
    },
    authenticator: createAuthenticator,
  });
}

export const authModule = createAuthModule();
