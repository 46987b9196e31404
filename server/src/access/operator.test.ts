import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../testing';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';

let f: IdentityFixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f.close());
const app = () => f.platform.app;

const linkToken = (path: string) => new URL(path, 'http://x').searchParams.get('token')!;

describe('operator accounts', () => {
  it('resets an operator’s password: the session ends, the old password stops working, the link works once', async () => {
    const operator = await f.login('operator');
    const roles = (await call(app(), 'GET', '/api/access/operator/roles', { token: operator })).body.data as {
      roleId: string;
    }[];
    const created = await call(app(), 'POST', '/api/access/operator/users', {
      token: operator,
      body: { account: 'op2', name: '运营二', operatorRoleIds: [roles[0]!.roleId] },
    });
    const { user, activationPath } = created.body.data as {
      user: { userId: string };
      activationPath: string;
    };
    const activate = {
      token: linkToken(activationPath),
      password: 'First#2026',
      confirmPassword: 'First#2026',
    };
    expect((await call(app(), 'POST', '/api/auth/activation', { body: activate })).body.code).toBe(200);
    const second = await f.login('op2', 'First#2026');

    // Not on oneself, not by a tenant user.
    const self = await call(app(), 'POST', `/api/access/operator/users/${user.userId}/reset-password`, {
      token: second,
    });
    expect(self.body.code).toBe(400);
    const tenantAdmin = await f.login('demoadmin');
    const foreign = await call(app(), 'POST', `/api/access/operator/users/${user.userId}/reset-password`, {
      token: tenantAdmin,
    });
    expect(foreign.body.code).toBe(403);

    const reset = await call(app(), 'POST', `/api/access/operator/users/${user.userId}/reset-password`, {
      token: operator,
    });
    expect(reset.body.code).toBe(200);
    expect((await call(app(), 'GET', '/api/auth/me', { token: second })).body.code).toBe(400001);
    await expect(f.login('op2', 'First#2026')).rejects.toThrow(/400/);

    const token = linkToken((reset.body.data as { resetPath: string }).resetPath);
    expect((await call(app(), 'GET', `/api/auth/activation?token=${token}`)).body.data).toMatchObject({
      account: 'op2',
      purpose: 'reset',
    });
    const body = { token, password: 'Second#2026', confirmPassword: 'Second#2026' };
    expect((await call(app(), 'POST', '/api/auth/activation', { body })).body.code).toBe(200);
    expect((await call(app(), 'POST', '/api/auth/activation', { body })).body.code).toBe(400);
    const again = await f.login('op2', 'Second#2026');
    expect((await call(app(), 'GET', '/api/auth/me', { token: again })).body.data).toMatchObject({
      operator: true,
    });

    // Only operator accounts: a tenant user's id is not found here.
    const me = (await call(app(), 'GET', '/api/auth/me', { token: tenantAdmin })).body.data as {
      user: { userId: string };
    };
    const tenantUser = await call(
      app(),
      'POST',
      `/api/access/operator/users/${me.user.userId}/reset-password`,
      {
        token: operator,
      },
    );
    expect(tenantUser.body.code).toBe(404);
    expect((await call(app(), 'GET', '/api/auth/me', { token: tenantAdmin })).body.code).toBe(200);
  });

  it('sets the tenants an operator looks after, refusing unknown tenants and tenant users', async () => {
    const operator = await f.login('operator');
    const op2 = (
      (await call(app(), 'GET', '/api/access/operator/users', { token: operator })).body.data as {
        userId: string;
        account: string;
      }[]
    ).find((u) => u.account === 'op2')!;
    const tenants = (await call(app(), 'GET', '/api/tenancy/operator/tenants', { token: operator })).body
      .data as {
      tenantId: string;
    }[];
    const path = `/api/access/operator/users/${op2.userId}/jurisdiction`;
    const unknown = await call(app(), 'PUT', path, {
      token: operator,
      body: { jurisdiction: ['no-such-tenant'] },
    });
    expect(unknown.body.code).toBe(400);
    const tenantAdmin = await f.login('demoadmin');
    const foreign = await call(app(), 'PUT', path, {
      token: tenantAdmin,
      body: { jurisdiction: [tenants[0]!.tenantId] },
    });
    expect(foreign.body.code).toBe(403);
    const set = await call(app(), 'PUT', path, {
      token: operator,
      body: { jurisdiction: [tenants[0]!.tenantId] },
    });
    expect(set.body.data).toMatchObject({ jurisdiction: [tenants[0]!.tenantId] });
    // The operator now sees only that tenant.
    const seen = await f.login('op2', 'Second#2026');
    const visible = (await call(app(), 'GET', '/api/tenancy/operator/tenants', { token: seen })).body
      .data as {
      tenantId: string;
    }[];
    expect(visible.map((t) => t.tenantId)).toEqual([tenants[0]!.tenantId]);
  });
});
