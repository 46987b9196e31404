import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../testing';
import { identityFixture } from './testing';
import type { IdentityFixture } from './testing';
import { digestsEqual, hashPassword, secretsEqual, sha256Hex, verifyPassword } from './crypto';
import { renderCaptchaSvg } from './captcha';

let f: IdentityFixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f.close());

const app = () => f.platform.app;

async function captcha(): Promise<string> {
  const res = await call(app(), 'GET', '/api/auth/captcha');
  expect(res.body.data).toMatchObject({ enabled: true });
  return (res.body.data as { captchaId: string }).captchaId;
}

describe('verification code', () => {
  it('draws paths, not text, and hides the code', () => {
    const svg = renderCaptchaSvg('ACE7');
    expect(svg).toContain('<path');
    expect(svg).not.toContain('<text');
    expect(svg).not.toContain('ACE7');
  });

  it('cannot be reused, and expires', async () => {
    f.setCode('HKMN');
    const id = await captcha();
    const first = await call(app(), 'POST', '/api/auth/login', {
      body: { account: 'entry', password: f.passwords.entry, captchaId: id, captchaCode: 'HKMN' },
    });
    expect(first.body.code).toBe(200);
    const again = await call(app(), 'POST', '/api/auth/login', {
      body: { account: 'entry', password: f.passwords.entry, captchaId: id, captchaCode: 'HKMN' },
      lang: 'en',
    });
    expect(again.body).toMatchObject({
      code: 400,
      msg: 'The verification code is wrong or has expired; please get a new one',
    });

    const stale = await captcha();
    f.clock.advance(121_000);
    const late = await call(app(), 'POST', '/api/auth/login', {
      body: { account: 'entry', password: f.passwords.entry, captchaId: stale, captchaCode: 'HKMN' },
    });
    expect(late.body.code).toBe(400);
    // A wrong answer consumes the code too.
    const id2 = await captcha();
    await call(app(), 'POST', '/api/auth/login', {
      body: { account: 'entry', password: 'x', captchaId: id2, captchaCode: 'XXXX' },
    });
    const retry = await call(app(), 'POST', '/api/auth/login', {
      body: { account: 'entry', password: f.passwords.entry, captchaId: id2, captchaCode: 'HKMN' },
    });
    expect(retry.body.code).toBe(400);
  });
});

describe('verification code refresh', () => {
  it('"change another one" retires the code on screen: only the new one is accepted', async () => {
    f.setCode('PRTU');
    const shown = await captcha();
    f.setCode('TUVW');
    const refreshed = await call(app(), 'GET', `/api/auth/captcha?replaces=${shown}`);
    const next = (refreshed.body.data as { captchaId: string }).captchaId;
    expect(next).not.toBe(shown);
    const old = await call(app(), 'POST', '/api/auth/login', {
      body: { account: 'entry', password: f.passwords.entry, captchaId: shown, captchaCode: 'PRTU' },
    });
    expect(old.body.code).toBe(400);
    const fresh = await call(app(), 'POST', '/api/auth/login', {
      body: { account: 'entry', password: f.passwords.entry, captchaId: next, captchaCode: 'TUVW' },
    });
    expect(fresh.body.code).toBe(200);
    f.setCode('ACE7');
  });
});

describe('constant-time comparisons', () => {
  it('compares digests and secrets with timingSafeEqual semantics', () => {
    expect(digestsEqual(sha256Hex('a'), sha256Hex('a'))).toBe(true);
    expect(digestsEqual(sha256Hex('a'), sha256Hex('b'))).toBe(false);
    expect(digestsEqual(sha256Hex('a'), 'abcd')).toBe(false);
    expect(digestsEqual('', '')).toBe(false);
    expect(secretsEqual('token', 'token')).toBe(true);
    expect(secretsEqual('token', 'token-longer')).toBe(false);
  });

  it('hashes passwords with scrypt and a per-user salt', async () => {
    const a = await hashPassword('Secret#1', { N: 1024, r: 8, p: 1 });
    const b = await hashPassword('Secret#1', { N: 1024, r: 8, p: 1 });
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('Secret#1', a)).toBe(true);
    expect(await verifyPassword('Secret#2', a)).toBe(false);
  });
});

