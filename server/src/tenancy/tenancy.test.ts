import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../testing';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';
import { loadEntity } from '../entities';

let f: IdentityFixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f.close());
const app = () => f.platform.app;

async function captchaId(): Promise<string> {
  return ((await call(app(), 'GET', '/api/auth/captcha')).body.data as { captchaId: string }).captchaId;
}

describe('tenants', () => {
  let tenantId = '';
  it('registers a tenant that waits for the operator, then is approved', async () => {
    const body = {
      tenantName: '新药业',
      code: 'newpharma',
      contactName: '王五',
      account: 'wangwu',
      email: 'wang@new.cn',
      password: 'Regist#2026',
      confirmPassword: 'Regist#2026',
      captchaId: await captchaId(),
      captchaCode: 'ACE7',
    };
    const res = await call(app(), 'POST', '/api/tenancy/registrations', { body, lang: 'en' });
    expect(res.body.data).toMatchObject({ status: 'pending' });
    expect(res.body.msg).toMatch(/^Registration received\. If this tenant and account can be registered/);
    tenantId = (res.body.data as { tenantId: string }).tenantId;
    // A second registration of the same name and code is answered alike, and creates nothing.
    const again = await call(app(), 'POST', '/api/tenancy/registrations', {
      body: { ...body, captchaId: await captchaId() },
      lang: 'en',
    });
    expect(again.body).toMatchObject({ code: 200, msg: res.body.msg, data: { status: 'pending' } });
    expect((again.body.data as { tenantId: string }).tenantId).not.toBe(tenantId);

    const early = await call(app(), 'POST', '/api/auth/login', {
      body: { account: 'wangwu', password: 'Regist#2026', captchaId: await captchaId(), captchaCode: 'ACE7' },
      lang: 'en',
    });
    expect(early.body.msg).toBe('The tenant registration is waiting for approval');

    const operator = await f.login('operator');
    const pending = await call(app(), 'GET', '/api/tenancy/operator/tenants?status=pending', {
      token: operator,
    });
    expect((pending.body.data as { tenantId: string }[]).map((t) => t.tenantId)).toContain(tenantId);
    const decided = await call(app(), 'POST', `/api/tenancy/operator/tenants/${tenantId}/decision`, {
      token: operator,
      body: { approve: true, limits: { projects: 2, sponsors: 1, users: 2 } },
    });
    expect(decided.body.data).toMatchObject({ status: 'active', limits: { users: 2 } });
    const token = await f.login('wangwu', 'Regist#2026');
    const me = await call(app(), 'GET', '/api/auth/me', { token });
    expect(me.body.data).toMatchObject({ allPermissions: true, tenant: { name: '新药业' } });
  });

  it('enforces the user limit', async () => {
    const token = await f.login('wangwu', 'Regist#2026');
    const tree = (await call(app(), 'GET', '/api/tenancy/organisations', { token })).body.data as {
      organisationId: string;
    }[];
    const org = tree[0]!.organisationId;
    const first = await call(app(), 'POST', '/api/users', {
      token,
      body: { account: 'second', name: 'Second', email: 's@new.cn', organisationIds: [org] },
    });
    expect(first.body.code).toBe(200);
    const over = await call(app(), 'POST', '/api/users', {
      token,
      body: { account: 'third', name: 'Third', email: 't@new.cn', organisationIds: [org] },
      lang: 'en',
    });
    expect(over.body.msg).toBe('The tenant has reached its limit of 2 users');
  });

  it('keeps organisations as a tree and refuses cycles', async () => {
    const token = await f.login('wangwu', 'Regist#2026');
    const root = (
      (await call(app(), 'GET', '/api/tenancy/organisations', { token })).body.data as {
        organisationId: string;
      }[]
    )[0]!;
    const child = await call(app(), 'POST', '/api/tenancy/organisations', {
      token,
      body: { name: '北京分公司', kind: 'organisation', parentId: root.organisationId },
    });
    const childId = (child.body.data as { organisationId: string }).organisationId;
    const site = await call(app(), 'POST', '/api/tenancy/organisations', {
      token,
      body: { name: '协和医院', kind: 'institution', parentId: childId },
    });
    expect(site.body.code).toBe(200);
    const tree = (await call(app(), 'GET', '/api/tenancy/organisations', { token })).body.data as {
      children: { name: string; children: { name: string }[] }[];
    }[];
    expect(tree[0]!.children[0]!.children[0]!.name).toBe('协和医院');
    const rootDoc = tree[0] as unknown as { name: string; kind: string; rev: number };
    const cycle = await call(app(), 'PUT', `/api/tenancy/organisations/${root.organisationId}`, {
      token,
      body: {
        name: rootDoc.name,
        kind: rootDoc.kind,
        parentId: (site.body.data as { organisationId: string }).organisationId,
        rev: rootDoc.rev,
      },
    });
    expect(cycle.body.code).toBe(400);
    const busy = await call(app(), 'DELETE', `/api/tenancy/organisations/${childId}`, { token });
    expect(busy.body.code).toBe(400);

    // An edit is the whole entry (the form sends it): an optional field left out is cleared.
    const siteId = (site.body.data as { organisationId: string }).organisationId;
    const phoned = await call(app(), 'PUT', `/api/tenancy/organisations/${siteId}`, {
      token,
      body: { name: '协和医院', kind: 'institution', parentId: childId, phone: '010-12345678', rev: 1 },
    });
    expect(phoned.body.data).toMatchObject({ phone: '010-12345678', parentId: childId });
    const cleared = await call(app(), 'PUT', `/api/tenancy/organisations/${siteId}`, {
      token,
      body: {
        name: '协和医院',
        kind: 'institution',
        parentId: childId,
        rev: (phoned.body.data as { rev: number }).rev,
      },
    });
    expect(cleared.body.data).toMatchObject({ phone: null, parentId: childId });
    // The leaf goes; an unknown one answers 404.
    expect((await call(app(), 'DELETE', `/api/tenancy/organisations/${siteId}`, { token })).body.code).toBe(
      200,
    );
    expect((await call(app(), 'DELETE', `/api/tenancy/organisations/${siteId}`, { token })).body.code).toBe(
      404,
    );
  });

  it('ends access on the next request once the tenant expires', async () => {
    const token = await f.login('wangwu', 'Regist#2026');
    const operator = await f.login('operator');
    const current = (await call(app(), 'GET', '/api/tenancy/operator/tenants', { token: operator })).body
      .data as {
      tenantId: string;
      rev: number;
      limits: unknown;
    }[];
    const tenant = current.find((t) => t.tenantId === tenantId)!;
    const expiry = new Date(f.clock.now().getTime() + 60_000).toISOString();
    const set = await call(app(), 'PUT', `/api/tenancy/operator/tenants/${tenantId}`, {
      token: operator,
      body: { expiresAt: expiry, limits: tenant.limits, status: 'active', rev: tenant.rev },
    });
    expect(set.body.code).toBe(200);
    expect((await call(app(), 'GET', '/api/auth/me', { token })).body.code).toBe(200);
    f.clock.advance(120_000);
    const after = await call(app(), 'GET', '/api/auth/me', { token, lang: 'en' });
    expect(after.body.code).toBe(400001);
    expect(after.body.msg).toMatch(/expired/);
    const login = await call(app(), 'POST', '/api/auth/login', {
      body: { account: 'wangwu', password: 'Regist#2026', captchaId: await captchaId(), captchaCode: 'ACE7' },
    });
    expect(login.body.code).toBe(400);
  });
});

