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

interface UserRow {
  userId: string;
  account: string;
  state: string;
}

async function userByAccount(admin: string, account: string): Promise<UserRow> {
  const list = (await call(app(), 'GET', `/api/users?name=${account}`, { token: admin })).body.data as {
    items: UserRow[];
  };
  return list.items.find((u) => u.account === account)!;
}

describe('user states', () => {
  it('disables (ending the session), enables, and unlocks', async () => {
    const admin = await f.login('demoadmin');
    const token = await f.login('dsurqc');
    const user = await userByAccount(admin, 'dsurqc');
    const disabled = await call(app(), 'POST', `/api/users/${user.userId}/disable`, { token: admin });
    expect(disabled.body.data).toMatchObject({ state: 'disabled' });
    expect((await call(app(), 'GET', '/api/auth/me', { token })).body.code).toBe(400001);
    await expect(f.login('dsurqc')).rejects.toThrow(/400/);
    const self = await call(
      app(),
      'POST',
      `/api/users/${(await userByAccount(admin, 'demoadmin')).userId}/disable`,
      { token: admin },
    );
    expect(self.body.code).toBe(400);
    expect(
      (await call(app(), 'POST', `/api/users/${user.userId}/enable`, { token: admin })).body.data,
    ).toMatchObject({ state: 'enabled' });
    await f.login('dsurqc');

    for (let i = 0; i < 5; i++) await f.login('dsurqc', 'Wrong#pass1').catch(() => undefined);
    expect((await userByAccount(admin, 'dsurqc')).state).toBe('locked');
    const unlocked = await call(app(), 'POST', `/api/users/${user.userId}/unlock`, { token: admin });
    expect(unlocked.body.data).toMatchObject({ state: 'enabled' });
    await f.login('dsurqc');
    // Filters and the server-side permission check.
    const entry = await f.login('entry');
    expect((await call(app(), 'GET', '/api/users', { token: entry })).body.code).toBe(403);
    const locked = await call(app(), 'GET', '/api/users?state=disabled', { token: admin });
    expect((locked.body.data as { total: number }).total).toBe(0);
  });

  it('invites an account of one tenant into another; once its holder accepts it switches between them', async () => {
    const operator = await f.login('operator');
    const created = await call(app(), 'POST', '/api/tenancy/operator/tenants', {
      token: operator,
      body: {
        name: '第二租户',
        code: 'second',
        expiresAt: null,
        limits: { projects: 1, sponsors: 1, users: 5 },
        contact: { name: 'Li', email: 'li@second.cn' },
        admin: { account: 'secondadmin', name: 'Li', email: 'li@second.cn' },
      },
    });
    expect(created.body.code).toBe(200);
    const data = created.body.data as { tenant: { tenantId: string }; activationPath: string };
    const linkToken = new URL(data.activationPath, 'http://x').searchParams.get('token')!;
    await call(app(), 'POST', '/api/auth/activation', {
      body: { token: linkToken, password: 'Second#2026', confirmPassword: 'Second#2026' },
    });
    const secondAdmin = await f.login('secondadmin', 'Second#2026');
    const orgs = (await call(app(), 'GET', '/api/tenancy/organisations', { token: secondAdmin })).body
      .data as { organisationId: string }[];
    const joined = await call(app(), 'POST', '/api/users', {
      token: secondAdmin,
      body: {
        account: 'entry',
        name: 'Entry',
        email: 'entry@second.cn',
        organisationIds: [orgs[0]!.organisationId],
      },
    });
    expect(joined.body, JSON.stringify(joined.body)).toMatchObject({ code: 200 });
    // Never attached silently: invited until the account holder accepts while signed in.
    expect(joined.body.data).toMatchObject({
      user: { state: 'invited' },
      invited: true,
      activationPath: null,
    });

    const token = await f.login('entry');
    const invitations = (await call(app(), 'GET', '/api/auth/invitations', { token })).body.data as {
      invitationId: string;
    }[];
    expect(invitations).toHaveLength(1);
    const accepted = await call(
      app(),
      'POST',
      `/api/auth/invitations/${invitations[0]!.invitationId}/accept`,
      {
        token,
      },
    );
    expect(accepted.body.code).toBe(200);
    const me = (await call(app(), 'GET', '/api/auth/me', { token })).body.data as {
      tenants: { tenantId: string }[];
      tenant: { tenantId: string };
    };
    expect(me.tenants).toHaveLength(2);
    const switched = await call(app(), 'POST', '/api/auth/switch', {
      token,
      body: { tenantId: data.tenant.tenantId },
    });
    expect(switched.body.data).toMatchObject({ tenant: { tenantId: data.tenant.tenantId } });
    const newToken = (switched.body.data as { token: string }).token;
    expect((await call(app(), 'GET', '/api/auth/me', { token })).body.code).toBe(400001);
    expect((await call(app(), 'GET', '/api/auth/me', { token: newToken })).body.data).toMatchObject({
      tenant: { name: '第二租户' },
    });
    const foreign = await call(app(), 'POST', '/api/auth/switch', {
      token: newToken,
      body: { tenantId: 'not-mine' },
    });
    expect(foreign.body.code).toBe(403);
  });
});