describe('sessions', () => {
  it('a login on a second client makes the first client answer 400002', async () => {
    const first = await f.login('coder');
    expect((await call(app(), 'GET', '/api/auth/me', { token: first })).body.code).toBe(200);
    const second = await f.login('coder');
    const old = await call(app(), 'GET', '/api/auth/me', { token: first, lang: 'en' });
    expect(old.body.code).toBe(400002);
    expect((await call(app(), 'GET', '/api/auth/me', { token: second })).body.code).toBe(200);
  });

  it('expires after the tenant session minutes, sliding on each request', async () => {
    const token = await f.login('qc');
    f.clock.advance(100 * 60_000); // default 120 minutes
    expect((await call(app(), 'GET', '/api/auth/me', { token })).body.code).toBe(200);
    f.clock.advance(100 * 60_000); // 200 minutes after login, 100 after the last call
    expect((await call(app(), 'GET', '/api/auth/me', { token })).body.code).toBe(200);
    f.clock.advance(121 * 60_000);
    expect((await call(app(), 'GET', '/api/auth/me', { token })).body.code).toBe(400001);
    expect((await call(app(), 'GET', '/api/auth/me', { token: 'made-up' })).body.code).toBe(400001);
  });

  it('logout ends the session; forced logout by an administrator too, and fails on an ended one', async () => {
    const token = await f.login('medical');
    expect((await call(app(), 'POST', '/api/auth/logout', { token })).body.code).toBe(200);
    expect((await call(app(), 'GET', '/api/auth/me', { token })).body.code).toBe(400001);

    const user = await f.login('sponsor');
    const admin = await f.login('demoadmin');
    const online = (await call(app(), 'GET', '/api/auth/online', { token: admin })).body.data as {
      sessionId: string;
      account: string;
    }[];
    const target = online.find((s) => s.account === 'sponsor')!;
    expect(
      (await call(app(), 'POST', `/api/auth/online/${target.sessionId}/logout`, { token: admin })).body.code,
    ).toBe(200);
    expect((await call(app(), 'GET', '/api/auth/me', { token: user })).body.code).toBe(400001);
    const again = await call(app(), 'POST', `/api/auth/online/${target.sessionId}/logout`, {
      token: admin,
      lang: 'en',
    });
    expect(again.body).toMatchObject({ code: 500, msg: 'Forced withdrawal failed' });
    // A user without the permission is refused by the server.
    const entry = await f.login('entry');
    expect((await call(app(), 'GET', '/api/auth/online', { token: entry })).body.code).toBe(403);
  });
});

