/**
 * The response envelope `{ code, msg, data }` and the codes of the specification (SPEC section 8).
 * The web client reads `code` from the body; HTTP statuses match so that proxies, logs and
 * generic tools see the same outcome.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { MessageParams } from '../i18n';
import type { AppEnv } from './context';

export const Code = {
  /** Success. */
  ok: 200,
  /** Success with a warning toast. */
  warning: 203,
  /** Error toast with the message. */
  error: 500,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  conflict: 409,
  payloadTooLarge: 413,
  unsupportedMediaType: 415,
  /** Session invalid or expired: the client offers re-login, removes the token, returns to the root. */
  sessionInvalid: 400001,
  /** Logged in elsewhere: the client offers re-login or staying. */
  loggedInElsewhere: 400002,
  /** Passed through without a toast: the calling page handles it itself. */
  handledByPage: 500010,
  /** Passed through without a toast: the calling page handles it itself. */
  handledByPage4012: 4012,
} as const;

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** The HTTP status that goes with an envelope code when the thrower does not say. */
export function httpStatusFor(code: number): ContentfulStatusCode {
  if (code === Code.ok || code === Code.warning) return 200;
  if (code === Code.sessionInvalid || code === Code.loggedInElsewhere || code === Code.handledByPage4012) {
    return 401;
  }
  if (code === Code.handledByPage) return 500;
  if (code >= 400 && code <= 599) return code as ContentfulStatusCode;
  return 400;
}

/** Writes an envelope; `messageKey` is translated into the request's language. */
export function envelope<T>(
  c: Context<AppEnv>,
  code: number,
  messageKey: string,
  data: T,
  options: { params?: MessageParams; status?: ContentfulStatusCode } = {},
): Response {
  c.set('envelopeCode', code);
  const body: Envelope<T> = { code, msg: c.get('t')(messageKey, options.params), data };
  return c.json(body, options.status ?? httpStatusFor(code));
}

/** 200 envelope around `data`. */
export function ok<T>(
  c: Context<AppEnv>,
  data: T,
  messageKey = 'common.ok',
  params?: MessageParams,
): Response {
  return envelope(c, Code.ok, messageKey, data, { params });
}

/** 203 envelope: the operation succeeded and the client shows `messageKey` as a warning. */
export function warning<T>(
  c: Context<AppEnv>,
  messageKey: string,
  params?: MessageParams,
  data?: T,
): Response {
  return envelope(c, Code.warning, messageKey, data ?? null, { params });
}
