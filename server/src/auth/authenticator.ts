/**
 * The platform's authenticator: bearer token -> session -> caller. A replaced session answers
 * 400002 (logged in elsewhere); an unknown, ended or expired one 400001; a tenant that expired or
 * was disabled ends access on the next request (400001 with the reason). A password that must be
 * changed limits the session to the password and identity routes (code 4012 elsewhere).
 */
import type { Authenticator, Principal } from '../http';
import { AppError } from '../http';
import { Code } from '../http';
import type { ModuleDeps } from '../http';
import { assertTenantUsable, authorize, getTenant, grantsOf } from './providers';
import { resolveSession } from './sessions';

/** Routes a session that must change its password may still call. */
const PASSWORD_CHANGE_ROUTES = new Set(['/api/auth/password', '/api/auth/logout', '/api/auth/me']);

export function createAuthenticator(deps: ModuleDeps): Authenticator {
  return {
    async authenticate(token, c) {
      const found = await resolveSession(deps, token);
      if (found.state === 'replaced') throw new AppError(Code.loggedInElsewhere, 'common.loggedInElsewhere');
      if (found.state === 'invalid') return null;
      const { session } = found;
      if (!session.operator) {
        assertTenantUsable(
          await getTenant(deps.store, session.sessionTenantId),
          deps.clock.now(),
          Code.sessionInvalid,
        );
      }
      if (session.mustChangePassword && !PASSWORD_CHANGE_ROUTES.has(c.req.path)) {
        throw new AppError(Code.handledByPage4012, 'auth.mustChangePassword');
      }
      const principal: Principal = {
        userId: session.accountId,
        tenantId: session.sessionTenantId,
        sessionId: session._id,
        account: session.account,
        name: session.name,
        organisationId: session.organisationId,
        operator: session.operator,
        mustChangePassword: session.mustChangePassword,
      };
      return principal;
    },
    authorize: (principal, permission, context, scope) =>
      authorize(deps, principal, permission, context, scope),
    administers: async (principal) => (await grantsOf(deps, principal, null)).all,
  };
}
