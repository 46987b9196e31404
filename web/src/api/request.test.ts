import { describe, expect, it, vi } from 'vitest';
import type { RequestHooks } from './request';
import {
  createRequester,
  fileNameFromDisposition,
  flattenParams,
  isProtectedPath,
  RequestError,
} from './request';

function setup(respond: (url: string, init: RequestInit) => Promise<Response> | Response) {
  const events: string[] = [];
  const hooks: RequestHooks = {
    headers: () => ({
      token: 'tok',
      sysOrgId: 'org1',
      studyProjectIds: ['p1', 'p2'],
      projectId: 'p1',
      lang: 'en',
    }),
    t: (key, params) => (params ? `${key}:${JSON.stringify(params)}` : key),
    toast: (kind, message) => events.push(`${kind}:${message}`),
    sessionInvalid: (message) => events.push(`400001:${message}`),
    loggedInElsewhere: (message) => events.push(`400002:${message}`),
    answered: () => events.push('answered'),
    startLoading: () => {
      events.push('loading');
      return () => events.push('loaded');
    },
  };
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init! });
    return respond(String(url), init!);
  }) as unknown as typeof fetch;
  return { requester: createRequester(hooks, fetchImpl), events, calls };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('request layer', () => {
  it('sends the five headers and flattens nested GET parameters', async () => {
    const { requester, calls } = setup(() => json({ code: 200, msg: 'ok', data: [1] }));
    const data = await requester.request('/cases', {
      params: { page: 2, filter: { state: 'open', when: { from: 'a' } }, ids: ['x', 'y'], none: null },
    });
    expect(data).toEqual([1]);
    const { url, init } = calls[0]!;
    expect(decodeURIComponent(url)).toBe(
      '/api/cases?page=2&filter[state]=open&filter[when][from]=a&ids[]=x&ids[]=y',
    );
    expect(init.headers).toMatchObject({
      Authorization: 'Bearer tok',
      sysOrgId: 'org1',
      studyProjectIds: 'p1,p2',
      projectId: 'p1',
      'Lang-Type': 'en',
    });
    expect(init.method).toBe('GET');
  });

  it('posts JSON bodies', async () => {
    const { requester, calls } = setup(() => json({ code: 200, msg: '', data: null }));
    await requester.request('/x', { body: { a: 1 } });
    expect(calls[0]!.init).toMatchObject({ method: 'POST', body: '{"a":1}' });
  });

  it('maps the envelope codes to toasts and dialogs', async () => {
    const cases: [number, string, string | null][] = [
      [203, 'careful', 'warning:careful'],
      [500, 'boom', 'error:boom'],
      [400001, 'expired', '400001:expired'],
      [400002, 'elsewhere', '400002:elsewhere'],
      [500010, 'quiet', null],
      [4012, 'quiet', null],
      [409, 'stale', 'error:stale'],
      [403, '', 'error:request.forbidden'],
      [404, '', 'error:request.notFound'],
      [401, '', 'error:request.unauthenticated'],
      [777, '', 'error:request.unknown'],
    ];
    for (const [code, msg, expected] of cases) {
      const { requester, events } = setup(() => json({ code, msg, data: 'd' }, code === 203 ? 200 : 400));
      const result = requester.request('/x');
      if (code === 203) await expect(result).resolves.toBe('d');
      else await expect(result).rejects.toMatchObject({ kind: 'business', code });
      expect(events.filter((e) => e !== 'answered')).toEqual(expected ? [expected] : []);
    }
  });

  it('stays silent on business errors when the caller asks', async () => {
    const { requester, events } = setup(() => json({ code: 500, msg: 'wrong password', data: null }));
    await expect(requester.request('/login', { body: {}, silent: true })).rejects.toThrow('wrong password');
    expect(events).toEqual(['answered']);
  });

  it('leaves 400001 and 400002 to the caller while signing in', async () => {
    for (const code of [400001, 400002]) {
      const { requester, events } = setup(() => json({ code, msg: 'no', data: null }, 401));
      await expect(
        requester.request('/auth/me', { silent: true, sessionPrompts: false }),
      ).rejects.toMatchObject({ code });
      expect(events).toEqual(['answered']);
    }
  });

  it('takes a successful JSON answer without a code as code 200', async () => {
    const { requester, events } = setup(() => json({ items: [1, 2] }));
    await expect(requester.request('/plain')).resolves.toEqual({ items: [1, 2] });
    expect(events).toEqual(['answered']);
    const failed = setup(() => json({ error: 'x' }, 500));
    await expect(failed.requester.request('/plain')).rejects.toMatchObject({ kind: 'http', code: 500 });
    expect(failed.events).toEqual(['error:request.httpFailure:{"status":500}']);
  });

  it('reports network failures and HTTP failures without an envelope', async () => {
    const network = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(network.requester.request('/x')).rejects.toMatchObject({ kind: 'network' });
    expect(network.events).toEqual(['error:request.network']);
    const http = setup(
      () =>
        new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    await expect(http.requester.request('/x')).rejects.toMatchObject({ kind: 'http', code: 502 });
    expect(http.events).toEqual(['error:request.httpFailure:{"status":502}']);
  });

  it('times out after 30 s as a network failure', async () => {
    vi.useFakeTimers();
    try {
      const { requester, events } = setup(
        (_url, init) =>
          new Promise((_, reject) =>
            init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      );
      const pending = requester.request('/slow');
      const outcome = expect(pending).rejects.toBeInstanceOf(RequestError);
      await vi.advanceTimersByTimeAsync(29_999);
      expect(events).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await outcome;
      expect(events).toEqual(['error:request.network']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancels a repeated identical protected call while the first is pending', async () => {
    let release!: () => void;
    const { requester, events, calls } = setup(
      () => new Promise((resolve) => (release = () => resolve(json({ code: 200, msg: '', data: 1 })))),
    );
    const first = requester.request('/dsur/setUpDsurPlan', { body: { id: 1 } });
    await expect(requester.request('/dsur/setUpDsurPlan', { body: { id: 1 } })).rejects.toMatchObject({
      kind: 'duplicate',
    });
    expect(events).toEqual(['warning:request.repeatedClick']);
    release();
    await expect(first).resolves.toBe(1);
    expect(calls).toHaveLength(1);
    expect(isProtectedPath('/api/import/madeTemplate')).toBe(true);
    expect(isProtectedPath('/api/crossPlatformSync/queryReport')).toBe(true);
    expect(isProtectedPath('/api/cases')).toBe(false);
  });

  it('downloads binaries named from content-disposition, and reads an error envelope instead', async () => {
    const file = setup(
      () =>
        new Response(new Uint8Array([1, 2, 3]), {
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': 'attachment; filename="r.pdf"; filename*=UTF-8\'\'%E6%8A%A5%E5%91%8A.pdf',
          },
        }),
    );
    const downloaded = await file.requester.download('/files/1');
    expect(downloaded.fileName).toBe('报告.pdf');
    expect(downloaded.blob.size).toBe(3);
    const failing = setup(() => json({ code: 404, msg: 'gone', data: null }, 404));
    await expect(failing.requester.download('/files/2')).rejects.toMatchObject({ code: 404 });
    expect(failing.events).toContain('error:gone');
  });

  it('shows the loading overlay for a download until the file has arrived, and on request', async () => {
    const file = setup(
      () => new Response(new Uint8Array([1]), { headers: { 'content-type': 'application/octet-stream' } }),
    );
    await file.requester.download('/files/1');
    expect(file.events).toEqual(['loading', 'answered', 'loaded']);
    const failing = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(failing.requester.download('/files/2')).rejects.toMatchObject({ kind: 'network' });
    expect(failing.events).toEqual(['loading', 'error:request.network', 'loaded']);
    const call = setup(() => json({ code: 200, msg: '', data: 1 }));
    await call.requester.request('/slow', { loading: true });
    await call.requester.request('/quick');
    await call.requester.download('/files/3', { loading: false }).catch(() => undefined);
    expect(call.events.filter((e) => e === 'loading' || e === 'loaded')).toEqual(['loading', 'loaded']);
  });

  it('reads plain and extended content-disposition names', () => {
    expect(fileNameFromDisposition('attachment; filename="a b.xlsx"')).toBe('a b.xlsx');
    expect(fileNameFromDisposition('attachment; filename=x.xml')).toBe('x.xml');
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(flattenParams({ a: { b: { c: 1 } } })).toEqual([['a[b][c]', '1']]);
  });
});