describe('deleting a tenant', () => {
  it('keeps a rejected or disabled tenant, hidden unless asked for, and restores it; an active one is refused', async () => {
    const registered = await call(app(), 'POST', '/api/tenancy/registrations', {
      body: {
        tenantName: '待删除药业',
        code: 'to-delete',
        contactName: '赵六',
        account: 'zhaoliu',
        email: 'zhao@del.cn',
        password: 'Regist#2026',
        confirmPassword: 'Regist#2026',
        captchaId: await captchaId(),
        captchaCode: 'ACE7',
      },
    });
    const id = (registered.body.data as { tenantId: string }).tenantId;
    const operator = await f.login('operator');
    const path = `/api/tenancy/operator/tenants/${id}`;
    const list = async (query = '') =>
      (
        (await call(app(), 'GET', `/api/tenancy/operator/tenants${query}`, { token: operator })).body
          .data as {
          tenantId: string;
          status: string;
          deleted: boolean;
          deletedAt: string | null;
          rev: number;
          limits: unknown;
        }[]
      ).find((t) => t.tenantId === id);

    // Pending: decide first.
    expect((await call(app(), 'POST', `${path}/delete`, { token: operator })).body.code).toBe(400);
    await call(app(), 'POST', `${path}/decision`, { token: operator, body: { approve: true } });
    const active = await call(app(), 'POST', `${path}/delete`, { token: operator, lang: 'en' });
    expect(active.body.msg).toMatch(/disable it first/);
    const current = (await list())!;
    await call(app(), 'PUT', path, {
      token: operator,
      body: { expiresAt: null, limits: current.limits, status: 'disabled', rev: current.rev },
    });

    // A tenant user never reaches the operator route.
    const tenantAdmin = await f.login('demoadmin');
    expect((await call(app(), 'POST', `${path}/delete`, { token: tenantAdmin })).body.code).toBe(403);

    const deleted = await call(app(), 'POST', `${path}/delete`, { token: operator });
    expect(deleted.body.data).toMatchObject({ deleted: true, status: 'disabled' });
    expect(await list()).toBeUndefined();
    const kept = (await list('?deleted=true'))!;
    expect(kept).toMatchObject({ deleted: true, status: 'disabled' });
    expect(kept.deletedAt).toMatch(/^\d{4}-/);
    const edit = await call(app(), 'PUT', path, {
      token: operator,
      body: { expiresAt: null, limits: kept.limits, status: 'active', rev: kept.rev },
    });
    expect(edit.body.code).toBe(400);
    expect((await call(app(), 'POST', `${path}/delete`, { token: operator })).body.code).toBe(400);
    // Its accounts still cannot log in.
    const login = await call(app(), 'POST', '/api/auth/login', {
      body: {
        account: 'zhaoliu',
        password: 'Regist#2026',
        captchaId: await captchaId(),
        captchaCode: 'ACE7',
      },
    });
    expect(login.body.code).toBe(400);

    const restored = await call(app(), 'POST', `${path}/restore`, { token: operator });
    expect(restored.body.data).toMatchObject({ deleted: false, deletedAt: null, status: 'disabled' });
    expect(await list()).toMatchObject({ status: 'disabled' });
    expect((await call(app(), 'POST', `${path}/restore`, { token: operator })).body.code).toBe(400);
  });
});