describe('switching organisation', () => {
  it('moves the session to another organisation of the user; a foreign one is refused', async () => {
    const admin = await f.login('demoadmin');
    const root = (
      (await call(app(), 'GET', '/api/tenancy/organisations', { token: admin })).body.data as {
        organisationId: string;
      }[]
    )[0]!;
    const created = await call(app(), 'POST', '/api/tenancy/organisations', {
      token: admin,
      body: { name: '上海分公司', kind: 'organisation', parentId: root.organisationId },
    });
    const branchId = (created.body.data as { organisationId: string }).organisationId;
    const foreign = await call(app(), 'POST', '/api/tenancy/organisations', {
      token: admin,
      body: { name: '广州分公司', kind: 'organisation', parentId: root.organisationId },
    });
    const foreignId = (foreign.body.data as { organisationId: string }).organisationId;
    const { userId } = await userByAccount(admin, 'pi');
    const pi = (await call(app(), 'GET', `/api/users/${userId}`, { token: admin })).body.data as {
      name: string;
      email: string;
      organisationIds: string[];
      roleIds: string[];
      rev: number;
    };
    const home = pi.organisationIds[0]!;
    const joined = await call(app(), 'PUT', `/api/users/${userId}`, {
      token: admin,
      body: {
        name: pi.name,
        email: pi.email,
        organisationIds: [home, branchId],
        roleIds: pi.roleIds,
        rev: pi.rev,
      },
    });
    expect(joined.body.code).toBe(200);

    type Me = { user: { organisationId: string }; organisations: { organisationId: string }[] };
    const token = await f.login('pi');
    const me = (await call(app(), 'GET', '/api/auth/me', { token })).body.data as Me;
    expect(me.user.organisationId).toBe(home);
    expect(me.organisations.map((o) => o.organisationId).sort()).toEqual([home, branchId].sort());

    const refused = await call(app(), 'POST', '/api/auth/switch', {
      token,
      body: { organisationId: foreignId },
    });
    expect(refused.body.code).toBe(403);
    expect(((await call(app(), 'GET', '/api/auth/me', { token })).body.data as Me).user.organisationId).toBe(
      home,
    );

    const switched = await call(app(), 'POST', '/api/auth/switch', {
      token,
      body: { organisationId: branchId },
    });
    expect(switched.body.data).toMatchObject({ user: { organisationId: branchId } });
    const newToken = (switched.body.data as { token: string }).token;
    expect((await call(app(), 'GET', '/api/auth/me', { token })).body.code).toBe(400001);
    const after = (await call(app(), 'GET', '/api/auth/me', { token: newToken })).body.data as Me;
    expect(after.user.organisationId).toBe(branchId);
    // The next login starts in the organisation chosen last.
    const again = await f.login('pi');
    expect(
      ((await call(app(), 'GET', '/api/auth/me', { token: again })).body.data as Me).user.organisationId,
    ).toBe(branchId);
  });
});

describe('deleting a user', () => {
  it('keeps the user disabled with who and when, ends the session, hides them from the list, and restores them', async () => {
    const admin = await f.login('demoadmin');
    const token = await f.login('dsurwriter');
    const user = await userByAccount(admin, 'dsurwriter');
    const deleted = await call(app(), 'POST', `/api/users/${user.userId}/delete`, { token: admin });
    expect(deleted.body.data).toMatchObject({ state: 'disabled', deleted: true });
    expect((deleted.body.data as { deletedAt: string }).deletedAt).toMatch(/^\d{4}-/);
    expect((await call(app(), 'GET', '/api/auth/me', { token })).body.code).toBe(400001);
    await expect(f.login('dsurwriter')).rejects.toThrow(/400/);
    expect(await userByAccount(admin, 'dsurwriter')).toBeUndefined();
    const inTab = (await call(app(), 'GET', '/api/users?deleted=true', { token: admin })).body.data as {
      items: UserRow[];
    };
    expect(inTab.items.map((u) => u.account)).toEqual(['dsurwriter']);
    // Still there by id, and nothing else about the user was lost.
    const kept = (await call(app(), 'GET', `/api/users/${user.userId}`, { token: admin })).body.data as {
      organisationIds: string[];
      rev: number;
    };
    expect(kept).toMatchObject({ account: 'dsurwriter', deleted: true, roleIds: expect.any(Array) });

    // A deleted user is not enabled, reset or deleted again; restoring first.
    for (const action of ['enable', 'reset-password', 'delete']) {
      const refused = await call(app(), 'POST', `/api/users/${user.userId}/${action}`, {
        token: admin,
        headers: { 'Lang-Type': 'en' },
      });
      expect(refused.body.code, action).toBe(400);
      expect(refused.body.msg).toMatch(/deleted/);
    }
    // Nor edited (the generic CRUD's edit of a deleted entry names the way out).
    const edit = await call(app(), 'PUT', `/api/users/${user.userId}`, {
      token: admin,
      headers: { 'Lang-Type': 'en' },
      body: {
        name: 'Edited',
        email: 'edited@example.com',
        organisationIds: kept.organisationIds,
        rev: kept.rev,
      },
    });
    expect(edit.body.code).toBe(400);
    expect(edit.body.msg).toMatch(/deleted/);
    const restored = await call(app(), 'POST', `/api/users/${user.userId}/restore`, { token: admin });
    expect(restored.body.data).toMatchObject({ deleted: false, deletedAt: null, state: 'disabled' });
    expect((await userByAccount(admin, 'dsurwriter')).state).toBe('disabled');
    await call(app(), 'POST', `/api/users/${user.userId}/enable`, { token: admin });
    await f.login('dsurwriter');
    expect((await call(app(), 'POST', `/api/users/${user.userId}/restore`, { token: admin })).body.code).toBe(
      400,
    );
  });

  it('refuses the tenant administrators, oneself, and callers without the permission', async () => {
    const admin = await f.login('demoadmin');
    const self = await userByAccount(admin, 'demoadmin');
    expect((await call(app(), 'POST', `/api/users/${self.userId}/delete`, { token: admin })).body.code).toBe(
      400,
    );
    const entry = await f.login('entry');
    const target = await userByAccount(admin, 'dsurapprover');
    expect(
      (await call(app(), 'POST', `/api/users/${target.userId}/delete`, { token: entry })).body.code,
    ).toBe(403);
    expect((await userByAccount(admin, 'dsurapprover')).state).not.toBe('disabled');
  });
});

