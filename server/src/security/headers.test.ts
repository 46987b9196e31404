/**
 * Headers, links and bad input (issue 13, M5 and the Low findings): security headers on API answers
 * and on the app shell, HSTS only behind an https public URL, links in messages on PV_PUBLIC_URL
 * whatever Host says, X-Forwarded-For believed only from configured proxies, deep JSON and broken
 * percent-encoding answered 400, settings saved against their revision, tokens stored hashed only.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { C } from '../auth';
import { sha256Hex } from '../auth';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';
import type { Authenticator } from '../http';
import { AppError, defineModule } from '../http';
import { parseQuery } from '../http';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { importsModule } from '../imports';
import { MESSAGES, messagesModule } from '../messages';

let f: IdentityFixture;
const app = () => f.platform.app;

beforeAll(async () => {
  f = await identityFixture([messagesModule]);
});
afterAll(async () => {
  await f.close();
});

describe('security headers', () => {
  const webDist = mkdtempSync(join(tmpdir(), 'pv-headers-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(
    join(webDist, 'index.html'),
    '<!doctype html><html><head><title>t</title><script type="module" src="/assets/app-1a2b.js"></script></head><body></body></html>',
  );
  writeFileSync(join(webDist, 'assets', 'app-1a2b.js'), 'console.log(1)');
  afterAll(() => rmSync(webDist, { recursive: true, force: true }));

  const shell = async (publicUrl?: string) => {
    const platform = testPlatform({
      store: await testStore(),
      modules: [],
      config: { webDist, ...(publicUrl ? { publicUrl } : {}) },
    });
    return platform;
  };

  it('puts the CSP, framing, referrer and sniffing headers on API answers, which are never cached', async () => {
    const platform = await shell();
    for (const path of ['/health', '/api/openapi.json', '/api/no-such-route']) {
      const res = await platform.app.request(path);
      expect(res.headers.get('content-security-policy'), path).toMatch(/script-src 'self';/);
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('serves index.html with a fresh style nonce in its CSP and meta, and hashed assets with their long cache', async () => {
    const platform = await shell();
    const nonces = new Set<string>();
    for (const path of ['/', '/cases/list', '/index.html']) {
      const res = await platform.app.request(path);
      expect(res.status).toBe(200);
      const policy = res.headers.get('content-security-policy')!;
      const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1];
      expect(nonce, policy).toBeTruthy();
      expect(policy).toMatch(/script-src 'self';/);
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
      const html = await res.text();
      expect(html).toContain(`<meta name="csp-nonce" content="${nonce}" />`);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(3);
    const asset = await platform.app.request('/assets/app-1a2b.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-security-policy')).toMatch(/style-src 'self';/);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends HSTS only when the public URL is https', async () => {
    const plain = await shell('http://pv.example.org');
    expect((await plain.app.request('/health')).headers.get('strict-transport-security')).toBeNull();
    const secure = await shell('https://pv.example.org');
    expect((await secure.app.request('/health')).headers.get('strict-transport-security')).toMatch(
      /^max-age=\d+/,
    );
    expect((await secure.app.request('/')).headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });
});

/** A user of the demo tenant for the administrator to reset. */
async function demoUser(admin: string, account: string): Promise<string> {
  const users = await call(app(), 'GET', `/api/users?name=${account}`, { token: admin });
  const items = (users.body.data as { items: { userId: string; account: string }[] }).items;
  return items.find((u) => u.account === account)!.userId;
}

