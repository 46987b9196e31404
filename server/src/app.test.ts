import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RevisionConflictError } from './store';
import type { Authenticator } from './http';
import { requestContext, requirePrincipal } from './http';
import { Code, warning } from './http';
import { AppError } from './http';
import { defineModule } from './http';
import { call, testPlatform } from './testing';
import { testStore } from './http/test-store';

const probe = defineModule({
  name: 'probe',
  routes(r) {
    r.route({ method: 'get', path: '/public', summary: 'public', auth: 'none' }, (c) => ({
      lang: requestContext(c).lang,
      sysOrgId: requestContext(c).sysOrgId,
      studyProjectIds: requestContext(c).studyProjectIds,
      projectId: requestContext(c).projectId,
    }));
    r.route<{ name: string; age?: number }>(
      {
        method: 'post',
        path: '/echo',
        summary: 'echo',
        auth: 'none',
        body: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 } },
          additionalProperties: false,
        },
      },
      (_c, { body }) => body,
    );
    r.route<unknown, { filter: { node: string; types: string[] }; page: number }>(
      {
        method: 'get',
        path: '/search',
        summary: 'nested query',
        auth: 'none',
        query: {
          type: 'object',
          properties: {
            page: { type: 'integer', minimum: 1, default: 1 },
            filter: {
              type: 'object',
              properties: { node: { type: 'string' }, types: { type: 'array', items: { type: 'string' } } },
            },
          },
        },
      },
      (_c, { query }) => query,
    );
    r.route({ method: 'post', path: '/conflict', summary: 'conflict', auth: 'none' }, () => {
      throw new RevisionConflictError('cases', 'c1', 3, 4);
    });
    r.route({ method: 'get', path: '/boom', summary: 'boom', auth: 'none' }, () => {
      throw new Error('secret internal detail at /srv/db');
    });
    r.route({ method: 'get', path: '/too-late', summary: 'AppError', auth: 'none' }, () => {
      throw new AppError(Code.badRequest, 'common.payloadTooLarge', { limit: '7 KiB' });
    });
    r.route({ method: 'get', path: '/careful', summary: 'warning', auth: 'none' }, (c) =>
      warning(c, 'common.operationCanceled', {}, { kept: true }),
    );
    r.route({ method: 'get', path: '/me', summary: 'caller' }, (c) => requirePrincipal(c));
    r.route(
      { method: 'get', path: '/guarded', summary: 'guarded', permission: 'probe:read' },
      () => 'allowed',
    );
  },
});

const users: Record<string, { userId: string; tenantId: string; permissions: string[] }> = {
  'token-alice': { userId: 'alice', tenantId: 't1', permissions: ['probe:read'] },
  'token-bob': { userId: 'bob', tenantId: 't1', permissions: [] },
};
const authenticator: Authenticator = {
  async authenticate(token) {
    if (token === 'token-elsewhere') throw new AppError(Code.loggedInElsewhere, 'common.loggedInElsewhere');
    const user = users[token];
    return user ? { ...user } : null;
  },
  authorize(principal, permission) {
    return (principal.permissions as string[]).includes(permission);
  },
};

const store = await testStore();
afterAll(() => store.close());
const platform = testPlatform({ store, modules: [probe], authenticator, config: { jsonBodyLimit: 1024 } });
const { app } = platform;