describe('roles and project permissions', () => {
  it('grants per project, per user key, and sub-administrators grant only what they hold', async () => {
    const admin = await f.login('demoadmin');
    const roles = (await call(app(), 'GET', '/api/access/roles', { token: admin })).body.data as {
      roleId: string;
      identifier: string;
    }[];
    const users = (await call(app(), 'GET', '/api/users?size=200', { token: admin })).body.data as {
      items: {
        userId: string;
        account: string;
        rev: number;
        name: string;
        email: string;
        organisationIds: string[];
      }[];
    };
    const pi = users.items.find((u) => u.account === 'pi')!;
    const entry = users.items.find((u) => u.account === 'entry')!;
    const put = (userId: string, keys: string[]) =>
      call(app(), 'PUT', `/api/access/projects/p1/members/${userId}`, {
        token: admin,
        body: { roleIds: [], permissionKeys: keys },
      });
    expect((await put(pi.userId, ['authoritymanagement:onlineUser'])).body.code).toBe(200);
    expect((await put(entry.userId, [`authoritymanagement:onlineUser:${pi.userId}`])).body.code).toBe(400);
    const piToken = await f.login('pi');
    expect((await call(app(), 'GET', '/api/auth/online', { token: piToken })).body.code).toBe(403);
    expect(
      (await call(app(), 'GET', '/api/auth/online', { token: piToken, headers: { projectid: 'p1' } })).body
        .code,
    ).toBe(200);
    expect(
      (await call(app(), 'GET', '/api/auth/online', { token: piToken, headers: { projectid: 'p2' } })).body
        .code,
    ).toBe(403);

    // A sub-administrator holding only user management cannot create a role with more.
    const sub = await call(app(), 'POST', '/api/access/roles', {
      token: admin,
      body: {
        name: '用户管理员',
        type: 'sub-admin',
        identifier: 'userAdmin',
        permissions: [
          'authoritymanagement:userAccountManagement',
          'authoritymanagement:userAccountManagement:roleAdd',
          'authoritymanagement:userAccountManagement:edit',
        ],
      },
    });
    const subRoleId = (sub.body.data as { roleId: string }).roleId;
    const qc = users.items.find((u) => u.account === 'qc')!;
    const full = (await call(app(), 'GET', `/api/users/${qc.userId}`, { token: admin })).body.data as {
      rev: number;
      roleIds: string[];
    };
    const assign = await call(app(), 'PUT', `/api/users/${qc.userId}`, {
      token: admin,
      body: {
        name: qc.name,
        email: qc.email,
        organisationIds: qc.organisationIds,
        roleIds: [...full.roleIds, subRoleId],
        rev: full.rev,
      },
    });
    expect(assign.body.code).toBe(200);
    const qcToken = await f.login('qc');
    const tooMuch = await call(app(), 'POST', '/api/access/roles', {
      token: qcToken,
      body: {
        name: 'x',
        type: 'business',
        identifier: 'tooMuch',
        permissions: ['authoritymanagement:onlineUser:forceLogout'],
      },
    });
    expect(tooMuch.body.code).toBe(403);
    const unknown = await call(app(), 'POST', '/api/access/roles', {
      token: admin,
      body: { name: 'x', type: 'business', identifier: 'bad', permissions: ['holoxcontrol:lessee'] },
    });
    expect(unknown.body.code).toBe(400);
    expect(roles.some((r) => r.identifier === 'dataEntry')).toBe(true);
  });

  it('serves the menu tree with the caller’s grants', async () => {
    const token = await f.login('entry');
    const menus = (await call(app(), 'GET', '/api/access/menus', { token })).body.data as {
      id: string;
      granted: boolean;
      available: boolean;
    }[];
    expect(menus.find((m) => m.id === 'activecase:save')?.granted).toBe(true);
    expect(menus.find((m) => m.id === 'authoritymanagement:onlineUser')?.granted).toBe(false);
    expect(menus.find((m) => m.id === 'holoxcontrol:lessee')?.granted).toBe(false);
    expect(menus.find((m) => m.id === 'authoritymanagement:userAccountManagement')?.available).toBe(true);
  });
});

