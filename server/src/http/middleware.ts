/**
 * The request pipeline: request id, context (headers, language), request log, authentication.
 */
import type { MiddlewareHandler } from 'hono';
import type { Translator } from '../i18n';
import { langFromHeader } from '../i18n';
import type { AppEnv, Authenticator, RequestContext } from './context';
import { bearerToken, isPromiseLike, parseIdList } from './context';
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

/**
 * Resolves the caller from the bearer token; failures wait until a route needs a caller. An
 * authenticator that answers at once (its session and tenant kept in memory) costs no await.
 */
export function authenticationMiddleware(authenticator: Authenticator | null): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const ctx = c.get('ctx');
    if (!authenticator || !ctx.token) return next();
    let found: ReturnType<Authenticator['authenticate']>;
    try {
      found = authenticator.authenticate(ctx.token, c);
    } catch (error) {
      ctx.authError = error;
      return next();
    }
    if (!isPromiseLike(found)) {
      ctx.principal = found;
      return next();
    }
    return Promise.resolve(found).then(
      (principal) => {
        ctx.principal = principal;
        return next();
      },
      (error: unknown) => {
        ctx.authError = error;
        return next();
      },
    );
  };
}

/**
 * The content security policy of every answer. Scripts come only from our own origin (no inline
 * script, no eval: the web app validates forms without generated code). Styles: Fluent UI's
 * Griffel and FluentProvider write their rules at run time into <style> elements they create;
 * those elements are allowed by the per-page nonce the server puts in index.html (`styleNonce`),
 * never by 'unsafe-inline'. Style attributes set through the CSSOM (element.style) are not
 * governed by CSP.
 */
export function contentSecurityPolicy(styleNonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self'${styleNonce ? ` 'nonce-${styleNonce}'` : ''}`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Security headers on every answer: CSP (a page that set its own, with a nonce, keeps it),
 * no framing, no referrer, no sniffing, HSTS when the public URL is https; API answers are never
 * stored by caches (they carry patient data), hashed static assets keep their long cache.
 */
export function securityHeadersMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    // Read per answer: a server started on port 0 learns its public URL after listening.
    const hsts = c.get('deps').config.publicUrl.startsWith('https://');
    let headers = c.res.headers;
    try {
      headers.set('X-Frame-Options', 'DENY');
    } catch {
      // A Response.redirect()/fetch answer has immutable headers: copy it once.
      c.res = new Response(c.res.body, c.res);
      headers = c.res.headers;
    }
    if (!headers.has('content-security-policy'))
      headers.set('Content-Security-Policy', contentSecurityPolicy());
    headers.set('X-Frame-Options', 'DENY');
    headers.set('Referrer-Policy', 'no-referrer');
    headers.set('X-Content-Type-Options', 'nosniff');
    if (hsts) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    const path = c.req.path;
    // An answer that declared itself immutable (content-addressed, no patient data: the case
    // validators module of a configuration hash) keeps its long cache.
    const immutable = headers.get('cache-control')?.includes('immutable') ?? false;
    if ((path === '/api' || path.startsWith('/api/') || path === '/health') && !immutable)
      headers.set('Cache-Control', 'no-store');
  };
}
