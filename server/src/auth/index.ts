/**
 * The auth module: login with verification code, sessions and the platform authenticator,
 * passwords, activation links, online users, login log, electronic signature.
 */
import { defineModule } from '../http/module';
import { createAuthenticator } from './authenticator';
import { authCollections } from './collections';
import type { IdentityOptions } from './options';
import { identityOptionsFromEnv } from './options';
import { authRoutes } from './routes';
import { invitationRoutes } from './invitations';

export function createAuthModule(options: IdentityOptions = identityOptionsFromEnv()) {
  return defineModule({
    name: 'auth',
    collections: authCollections,
    routes: (router, deps) => {
      authRoutes(router, deps, options);
      invitationRoutes(router, deps);
    },
    authenticator: createAuthenticator,
  });
}

export const authModule = createAuthModule();

export { signWithPassword } from './signature';
export type { SignatureRecord, Crop } from './signature';
export { reverifyPassword } from './login';
export { hashPassword, verifyPassword, secretsEqual, digestsEqual } from './crypto';
export type { IdentityOptions } from './options';
export { identityOptionsFromEnv } from './options';
export type { SecuritySettings, Tenant, User, UserState, Account } from './model';
