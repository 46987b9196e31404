/**
 * The platform's authenticator: bearer token -> session -> caller. A replaced session answers
 * 400002 (logged in elsewhere); an unknown, ended or expired one 400001; a tenant that expired or
 * was disabled ends access on the next request (400001 with the reason). A password that must be
 * changed limits the session to the password and identity routes (code 4012 elsewhere).
 */
import type { Authenticator, Principal } from '../http';
import { AppError, andThen } from '../http';
import { Code } from '../http';
import type { ModuleDeps } from '../http';
import { assertTenantUsable, authorize, cachedTenant, getTenant, grantsNow } from './providers';
import type { CallerGrants } from './providers';
import type { SessionLookup } from './sessions';
import { resolveSession } from './sessions';

type ActiveSession = Extract<SessionLookup, { state: 'active' }>;

const administersAll = (grants: CallerGrants): boolean => grants.all;

/** Routes a session that must change its password may still call. */
const PASSWORD_CHANGE_ROUTES = new Set(['/api/auth/password', '/api/auth/logout', '/api/auth/me']);

export function createAuthenticator(deps: ModuleDeps): Authenticator {
  /** The caller of an active session, once its tenant is known to be usable. */
  const principalOf = (found: ActiveSession, path: string): Principal => {
    if (found.principal.mustChangePassword && !PASSWORD_CHANGE_ROUTES.has(path)) {
      throw new AppError(Code.handledByPage4012, 'auth.mustChangePassword');
    }
    return found.principal;
  };
  const callerOfSession = (
    found: SessionLookup,
    path: string,
    now: Date,
  ): Principal | null | Promise<Principal> => {
    if (found.state === 'replaced') throw new AppError(Code.loggedInElsewhere, 'common.loggedInElsewhere');
    if (found.state === 'invalid') return null;
    const { session } = found;
    if (session.operator) return principalOf(found, path);
    // The tenant's state is checked on every request; kept tenants are checked without an await.
    const kept = cachedTenant(deps.store, session.sessionTenantId);
    if (kept !== undefined) {
      assertTenantUsable(kept, now, Code.sessionInvalid);
      return principalOf(found, path);
    }
    return getTenant(deps.store, session.sessionTenantId).then((tenant) => {
      assertTenantUsable(tenant, deps.clock.now(), Code.sessionInvalid);
      return principalOf(found, path);
    });
  };
  return {
    // Synchronous while the session and its tenant are kept in this process (the busy case).
    authenticate(token, c) {
      // One reading of the clock for the session's expiry and the tenant's (kept case).
      const now = deps.clock.now();
      const found = resolveSession(deps, token, now);
      return found instanceof Promise
        ? found.then((lookup) => callerOfSession(lookup, c.req.path, deps.clock.now()))
        : callerOfSession(found, c.req.path, now);
    },
    authorize: (principal, permission, context, scope) =>
      authorize(deps, principal, permission, context, scope),
    // At once while the grants are kept (a file read asks it on every request).
    administers: (principal) => andThen(grantsNow(deps, principal, null), administersAll),
  };
}
