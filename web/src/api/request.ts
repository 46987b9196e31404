/**
 * The request layer (SPEC 7 and 8). Every call carries the bearer token, sysOrgId,
 * studyProjectIds, projectId and Lang-Type; times out after 30 s; flattens GET parameters with
 * nested objects as key[sub]; reads binary downloads with their content-disposition name; cancels
 * a repeated identical click on the protected calls; and reacts to the envelope codes: 400001 and
 * 400002 open the re-login dialogs, 203 is a warning toast, 500010 and 4012 pass silently, any
 * other non-200 is an error toast.
 */

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Query parameters; nested objects are flattened as key[sub]. */
  params?: Record<string, unknown>;
  /** JSON body. */
  body?: unknown;
  /** No toast for business errors: the caller shows them itself (e.g. a login form). */
  silent?: boolean;
  /** False while signing in: a 400001 or 400002 is the sign-in's own failure, not a lost session. */
  sessionPrompts?: boolean;
  /** Shows the loading overlay while the call runs (downloads do by default). */
  loading?: boolean;
  signal?: AbortSignal;
}

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

export type FailureKind = 'business' | 'network' | 'http' | 'duplicate';

export class RequestError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    /** The envelope code (business) or the HTTP status (http). */
    readonly code: number | null,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/** What the request layer needs from the application around it. */
export interface RequestHooks {
  headers(): {
    token: string | null;
    sysOrgId: string | null;
    studyProjectIds: string[];
    projectId: string | null;
    lang: 'cn' | 'en';
  };
  /** A catalogue text in the display language. */
  t(key: string, params?: Record<string, string | number>): string;
  toast(kind: 'error' | 'warning', message: string): void;
  /** 400001: session invalid or expired. */
  sessionInvalid(message: string): void;
  /** 400002: the account signed in elsewhere. */
  loggedInElsewhere(message: string): void;
  /** Any answered request: the session slides on the server, the client mirrors the expiry. */
  answered(): void;
  /** Shows the loading overlay; the returned function hides it (the overlay also closes by itself after 5 s). */
  startLoading?(): () => void;
}

export const API_BASE = '/api';
export const REQUEST_TIMEOUT_MS = 30_000;
const PROTECTED_PATHS = [
  'setUpDsurFileState',
  'setUpDsurPlan',
  'import/madeTemplate',
  'crossPlatformSync/queryReport',
];
const SILENT_CODES = new Set([500010, 4012]);

/** GET parameters with nested objects flattened as key[sub]; arrays as repeated key[] (the server's reading). */
export function flattenParams(params: Record<string, unknown>, prefix = ''): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(params)) {
    const key = prefix ? `${prefix}[${name}]` : name;
    if (value === undefined || value === null) continue;
    if (value instanceof Date) pairs.push([key, value.toISOString()]);
    else if (Array.isArray(value)) for (const item of value) pairs.push([`${key}[]`, String(item)]);
    else if (typeof value === 'object') pairs.push(...flattenParams(value as Record<string, unknown>, key));
    else pairs.push([key, String(value)]);
  }
  return pairs;
}

export function isProtectedPath(url: string): boolean {
  return /dsur/i.test(url) || PROTECTED_PATHS.some((path) => url.includes(path));
}

/** The file name of a content-disposition header (RFC 5987 filename* first). */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed percent-encoding: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  if (!plain) return null;
  return (plain[2] ?? plain[1]!).trim();
}

export function defaultMessageKey(code: number): string {
  if (code === 401) return 'request.unauthenticated';
  if (code === 403) return 'request.forbidden';
  if (code === 404) return 'request.notFound';
  return 'request.unknown';
}

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    'code' in value &&
    typeof (value as Envelope).code === 'number'
  );
}

export interface Requester {
  /** The `data` of a 200 (or 203) envelope; throws RequestError otherwise. */
  request<T>(url: string, options?: RequestOptions): Promise<T>;
  /** The whole envelope of a 200 or 203 answer (when the caller shows `msg`). */
  envelope<T>(url: string, options?: RequestOptions): Promise<Envelope<T>>;
  /** A binary download named from content-disposition. */
  download(url: string, options?: RequestOptions): Promise<DownloadedFile>;
}