describe('account links', () => {
  it('builds links in messages from the public URL, whatever Host the request named', async () => {
    const admin = await f.login('demoadmin');
    const publicUrl = f.platform.deps.config.publicUrl;
    f.platform.deps.config.publicUrl = 'https://pv.example.org';
    try {
      const userId = await demoUser(admin, 'entry');
      const spoofed = { headers: { host: 'evil.example' }, token: admin };
      const reset = await call(
        app(),
        'POST',
        `http://evil.example/api/users/${userId}/reset-password`,
        spoofed,
      );
      expect(reset.body.code).toBe(200);
      const mine = await call(app(), 'GET', 'http://evil.example/api/messages', spoofed);
      const body = (mine.body.data as { items: { body: string; event: string }[] }).items.find(
        (m) => m.event === 'account.passwordReset',
      )!.body;
      expect(body).toMatch(/https:\/\/pv\.example\.org\/userActive\?token=[\w-]+/);
      expect(body).not.toContain('evil.example');
    } finally {
      f.platform.deps.config.publicUrl = publicUrl;
    }
  });

  it('stores reset tokens hashed only: not in the link store, not in the message body', async () => {
    const admin = await f.login('demoadmin');
    const userId = await demoUser(admin, 'coder');
    const reset = await call(app(), 'POST', `/api/users/${userId}/reset-password`, { token: admin });
    const answered = new URL(
      (reset.body.data as { resetPath: string }).resetPath,
      'http://x',
    ).searchParams.get('token')!;
    const mine = await call(app(), 'GET', '/api/messages', { token: admin });
    const shown = (mine.body.data as { items: { body: string }[] }).items
      .map((m) => /userActive\?token=([\w-]+)/.exec(m.body)?.[1])
      .find(Boolean)!;
    expect(shown).toBeTruthy();
    expect(shown).not.toBe(answered);

    const links = await f.platform.deps.store.platform({ userId: 'test' }).collection(C.links).find({});
    const me = (await call(app(), 'GET', '/api/auth/me', { token: admin })).body.data as {
      tenant: { tenantId: string };
    };
    const messages = await f.platform.deps.store
      .tenant(me.tenant.tenantId, { userId: 'test' })
      .collection(MESSAGES.messages)
      .find({});
    const stored = JSON.stringify([links, messages]);
    for (const token of [answered, shown]) {
      expect(stored).not.toContain(token);
      expect(stored).toContain(sha256Hex(token));
    }

    // The page exchanges the token it arrived with: the token dies, the code sets the password.
    const exchanged = await call(app(), 'POST', '/api/auth/activation/exchange', { body: { token: shown } });
    expect(exchanged.body.data).toMatchObject({ account: 'coder', purpose: 'reset' });
    const code = (exchanged.body.data as { code: string }).code;
    const again = await call(app(), 'POST', '/api/auth/activation/exchange', { body: { token: shown } });
    expect(again.body).toMatchObject({ code: 400, data: { linkInvalid: true } });
    const set = await call(app(), 'POST', '/api/auth/activation', {
      body: { token: code, password: 'Coder#Reset2026', confirmPassword: 'Coder#Reset2026' },
    });
    expect(set.body.code).toBe(200);
    // Every other token of that link (the administrator's answer) died with it.
    const stale = await call(app(), 'POST', '/api/auth/activation/exchange', { body: { token: answered } });
    expect(stale.body).toMatchObject({ code: 400, data: { linkInvalid: true } });
    // The message, rendered in Chinese for the administrator, now says its link is spent.
    const reread = await call(app(), 'GET', '/api/messages', { token: admin });
    expect(JSON.stringify(reread.body.data)).toContain('此链接已失效');
  });
});

describe('forwarded addresses', () => {
  const loginFrom = async (peer: string, forwardedFor: string) => {
    const captcha = await call(app(), 'GET', '/api/auth/captcha');
    const captchaId = (captcha.body.data as { captchaId: string }).captchaId;
    const res = await app().request(
      '/api/auth/login',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        body: JSON.stringify({ account: 'qc', password: f.passwords.qc, captchaId, captchaCode: 'ACE7' }),
      },
      { incoming: { socket: { remoteAddress: peer } } },
    );
    expect(((await res.json()) as { code: number }).code).toBe(200);
    const log = await f.platform.deps.store
      .platform({ userId: 'test' })
      .collection<{ account: string; ip: string | null; at: string }>(C.platformLoginLog)
      .find({ account: 'qc', result: 'success' }, { sort: { at: -1 } });
    return log[0]!.ip;
  };

  it('records the socket address unless the peer is a configured proxy', async () => {
    const config = f.platform.deps.config;
    expect(await loginFrom('::ffff:203.0.113.9', '6.6.6.6')).toBe('203.0.113.9');
    config.trustedProxies = ['10.0.0.0/8', '192.168.1.1'];
    try {
      expect(await loginFrom('203.0.113.9', '6.6.6.6')).toBe('203.0.113.9');
      f.clock.advance(1000);
      expect(await loginFrom('10.1.2.3', '6.6.6.6, 198.51.100.7, 192.168.1.1')).toBe('198.51.100.7');
    } finally {
      config.trustedProxies = [];
    }
  });
});