describe('entity schemas', () => {
  it('compile and label every property in zh and en', () => {
    const ajv = new Ajv2020({ strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    for (const name of ['tenant', 'organisation', 'user', 'role']) {
      // Inlined: the files name the shared formats with $ref (formats.json).
      const schema = loadEntity(name) as {
        properties: Record<string, { 'x-label'?: { zh?: string; en?: string } }>;
      };
      ajv.compile(schema);
      for (const [key, property] of Object.entries(schema.properties)) {
        expect(property['x-label']?.zh, `${name}.${key}`).toBeTruthy();
        expect(property['x-label']?.en, `${name}.${key}`).toBeTruthy();
      }
    }
  });
});

describe('defaults of new tenants', () => {
  it('sets the limits and policy new tenants start with; existing tenants keep theirs', async () => {
    const operator = await f.login('operator');
    const path = '/api/tenancy/operator/tenant-defaults';
    const initial = (await call(app(), 'GET', path, { token: operator })).body.data as {
      limits: Record<string, number>;
      security: { requireUpper: boolean } & Record<string, unknown>;
      rev: number | null;
    };
    expect(initial.limits).toEqual({ projects: 20, sponsors: 10, users: 200 });
    const admin = await f.login('demoadmin');
    expect((await call(app(), 'GET', path, { token: admin })).body.code).toBe(403);
    const demoPolicy = (await call(app(), 'GET', '/api/tenancy/security', { token: admin })).body.data;

    const security = { ...initial.security, minLength: 12, sessionMinutes: 20 };
    const limits = { projects: 1, sponsors: 1, users: 3 };
    const badSession = await call(app(), 'PUT', path, {
      token: operator,
      body: { limits, security, rev: initial.rev },
    });
    expect(badSession.body.code).toBe(400);
    const { requireUpper: _u, ...incomplete } = { ...security, sessionMinutes: 60 };
    expect(
      (
        await call(app(), 'PUT', path, {
          token: operator,
          body: { limits, security: incomplete, rev: initial.rev },
        })
      ).body.code,
    ).toBe(400);
    expect((await call(app(), 'GET', path, { token: operator })).body.data).toMatchObject({
      rev: initial.rev,
    });

    const saved = await call(app(), 'PUT', path, {
      token: operator,
      body: { limits, security: { ...security, sessionMinutes: 60 }, rev: initial.rev },
    });
    expect(saved.body.data).toMatchObject({ limits, security: { minLength: 12, sessionMinutes: 60 } });
    const stale = await call(app(), 'PUT', path, {
      token: operator,
      body: { limits, security: { ...security, sessionMinutes: 60 }, rev: initial.rev },
    });
    expect(stale.body.code).toBe(409);

    const registration = {
      tenantName: '新默认药业',
      code: 'new-defaults',
      contactName: '钱七',
      account: 'qianqi',
      email: 'qian@nd.cn',
      password: 'Short#2026',
      confirmPassword: 'Short#2026',
      captchaCode: 'ACE7',
    };
    const short = await call(app(), 'POST', '/api/tenancy/registrations', {
      body: { ...registration, captchaId: await captchaId() },
    });
    expect(short.body.code).toBe(400);
    const registered = await call(app(), 'POST', '/api/tenancy/registrations', {
      body: {
        ...registration,
        password: 'Longer#Pass2026',
        confirmPassword: 'Longer#Pass2026',
        captchaId: await captchaId(),
      },
    });
    const id = (registered.body.data as { tenantId: string }).tenantId;
    await call(app(), 'POST', `/api/tenancy/operator/tenants/${id}/decision`, {
      token: operator,
      body: { approve: true },
    });
    const owner = await f.login('qianqi', 'Longer#Pass2026');
    expect((await call(app(), 'GET', '/api/tenancy/security', { token: owner })).body.data).toMatchObject({
      minLength: 12,
      sessionMinutes: 60,
    });
    expect((await call(app(), 'GET', '/api/tenancy/tenant', { token: owner })).body.data).toMatchObject({
      limits,
    });
    expect((await call(app(), 'GET', '/api/tenancy/security', { token: admin })).body.data).toEqual(
      demoPolicy,
    );

    const current = (saved.body.data as { rev: number }).rev;
    await call(app(), 'PUT', path, {
      token: operator,
      body: { limits: initial.limits, security: initial.security, rev: current },
    });
  });
});