export function createRequester(
  hooks: RequestHooks,
  fetchImpl: typeof fetch = (...a) => fetch(...a),
): Requester {
  const pending = new Set<string>();

  async function send(url: string, options: RequestOptions): Promise<Response> {
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    let target = url.startsWith('/api/') || /^https?:/.test(url) ? url : `${API_BASE}${url}`;
    if (options.params) {
      const query = new URLSearchParams(flattenParams(options.params)).toString();
      if (query) target += (target.includes('?') ? '&' : '?') + query;
    }
    const h = hooks.headers();
    const headers: Record<string, string> = {
      'Lang-Type': h.lang,
      sysOrgId: h.sysOrgId ?? '',
      studyProjectIds: h.studyProjectIds.join(','),
      projectId: h.projectId ?? '',
    };
    if (h.token) headers.Authorization = `Bearer ${h.token}`;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';

    const key = `${method} ${target} ${options.body === undefined ? '' : JSON.stringify(options.body)}`;
    const guarded = isProtectedPath(target);
    if (guarded && pending.has(key)) {
      const message = hooks.t('request.repeatedClick');
      hooks.toast('warning', message);
      throw new RequestError(message, 'duplicate', null);
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    const abort = () => controller.abort();
    options.signal?.addEventListener('abort', abort);
    if (guarded) pending.add(key);
    const stopLoading = options.loading ? hooks.startLoading?.() : undefined;
    try {
      return await fetchImpl(target, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: controller.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const message = hooks.t('request.network');
      hooks.toast('error', message);
      throw new RequestError(message, 'network', null);
    } finally {
      clearTimeout(timer);
      stopLoading?.();
      options.signal?.removeEventListener('abort', abort);
      if (guarded) pending.delete(key);
    }
  }

  /** Applies SPEC 8 to an envelope; returns it when it is a success. */
  function handle<T>(body: Envelope<T>, options: RequestOptions): Envelope<T> {
    hooks.answered();
    const message = body.msg || hooks.t(defaultMessageKey(body.code));
    if (body.code === 200) return body;
    if (body.code === 203) {
      hooks.toast('warning', message);
      return body;
    }
    const prompts = options.sessionPrompts !== false;
    if (body.code === 400001 && prompts) hooks.sessionInvalid(message);
    else if (body.code === 400002 && prompts) hooks.loggedInElsewhere(message);
    else if (!SILENT_CODES.has(body.code) && !options.silent) hooks.toast('error', message);
    throw new RequestError(message, 'business', body.code, body.data);
  }

  async function readEnvelope<T>(response: Response, options: RequestOptions): Promise<Envelope<T>> {
    let body: unknown = null;
    if (/json/i.test(response.headers.get('content-type') ?? ''))
      body = await response.json().catch(() => null);
    if (isEnvelope(body)) return handle(body as Envelope<T>, options);
    // SPEC 8: the code is read from the body and defaults to 200 (a successful answer without one).
    if (response.ok && body !== null) return handle({ code: 200, msg: '', data: body as T }, options);
    const message = hooks.t('request.httpFailure', { status: response.status });
    if (!options.silent) hooks.toast('error', message);
    throw new RequestError(message, 'http', response.status);
  }

  return {
    async request<T>(url: string, options: RequestOptions = {}) {
      return (await readEnvelope<T>(await send(url, options), options)).data;
    },
    async envelope<T>(url: string, options: RequestOptions = {}) {
      return readEnvelope<T>(await send(url, options), options);
    },
    async download(url: string, options: RequestOptions = {}) {
      // The overlay stays until the whole file has arrived, not just its headers.
      const stopLoading = options.loading === false ? undefined : hooks.startLoading?.();
      try {
        const response = await send(url, { ...options, loading: false });
        // An error comes back as an envelope, not as a file.
        if (!response.ok || /application\/json/i.test(response.headers.get('content-type') ?? '')) {
          await readEnvelope(response, options);
          throw new RequestError(hooks.t('request.unknown'), 'http', response.status);
        }
        hooks.answered();
        const fileName =
          fileNameFromDisposition(response.headers.get('content-disposition')) ??
          url.split('/').pop() ??
          'download';
        return { blob: await response.blob(), fileName };
      } finally {
        stopLoading?.();
      }
    },
  };
}

/** Hands a downloaded file to the browser's save dialog. */
export function saveFile(file: DownloadedFile): void {
  const href = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = file.fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