describe('password policy and lock', () => {
  it('six wrong passwords under a limit of five lock the account until the auto-unlock time', async () => {
    const admin = await f.login('demoadmin');
    const policy = {
      maxLoginErrors: 5,
      autoUnlockHours: 2,
      passwordChangeDays: 90,
      minLength: 8,
      requireUpper: true,
      requireLower: true,
      requireDigit: true,
      requireSpecial: true,
      sessionMinutes: 60,
    };
    const missing = await call(app(), 'PUT', '/api/tenancy/security', {
      token: admin,
      body: { ...policy, minLength: undefined },
    });
    expect(missing.body.code).toBe(400);
    const short = await call(app(), 'PUT', '/api/tenancy/security', {
      token: admin,
      body: { ...policy, sessionMinutes: 20 },
    });
    expect(short.body.code).toBe(400);
    const { rev } = (await call(app(), 'GET', '/api/tenancy/security', { token: admin })).body.data as {
      rev: number;
    };
    expect(
      (await call(app(), 'PUT', '/api/tenancy/security', { token: admin, body: { ...policy, rev } })).body
        .code,
    ).toBe(200);
    f.clock.advance(5000); // past the tenant cache

    const attempt = async (password: string) => {
      const id = await captcha();
      return call(app(), 'POST', '/api/auth/login', {
        body: { account: 'submitter', password, captchaId: id, captchaCode: 'HKMN' },
        lang: 'en',
      });
    };
    f.setCode('HKMN');
    for (let i = 0; i < 6; i++) expect((await attempt('Wrong#Pass1')).body.code).toBe(400);
    const locked = await attempt(f.passwords.submitter!);
    expect(locked.body.code).toBe(400);
    expect(locked.body.msg).toMatch(/locked/);
    f.clock.advance(119 * 60_000);
    expect((await attempt(f.passwords.submitter!)).body.msg).toMatch(/locked/);
    f.clock.advance(2 * 60_000);
    expect((await attempt(f.passwords.submitter!)).body.code).toBe(200);
  });

  it('refuses a failed re-verification with the specified message, and a weak new password', async () => {
    const token = await f.login('queries');
    const wrong = await call(app(), 'POST', '/api/auth/verify-password', {
      token,
      body: { password: 'nope' },
    });
    expect(wrong.body.msg).toBe('密码校验失败。');
    const en = await call(app(), 'POST', '/api/auth/verify-password', {
      token,
      body: { password: 'nope' },
      lang: 'en',
    });
    expect(en.body.msg).toBe('Password verification failed.');
    const differ = await call(app(), 'POST', '/api/auth/password', {
      token,
      body: { oldPassword: f.passwords.queries, newPassword: 'Abcdef#12', confirmPassword: 'Abcdef#13' },
    });
    expect(differ.body.msg).toBe('两次输入密码不一致');
    const weak = await call(app(), 'POST', '/api/auth/password', {
      token,
      body: { oldPassword: f.passwords.queries, newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' },
    });
    expect(weak.body.code).toBe(400);
    const ok = await call(app(), 'POST', '/api/auth/password', {
      token,
      body: {
        oldPassword: f.passwords.queries,
        newPassword: 'Newpass#2026',
        confirmPassword: 'Newpass#2026',
      },
    });
    expect(ok.body.code).toBe(200);
    f.passwords.queries = 'Newpass#2026';
    await f.login('queries');
  });
});

describe('activation links, users and signatures', () => {
  it('creates a user with an activation link that works once, then says the link is invalid', async () => {
    const admin = await f.login('demoadmin');
    const me = (await call(app(), 'GET', '/api/auth/me', { token: admin })).body.data as {
      organisations: { organisationId: string }[];
    };
    const orgId = me.organisations[0]!.organisationId;
    const bad = await call(app(), 'POST', '/api/users', {
      token: admin,
      body: { account: '张三', name: 'x', email: 'a@b.cn', organisationIds: [orgId] },
      lang: 'en',
    });
    expect(bad.body.code).toBe(400);
    const badMail = await call(app(), 'POST', '/api/users', {
      token: admin,
      body: { account: 'newuser', name: 'New', email: 'not-mail', organisationIds: [orgId] },
    });
    expect(badMail.body.msg).toBe('邮箱格式有误');
    const badPhone = await call(app(), 'POST', '/api/users', {
      token: admin,
      body: { account: 'newuser', name: 'New', email: 'n@demo.cn', phone: '12345', organisationIds: [orgId] },
    });
    expect(badPhone.body.code).toBe(400);
    const created = await call(app(), 'POST', '/api/users', {
      token: admin,
      body: {
        account: 'newuser',
        name: 'New',
        email: 'n@demo.cn',
        phone: '010-12345678',
        organisationIds: [orgId],
      },
    });
    expect(created.body.code).toBe(200);
    const data = created.body.data as { user: { state: string }; activationPath: string };
    expect(data.user.state).toBe('inactive');
    const token = new URL(data.activationPath, 'http://x').searchParams.get('token')!;
    const check = await call(app(), 'GET', `/api/auth/activation?token=${token}`);
    expect(check.body.data).toMatchObject({ account: 'newuser', purpose: 'activate' });
    const body = { token, password: 'Active#2026', confirmPassword: 'Active#2026' };
    expect((await call(app(), 'POST', '/api/auth/activation', { body })).body.code).toBe(200);
    const reuse = await call(app(), 'POST', '/api/auth/activation', { body, lang: 'en' });
    expect(reuse.body).toMatchObject({ msg: 'Your current link is invalid.', data: { linkInvalid: true } });
    expect((await call(app(), 'GET', `/api/auth/activation?token=${token}`)).body.msg).toBe('您的链接已失效');
    await f.login('newuser', 'Active#2026');

    const reset = await call(
      app(),
      'POST',
      `/api/users/${(created.body.data as { user: { userId: string } }).user.userId}/reset-password`,
      { token: admin },
    );
    const resetToken = new URL(
      (reset.body.data as { resetPath: string }).resetPath,
      'http://x',
    ).searchParams.get('token')!;
    f.clock.advance(25 * 3600_000);
    expect((await call(app(), 'GET', `/api/auth/activation?token=${resetToken}`)).body.msg).toBe(
      '您的链接已失效',
    );
  });

  it('signs with a signature picture and a password re-verification', async () => {
    const token = await f.login('mm');
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(32),
    ]);
    const unsigned = await call(app(), 'POST', '/api/auth/signature/sign', {
      token,
      body: { password: f.passwords.mm, meaning: 'submit case' },
      lang: 'en',
    });
    expect(unsigned.body.msg).toBe('Please upload your signature first');
    const notImage = await call(app(), 'PUT', '/api/auth/signature', {
      token,
      body: {
        image: `data:image/png;base64,${Buffer.from('hello').toString('base64')}`,
        crop: { x: 0, y: 0, width: 10, height: 5 },
      },
    });
    expect(notImage.body.code).toBe(400);
    const saved = await call(app(), 'PUT', '/api/auth/signature', {
      token,
      body: {
        image: `data:image/png;base64,${png.toString('base64')}`,
        crop: { x: 1, y: 2, width: 30, height: 10 },
      },
    });
    expect(saved.body.data).toMatchObject({ crop: { x: 1, y: 2, width: 30, height: 10 } });
    const wrong = await call(app(), 'POST', '/api/auth/signature/sign', {
      token,
      body: { password: 'bad', meaning: 'submit case' },
    });
    expect(wrong.body.msg).toBe('密码校验失败。');
    const signed = await call(app(), 'POST', '/api/auth/signature/sign', {
      token,
      body: { password: f.passwords.mm, meaning: 'submit case', subjectType: 'case', subjectId: 'c-1' },
    });
    expect(signed.body.data).toMatchObject({ account: 'mm', meaning: 'submit case', subjectId: 'c-1' });
  });

  it('serves the privacy texts in both languages and logs logins and operations', async () => {
    const zh = await call(app(), 'GET', '/api/auth/privacy');
    const en = await call(app(), 'GET', '/api/auth/privacy', { lang: 'en' });
    expect((zh.body.data as { privacyPolicy: { title: string } }).privacyPolicy.title).toBe('隐私政策');
    expect((en.body.data as { userPrivacyPolicy: { title: string } }).userPrivacyPolicy.title).toBe(
      'User privacy policy',
    );
    const admin = await f.login('demoadmin');
    const log = await call(app(), 'GET', '/api/auth/login-log?size=200', { token: admin });
    expect(log.body).toMatchObject({ code: 200 });
    const items = (log.body.data as { items: { account: string; result: string }[] }).items;
    expect(items.some((i) => i.account === 'submitter' && i.result === 'failure')).toBe(true);
    const ops = await call(app(), 'GET', '/api/users/operation-log?size=200', { token: admin });
    const opItems = (ops.body.data as { items: { path: string; method: string }[] }).items;
    expect(opItems.some((i) => i.path === '/api/tenancy/security' && i.method === 'PUT')).toBe(true);
    const operator = await f.login('operator');
    const all = await call(app(), 'GET', '/api/auth/operator/login-log?size=200', { token: operator });
    expect((all.body.data as { total: number }).total).toBeGreaterThan(10);
    // Operators are kept out of tenant areas, tenant admins out of the operator area.
    expect((await call(app(), 'GET', '/api/users', { token: operator })).body.code).toBe(403);
    expect((await call(app(), 'GET', '/api/tenancy/operator/tenants', { token: admin })).body.code).toBe(403);
  });

  it('never lets a password hash, token or code reach a response or a log line', async () => {
    const seen = JSON.stringify(f.platform.logs);
    const secrets = Object.values(f.passwords);
    for (const secret of secrets) expect(seen).not.toContain(secret);
    const token = await f.login('dm');
    const me = await call(app(), 'GET', '/api/auth/me', { token });
    const text = JSON.stringify(me.body) + JSON.stringify(f.platform.logs);
    expect(text).not.toContain(token);
    expect(text).not.toContain(sha256Hex(token));
    expect(text).not.toMatch(/scrypt\$/);
    expect(JSON.stringify(f.platform.logs)).not.toContain('HKMN');
    const admin = await f.login('demoadmin');
    for (const path of [
      '/api/users?size=200',
      '/api/auth/online',
      '/api/tenancy/tenant',
      '/api/auth/login-log?size=200',
    ]) {
      const body = JSON.stringify((await call(app(), 'GET', path, { token: admin })).body);
      expect(body).not.toMatch(/scrypt\$|tokenHash|codeHash|passwordHash/);
      expect(body).not.toContain(admin);
    }
  });
});

describe('password change cycle', () => {
  it('forces a change at login once the change cycle has passed (4012 elsewhere)', async () => {
    f.clock.advance(91 * 86_400_000);
    const token = await f.login('unblindapply');
    const me = await call(app(), 'GET', '/api/auth/me', { token });
    expect(me.body.data).toMatchObject({ mustChangePassword: true });
    expect((await call(app(), 'GET', '/api/auth/signature', { token })).body.code).toBe(4012);
    const changed = await call(app(), 'POST', '/api/auth/password', {
      token,
      body: {
        oldPassword: f.passwords.unblindapply,
        newPassword: 'Cycle#2026x',
        confirmPassword: 'Cycle#2026x',
      },
    });
    expect(changed.body.code).toBe(200);
    expect((await call(app(), 'GET', '/api/auth/signature', { token })).body.code).toBe(200);
  });
});