describe('assigning roles', () => {
  it('needs the assign-roles permission beyond editing the profile', async () => {
    const admin = await f.login('demoadmin');
    const role = await call(app(), 'POST', '/api/access/roles', {
      token: admin,
      body: {
        name: '用户资料维护',
        type: 'sub-admin',
        identifier: 'profileEditor',
        permissions: [
          'authoritymanagement',
          'authoritymanagement:userAccountManagement',
          'authoritymanagement:userAccountManagement:edit',
        ],
      },
    });
    const roleId = (role.body.data as { roleId: string }).roleId;
    type Full = UserRow & {
      name: string;
      email: string;
      organisationIds: string[];
      roleIds: string[];
      rev: number;
    };
    const full = async (account: string) =>
      (
        await call(app(), 'GET', `/api/users/${(await userByAccount(admin, account)).userId}`, {
          token: admin,
        })
      ).body.data as Full;
    const editor = await full('dsurapprover');
    const given = await call(app(), 'PUT', `/api/users/${editor.userId}`, {
      token: admin,
      body: {
        name: editor.name,
        email: editor.email,
        organisationIds: editor.organisationIds,
        roleIds: [roleId],
        rev: editor.rev,
      },
    });
    expect(given.body.code).toBe(200);
    const token = await f.login('dsurapprover');

    const target = await full('dsurlead');
    const profile = { email: target.email, organisationIds: target.organisationIds };
    const renamed = await call(app(), 'PUT', `/api/users/${target.userId}`, {
      token,
      body: { ...profile, name: '主写人', roleIds: target.roleIds, rev: target.rev },
    });
    expect(renamed.body.code).toBe(200);
    const after = await full('dsurlead');
    const regranted = await call(app(), 'PUT', `/api/users/${target.userId}`, {
      token,
      body: { ...profile, name: '主写人', roleIds: [...after.roleIds, roleId], rev: after.rev },
    });
    expect(regranted.body.code).toBe(403);
    expect((await full('dsurlead')).roleIds).toEqual(after.roleIds);
  });
});

describe('demo seed', () => {
  it('creates one account per workflow duty once, and prints credentials only the first time', async () => {
    expect(f.announced).toHaveLength(1);
    expect(Object.keys(f.passwords)).toEqual(
      expect.arrayContaining([
        'operator',
        'demoadmin',
        'entry',
        'coder',
        'qc',
        'medical',
        'sponsor',
        'submitter',
        'unblindapply',
        'unblindapprove',
        'dsurlead',
      ]),
    );
    for (const module of f.platform.modules) await module.seed?.(f.platform.deps);
    expect(f.announced).toHaveLength(1);
    const logged = JSON.stringify(f.platform.logs);
    for (const password of Object.values(f.passwords)) expect(logged).not.toContain(password);
  });

  it('grants each duty the menu branches of its pages (entry reaches case registration through case management)', async () => {
    // A fixture of its own: the tests above reassign the demo users' roles.
    const fresh = await identityFixture();
    const token = await fresh.login('entry');
    const menus = (await call(fresh.platform.app, 'GET', '/api/access/menus', { token })).body.data as {
      path: string | null;
      granted: boolean;
    }[];
    const granted = (path: string) => menus.find((m) => m.path === path)?.granted;
    expect(granted('/casemanagement/casebookin')).toBe(true);
    expect(granted('/casemanagement')).toBe(true);
    expect(granted('/authoritymanagement')).toBe(false);
    await fresh.close();
  });
});
