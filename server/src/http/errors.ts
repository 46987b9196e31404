import { HTTPException } from 'hono/http-exception';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { MessageParams } from '../i18n';
import {
  DuplicateKeyError,
  FileNotFoundError,
  FileTooLargeError,
  ForbiddenQueryError,
  RevisionConflictError,
  StoreError,
} from '../store';
import type { AppEnv } from './context';
import { Code, envelope, httpStatusFor } from './envelope';

/**
 * An expected failure a service reports to the caller: the envelope code, a message key
 * (`namespace.key` in schemas/i18n) with its parameters, and the HTTP status.
 */
export class AppError extends Error {
  readonly httpStatus: ContentfulStatusCode;
  readonly data: unknown;

  constructor(
    readonly code: number,
    readonly messageKey: string,
    readonly params: MessageParams = {},
    httpStatus?: ContentfulStatusCode,
    options: { data?: unknown; cause?: unknown } = {},
  ) {
    super(messageKey, { cause: options.cause });
    this.name = 'AppError';
    this.httpStatus = httpStatus ?? httpStatusFor(code);
    this.data = options.data ?? null;
  }
}

/** Shorthands for the common cases. */
export const errors = {
  badRequest: (messageKey = 'common.badRequest', params?: MessageParams, data?: unknown) =>
    new AppError(Code.badRequest, messageKey, params, 400, { data }),
  validation: (details: unknown) =>
    new AppError(Code.badRequest, 'common.validationFailed', {}, 400, { data: details }),
  notFound: (messageKey = 'common.notFound', params?: MessageParams) =>
    new AppError(Code.notFound, messageKey, params, 404),
  forbidden: (messageKey = 'common.forbidden', params?: MessageParams) =>
    new AppError(Code.forbidden, messageKey, params, 403),
  sessionInvalid: () => new AppError(Code.sessionInvalid, 'common.sessionInvalid', {}, 401),
  conflict: (messageKey = 'common.conflict', params?: MessageParams, data?: unknown) =>
    new AppError(Code.conflict, messageKey, params, 409, { data }),
};

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} B`;
}

/** Turns store errors into the caller-facing AppError they stand for; null for anything else. */
function fromStoreError(error: StoreError, t: (key: string) => boolean): AppError {
  const key = `store.${error.messageKey}`;
  if (error instanceof RevisionConflictError) {
    const data = {
      collection: error.collectionName,
      id: error.id,
      expectedRev: error.expectedRev,
      actualRev: error.actualRev,
    };
    return new AppError(Code.conflict, t(key) ? key : 'common.conflict', error.params, 409, { data });
  }
  if (error instanceof DuplicateKeyError) {
    return new AppError(Code.conflict, t(key) ? key : 'common.conflict', error.params, 409);
  }
  if (error instanceof FileTooLargeError) {
    return new AppError(
      Code.payloadTooLarge,
      'server.uploadTooLarge',
      { limit: formatBytes(error.maxBytes) },
      413,
    );
  }
  if (error instanceof FileNotFoundError) return new AppError(Code.notFound, 'server.fileNotFound', {}, 404);
  if (error instanceof ForbiddenQueryError) {
    return new AppError(Code.badRequest, t(key) ? key : 'common.badRequest', error.params, 400);
  }
  return new AppError(Code.error, t(key) ? key : 'common.internalError', error.params, 500);
}

/** app.onError: every thrown error becomes an envelope; unexpected ones are logged, never echoed. */
export function handleError(error: unknown, c: Context<AppEnv>): Response {
  const has = (key: string) => c.get('translator').has(key);
  let appError: AppError | null = null;
  if (error instanceof AppError) appError = error;
  else if (error instanceof StoreError) appError = fromStoreError(error, has);
  // Only decoding what a client sent (a header, a name) raises URIError: their input, not our fault.
  else if (error instanceof URIError)
    appError = new AppError(Code.badRequest, 'common.malformedEncoding', {}, 400);
  else if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    const key =
      status === 413
        ? 'common.payloadTooLarge'
        : status === 404
          ? 'common.notFound'
          : status === 401
            ? 'common.unauthorized'
            : status === 403
              ? 'common.forbidden'
              : 'common.badRequest';
    if (status < 500) appError = new AppError(status, key, {}, status);
  }
  const requestId = c.get('ctx')?.requestId ?? '';
  if (!appError || appError.httpStatus >= 500) {
    c.get('log')?.({
      level: 'error',
      msg: 'request failed',
      requestId,
      error: describeError(error),
    });
  }
  if (!appError) {
    return envelope(
      c,
      Code.error,
      'common.internalError',
      { requestId },
      { params: { requestId }, status: 500 },
    );
  }
  return envelope(c, appError.code, appError.messageKey, appError.data, {
    params: { requestId, ...appError.params },
    status: appError.httpStatus,
  });
}

export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, stack: error.stack };
  }
  return { value: String(error) };
}