describe('envelope and errors', () => {
  it('answers an unknown API route with a 404 envelope in the requested language', async () => {
    const cn = await call(app, 'GET', '/api/nothing/here');
    expect(cn.status).toBe(404);
    expect(cn.body).toEqual({ code: 404, msg: '接口不存在：GET /api/nothing/here', data: null });
    const en = await call(app, 'GET', '/api/nothing/here', { lang: 'en' });
    expect(en.body.msg).toBe('No such interface: GET /api/nothing/here');
  });

  it('wraps a handler result in a 200 envelope', async () => {
    const res = await call(app, 'POST', '/api/probe/echo', { body: { name: '张三', age: 3 }, lang: 'en' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 200, msg: 'Success', data: { name: '张三', age: 3 } });
  });

  it('refuses malformed JSON with 400 and says so', async () => {
    const res = await call(app, 'POST', '/api/probe/echo', {
      rawBody: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
      lang: 'en',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toMatch(/^The request body is not valid JSON: /);
  });

  it('refuses a body that breaks the schema with 400 and the failing paths', async () => {
    const res = await call(app, 'POST', '/api/probe/echo', { body: { age: -1, extra: 1 }, lang: 'en' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Please check the form data.');
    const paths = (res.body.data as { errors: { path: string; keyword: string }[] }).errors.map(
      (e) => `${e.path}:${e.keyword}`,
    );
    expect(paths).toEqual(
      expect.arrayContaining(['/name:required', '/age:minimum', ':additionalProperties']),
    );
  });

  it('refuses an oversize body with 413, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2000) });
    const declared = await call(app, 'POST', '/api/probe/echo', {
      rawBody: big,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) },
      lang: 'en',
    });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({
      code: 413,
      msg: 'The request body is too large; the limit is 1 KiB',
    });
    const streamed = await call(app, 'POST', '/api/probe/echo', {
      rawBody: new Blob([big]).stream(),
      headers: { 'content-type': 'application/json' },
      lang: 'en',
    });
    expect(streamed.status).toBe(413);
    expect(streamed.body.code).toBe(413);
  });

  it('turns a revision conflict into 409', async () => {
    const res = await call(app, 'POST', '/api/probe/conflict');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(409);
    expect(res.body.data).toMatchObject({ collection: 'cases', id: 'c1', expectedRev: 3, actualRev: 4 });
  });

  it('answers an unexpected exception with a 500 envelope and keeps the detail in the log only', async () => {
    const res = await call(app, 'GET', '/api/probe/boom', { headers: { 'x-request-id': 'req-boom-1' } });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe(500);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('secret internal detail');
    expect(text).not.toContain('at ');
    expect(res.body.msg).toContain('req-boom-1');
    const logged = platform.logs.find((l) => l.level === 'error' && l.requestId === 'req-boom-1');
    expect(JSON.stringify(logged)).toContain('secret internal detail');
  });

  it('translates an AppError with its parameters', async () => {
    const res = await call(app, 'GET', '/api/probe/too-late');
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('请求体过大，上限为 7 KiB');
  });

  it('sends a 203 warning envelope with HTTP 200', async () => {
    const res = await call(app, 'GET', '/api/probe/careful', { lang: 'en' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 203, msg: 'Operation canceled', data: { kept: true } });
  });

  it('rebuilds nested GET parameters and coerces them to the schema', async () => {
    const res = await call(
      app,
      'GET',
      '/api/probe/search?filter[node]=qc&filter[types][]=1&filter[types][]=2&page=3',
    );
    expect(res.body.data).toEqual({ filter: { node: 'qc', types: ['1', '2'] }, page: 3 });
    const bad = await call(app, 'GET', '/api/probe/search?page=zero');
    expect(bad.status).toBe(400);
  });
});

describe('request context and authentication', () => {
  it('reads sysOrgId, studyProjectIds, projectId and Lang-Type', async () => {
    const res = await call(app, 'GET', '/api/probe/public', {
      headers: { sysOrgId: 'org-1', studyProjectIds: 'p1, p2', projectId: 'p1', 'Lang-Type': 'en' },
    });
    expect(res.body.data).toEqual({
      lang: 'en',
      sysOrgId: 'org-1',
      studyProjectIds: ['p1', 'p2'],
      projectId: 'p1',
    });
  });

  it('answers 400001 (HTTP 401) when a route needs a caller and there is none or the token is unknown', async () => {
    for (const token of [undefined, 'token-nobody']) {
      const res = await call(app, 'GET', '/api/probe/me', { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(400001);
    }
  });

  it('resolves the caller from the bearer token', async () => {
    const res = await call(app, 'GET', '/api/probe/me', { token: 'token-alice' });
    expect(res.body.data).toMatchObject({ userId: 'alice', tenantId: 't1' });
  });

  it('raises the authenticator error (400002) on routes that need a caller, not on public ones', async () => {
    const guarded = await call(app, 'GET', '/api/probe/me', { token: 'token-elsewhere' });
    expect(guarded.body.code).toBe(400002);
    expect(guarded.status).toBe(401);
    const open = await call(app, 'GET', '/api/probe/public', { token: 'token-elsewhere' });
    expect(open.body.code).toBe(200);
  });

  it('checks the declared permission', async () => {
    expect((await call(app, 'GET', '/api/probe/guarded', { token: 'token-alice' })).body.data).toBe(
      'allowed',
    );
    const refused = await call(app, 'GET', '/api/probe/guarded', { token: 'token-bob' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(403);
  });

  it('refuses permission-guarded routes when no authorizer is plugged in', async () => {
    const bare = testPlatform({
      store,
      modules: [probe],
      authenticator: { authenticate: async () => ({ userId: 'u', tenantId: 't' }) },
    });
    expect((await call(bare.app, 'GET', '/api/probe/guarded', { token: 'x' })).status).toBe(403);
  });

  it('echoes a safe X-Request-Id, generates one otherwise, and logs one line without secrets', async () => {
    const before = platform.logs.length;
    const echoed = await call(app, 'GET', '/api/probe/me', {
      token: 'token-alice',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const generated = await call(app, 'GET', '/api/probe/public', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const lines = platform.logs.slice(before).filter((l) => l.msg === 'request');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      requestId: 'abc-123',
      method: 'GET',
      path: '/api/probe/me',
      status: 200,
      code: 200,
      userId: 'alice',
    });
    expect(JSON.stringify(lines)).not.toContain('token-alice');
  });
});

describe('health, OpenAPI and the web app', () => {
  it('reports the backend and version on /health', async () => {
    const res = await call(app, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'ok',
      backend: store.backend,
      version: platform.deps.config.version,
    });
  });

  it('serves an OpenAPI 3.1 document generated from the route declarations', async () => {
    const res = await app.request('/api/openapi.json');
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { requestBody?: unknown; security: unknown[]; 'x-permission'?: string }>
      >;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/probe/echo']?.post?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { required: ['name'] } } },
    });
    expect(doc.paths['/api/probe/guarded']?.get?.['x-permission']).toBe('probe:read');
    expect(doc.paths['/api/jobs/{jobId}']?.get).toBeDefined();
    expect(doc.paths['/health']?.get?.security).toEqual([]);
  });

  it('serves web/dist with history fallback, but never for API paths', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'pv-web-'));
    try {
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><title>pv</title>');
      writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
      const web = testPlatform({ store, modules: [], config: { webDist: dist } }).app;
      const deep = await web.request('/cases/123/edit');
      expect(deep.status).toBe(200);
      expect(deep.headers.get('content-type')).toContain('text/html');
      expect(await deep.text()).toContain('<title>pv</title>');
      const asset = await web.request('/assets/app-1234.js');
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect(await asset.text()).toBe('console.log(1)');
      expect((await web.request('/assets/missing.js')).status).toBe(404);
      const escape = await web.request('/..%2f..%2f..%2fetc%2fpasswd');
      expect(await escape.text()).toContain('<title>pv</title>');
      const api = await web.request('/api/unknown');
      expect(api.status).toBe(404);
      expect(((await api.json()) as { code: number }).code).toBe(404);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('the module registry', () => {
  it('hands every module the names of the modules this platform mounts (access reads them, not modules.ts)', () => {
    expect([...platform.deps.modules].sort()).toEqual(['health', 'jobs', 'probe', 'uploads']);
    const other = testPlatform({ store, modules: [defineModule({ name: 'alpha' })] });
    expect([...other.deps.modules].sort()).toEqual(['alpha', 'health', 'jobs', 'uploads']);
  });
});