describe('bad input answers 400', () => {
  it('refuses JSON nested 10,000 deep', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const res = await call(app(), 'POST', '/api/auth/login', {
      rawBody: deep,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    const object = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    expect(
      (
        await call(app(), 'POST', '/api/auth/activation/exchange', {
          rawBody: object,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
  });

  it('refuses a malformed X-File-Name on an import, a query nested 5,000 deep, and survives malformed percent-encoding in the path and query', async () => {
    const allowAll: Authenticator = {
      authenticate: async () => ({ tenantId: 't1', userId: 'u1', name: 'u1' }),
      authorize: () => true,
    };
    // The importer works in p1: the project is checked before the upload is looked at.
    const membership = defineModule({
      name: 'membership-stand-in',
      collections: [{ name: C.projectMembers, scope: 'tenant' }],
    });
    const store = await testStore();
    const platform = testPlatform({ store, authenticator: allowAll, modules: [importsModule, membership] });
    await platform.ready();
    await store
      .tenant('t1', { userId: 'system:test' })
      .collection(C.projectMembers)
      .insertOne({ projectId: 'p1', userId: 'u1', roleIds: [], permissionKeys: [] });
    const res = await call(platform.app, 'POST', '/api/imports?projectId=p1', {
      token: 'x',
      rawBody: '<xml/>',
      headers: { 'content-type': 'application/xml', 'x-file-name': 'report%E0%A4%A.xml' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    const path = await call(app(), 'GET', '/api/users/%E0%A4%A', { token: await f.login('demoadmin') });
    expect(path.status).toBeLessThan(500);
    // A query key nested deeper than any filter is refused before anything walks it.
    expect(() => parseQuery(new URLSearchParams(`a${'[b]'.repeat(5000)}=x`))).toThrow(AppError);
    expect(parseQuery(new URLSearchParams('f[status][in][]=a'))).toEqual({ f: { status: { in: ['a'] } } });
    const query = await call(app(), 'GET', '/api/users?name=%E0%A4%A', { token: await f.login('demoadmin') });
    expect(query.status).toBeLessThan(500);
  });
});

describe('settings carry their revision', () => {
  it('refuses a stale revision of the security settings and of the company information (409)', async () => {
    const admin = await f.login('demoadmin');
    const current = (await call(app(), 'GET', '/api/tenancy/security', { token: admin })).body.data as Record<
      string,
      unknown
    > & { rev: number };
    const { rev, ...policy } = current;
    const saved = await call(app(), 'PUT', '/api/tenancy/security', {
      token: admin,
      body: { ...policy, sessionMinutes: 45, rev },
    });
    expect(saved.body.code).toBe(200);
    expect((saved.body.data as { rev: number }).rev).toBeGreaterThan(rev);
    const stale = await call(app(), 'PUT', '/api/tenancy/security', {
      token: admin,
      body: { ...policy, sessionMinutes: 90, rev },
    });
    expect(stale.status).toBe(409);
    const noRev = await call(app(), 'PUT', '/api/tenancy/security', { token: admin, body: policy });
    expect(noRev.status).toBe(400);
    f.clock.advance(5000); // past the tenant cache
    expect((await call(app(), 'GET', '/api/tenancy/security', { token: admin })).body.data).toMatchObject({
      sessionMinutes: 45,
    });

    const first = await call(app(), 'PUT', '/api/tenancy/company', {
      token: admin,
      body: { name: 'Demo Pharma' },
    });
    expect(first.body.code).toBe(200);
    const read = (await call(app(), 'GET', '/api/tenancy/company', { token: admin })).body.data as {
      rev: number;
    };
    const second = await call(app(), 'PUT', '/api/tenancy/company', {
      token: admin,
      body: { name: 'Demo Pharma Ltd', rev: read.rev },
    });
    expect(second.body.code).toBe(200);
    const staleCompany = await call(app(), 'PUT', '/api/tenancy/company', {
      token: admin,
      body: { name: 'Overwritten', rev: read.rev },
    });
    expect(staleCompany.status).toBe(409);
    const blind = await call(app(), 'PUT', '/api/tenancy/company', { token: admin, body: { name: 'Blind' } });
    expect(blind.status).toBe(409);
    expect((await call(app(), 'GET', '/api/tenancy/company', { token: admin })).body.data).toMatchObject({
      name: 'Demo Pharma Ltd',
    });
  });
});
