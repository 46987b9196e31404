/**
 * The request pipeline: request id, context (headers, language), request log, authentication.
 */
import type { MiddlewareHandler } from 'hono';
import type { Translator } from '../i18n';
import { langFromHeader } from '../i18n';
import type { AppEnv, Authenticator, RequestContext } from './context';
import { bearerToken, parseIdList } from './context';
import type { Logger } from './log';
import type { ModuleDeps } from './module';

/** An incoming X-Request-Id is kept when it is a short token of safe characters. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function requestContextMiddleware(
  deps: ModuleDeps,
  translator: Translator,
  log: Logger,
  authenticator: Authenticator | null,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    const lang = langFromHeader(c.req.header('lang-type'));
    const ctx: RequestContext = {
      requestId,
      lang,
      token: bearerToken(c.req.header('authorization')),
      sysOrgId: c.req.header('sysorgid')?.trim() || null,
      studyProjectIds: parseIdList(c.req.header('studyprojectids')),
      projectId: c.req.header('projectid')?.trim() || null,
      principal: null,
      authError: null,
    };
    c.set('ctx', ctx);
    c.set('deps', deps);
    c.set('translator', translator);
    c.set('t', (key, params) => translator.t(lang, key, params));
    c.set('log', log);
    c.set('authenticator', authenticator);
    c.header('X-Request-Id', requestId);

    const started = performance.now();
    try {
      await next();
    } finally {
      log({
        level: 'info',
        msg: 'request',
        requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        code: c.get('envelopeCode'),
        ms: Math.round((performance.now() - started) * 10) / 10,
        userId: ctx.principal?.userId,
        tenantId: ctx.principal?.tenantId,
      });
    }
  };
}

/** Resolves the caller from the bearer token; failures wait until a route needs a caller. */
export function authenticationMiddleware(authenticator: Authenticator | null): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const ctx = c.get('ctx');
    if (authenticator && ctx.token) {
      try {
        ctx.principal = await authenticator.authenticate(ctx.token, c);
      } catch (error) {
        ctx.authError = error;
      }
    }
    await next();
  };
}
