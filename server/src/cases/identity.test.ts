/**
 * Case management on the whole server: the identity modules' demo seed, login, permissions by
 * role and the real electronic signature (signWithPassword) on submit.
 */
import { afterAll, describe, expect, it } from 'vitest';

// The identity modules read these when first imported (the app imports the module list).
process.env.PV_LOGIN_CAPTCHA = 'off';
process.env.PV_DEMO_PASSWORD = 'Demo-Passw0rd!';
const { call, testPlatform } = await import('../testing');
const { testStore } = await import('../http/test-store');
const { modules } = await import('../modules');
const store = await testStore();
afterAll(() => store.close());
const platform = testPlatform({ store, modules });
await platform.ready();
for (const module of platform.modules) if (module.seed) await module.seed(platform.deps);

// A 1x1 PNG.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function login(account: string): Promise<string> {
  const res = await call(platform.app, 'POST', '/api/auth/login', {
    body: { account, password: 'Demo-Passw0rd!' },
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as { token: string }).token;
}

describe('case workflow on the whole server', () => {
  it('submits a demo case with the identity module\u2019s e-signature and moves it to the QC user\u2019s to-do', async () => {
    const entry = await login('entry');
    const todo = await call(platform.app, 'GET', '/api/workbench/todo?size=50', { token: entry, lang: 'en' });
    expect(todo.body.code, JSON.stringify(todo.body)).toBe(200);
    const items = (todo.body.data as { total: number; items: { id: string }[] }).items;
    expect(items).toHaveLength(12);
    const caseId = items[0]!.id;
    const tenantId = (await store.platform({ userId: 't' }).collection('tenants').findOne({ code: 'demo' }))!
      ._id;
    const qcUser = await store
      .tenant(tenantId, { userId: 't' })
      .collection('users')
      .findOne({ account: 'qc' });
    const qc = await login('qc');
    const before = (await call(platform.app, 'GET', '/api/workbench/todo', { token: qc })).body.data as {
      total: number;
    };

    const detail = (await call(platform.app, 'GET', `/api/cases/${caseId}`, { token: entry })).body.data as {
      rev: number;
    };
    const submit = (password: string, lang: 'en' | 'cn' = 'en') =>
      call(platform.app, 'POST', `/api/cases/${caseId}/submit`, {
        token: entry,
        lang,
        body: { rev: detail.rev, toNode: 'dataQc', userId: qcUser!.accountId, password },
      });
    expect((await submit('Demo-Passw0rd!')).body.code).toBe(400); // no signature picture yet: sign first
    const signature = await call(platform.app, 'PUT', '/api/auth/signature', {
      token: entry,
      body: { image: PNG, crop: { x: 0, y: 0, width: 1, height: 1 } },
    });
    expect(signature.body.code, JSON.stringify(signature.body)).toBe(200);
    const wrong = await submit('not-my-password');
    expect(wrong.body.msg).toBe('Password verification failed.');
    expect((await submit('not-my-password', 'cn')).body.msg).toBe('密码校验失败。');
    const ok = await submit('Demo-Passw0rd!');
    expect(ok.body.code, JSON.stringify(ok.body)).toBe(200);
    expect((ok.body.data as { history: { signatureId: string | null } }).history.signatureId).toBeTruthy();
    const after = (await call(platform.app, 'GET', '/api/workbench/todo', { token: qc })).body.data as {
      total: number;
    };
    expect(after.total).toBe(before.total + 1);
  });

  it('refuses a role without the permission', async () => {
    const writer = await login('dsurwriter');
    const res = await call(platform.app, 'POST', '/api/cases/delete', {
      token: writer,
      body: { caseIds: ['x'] },
    });
    expect(res.body.code).toBe(403);
  });
});
