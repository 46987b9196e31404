/**
 * Identity attacks of issue 13 (C1, C2, M4), replayed through the HTTP API on a fresh store:
 * a tenant administrator naming another tenant's account, a pre-registered account name, and login
 * and registration answers that must not tell account states apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../testing';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';
import { REGISTRATION_DAYS } from '../tenancy';

let f: IdentityFixture;
const app = () => f.platform.app;

interface UserRow {
  userId: string;
  account: string;
  state: string;
}

async function captchaId(): Promise<string> {
  return ((await call(app(), 'GET', '/api/auth/captcha')).body.data as { captchaId: string }).captchaId;
}

/** A login attempt as a browser sends it; answers the raw response (body bytes and timing). */
async function rawLogin(account: string, password: string, extra: Record<string, unknown> = {}) {
  const body = JSON.stringify({
    account,
    password,
    captchaId: await captchaId(),
    captchaCode: 'ACE7',
    ...extra,
  });
  const started = performance.now();
  const res = await app().request('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'lang-type': 'en' },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - started, headers: res.headers };
}

async function userByAccount(admin: string, account: string): Promise<UserRow | undefined> {
  const list = (await call(app(), 'GET', `/api/users?name=${account}&size=200`, { token: admin })).body
    .data as {
    items: UserRow[];
  };
  return list.items.find((u) => u.account === account);
}

async function register(account: string, code: string, password = 'Regist#2026') {
  return call(app(), 'POST', '/api/tenancy/registrations', {
    lang: 'en',
    body: {
      tenantName: `Tenant ${code}`,
      code,
      contactName: 'Registrant',
      account,
      email: `${account}@example.com`,
      password,
      confirmPassword: password,
      captchaId: await captchaId(),
      captchaCode: 'ACE7',
    },
  });
}

/** Tenant B, created and activated as the operator does: its administrator's token and tenant. */
let tenantB = '';
let orgB = '';
let adminB = '';

beforeAll(async () => {
  f = await identityFixture();
  const operator = await f.login('operator');
  const created = await call(app(), 'POST', '/api/tenancy/operator/tenants', {
    token: operator,
    body: {
      name: 'Tenant B',
      code: 'tenant-b',
      expiresAt: null,
      limits: { projects: 5, sponsors: 5, users: 20 },
      contact: { name: 'Bee', email: 'bee@b.example' },
      admin: { account: 'badmin', name: 'Bee', email: 'bee@b.example' },
    },
  });
  const data = created.body.data as { tenant: { tenantId: string }; activationPath: string };
  tenantB = data.tenant.tenantId;
  const token = new URL(data.activationPath, 'http://x').searchParams.get('token')!;
  await call(app(), 'POST', '/api/auth/activation', {
    body: { token, password: 'Bee#Admin2026', confirmPassword: 'Bee#Admin2026' },
  });
  adminB = await f.login('badmin', 'Bee#Admin2026');
  const orgs = (await call(app(), 'GET', '/api/tenancy/organisations', { token: adminB })).body.data as {
    organisationId: string;
  }[];
  orgB = orgs[0]!.organisationId;
});
afterAll(() => f.close());

const createInB = (account: string) =>
  call(app(), 'POST', '/api/users', {
    token: adminB,
    lang: 'en',
    body: { account, name: account, email: `${account}@b.example`, organisationIds: [orgB] },
  });

describe('C1: a tenant administrator naming another tenant’s account', () => {
  it('only invites it; reset-password is refused and ends only this tenant’s sessions; the victim keeps their account', async () => {
    const victim = await f.login('entry');
    const created = await createInB('entry');
    expect(created.body.code).toBe(200);
    expect(created.body.msg).toMatch(/was invited, and joins this tenant once its holder accepts/);
    expect(created.body.data).toMatchObject({
      invited: true,
      user: { state: 'invited' },
      activationPath: null,
    });
    const userId = (created.body.data as { user: { userId: string } }).user.userId;

    const reset = await call(app(), 'POST', `/api/users/${userId}/reset-password`, {
      token: adminB,
      lang: 'en',
    });
    expect(reset.status).toBe(403);
    expect(reset.body.msg).toMatch(/also belongs to other tenants/);
    expect(JSON.stringify(reset.body)).not.toMatch(/token=|resetPath/);
    const zh = await call(app(), 'POST', `/api/users/${userId}/reset-password`, { token: adminB });
    expect(zh.body.msg).toMatch(/其他租户/);

    // Nothing of the victim changed: same password, same tenant, their session in tenant A alive.
    const me = await call(app(), 'GET', '/api/auth/me', { token: victim });
    expect(me.body.code).toBe(200);
    expect((me.body.data as { tenants: unknown[] }).tenants).toHaveLength(1);
    await f.login('entry');
    // The invited membership cannot be entered, even with the victim's own password.
    const into = await rawLogin('entry', f.passwords.entry!, { tenantId: tenantB });
    expect(JSON.parse(into.text)).toMatchObject({ code: 400 });
    // Nor enabled by the inviting administrator: a disabled invitation comes back as invited.
    expect(
      (await call(app(), 'POST', `/api/users/${userId}/disable`, { token: adminB })).body.data,
    ).toMatchObject({
      state: 'disabled',
    });
    expect(
      (await call(app(), 'POST', `/api/users/${userId}/enable`, { token: adminB })).body.data,
    ).toMatchObject({
      state: 'invited',
    });
  });

  it('an administrator of the account’s only tenant still resets it (and gets the link)', async () => {
    const admin = await f.login('demoadmin');
    const target = (await userByAccount(admin, 'dm'))!;
    const reset = await call(app(), 'POST', `/api/users/${target.userId}/reset-password`, { token: admin });
    expect(reset.body.code).toBe(200);
    expect((reset.body.data as { resetPath: string }).resetPath).toMatch(/token=/);
  });
});

describe('invitations', () => {
  it('the holder sees, accepts (then can enter the tenant) or declines them; others cannot touch them', async () => {
    const token = await f.login('entry');
    const list = await call(app(), 'GET', '/api/auth/invitations', { token });
    const invitations = list.body.data as { invitationId: string; tenantId: string; tenantName: string }[];
    expect(invitations).toEqual([expect.objectContaining({ tenantId: tenantB, tenantName: 'Tenant B' })]);
    const invitationId = invitations[0]!.invitationId;

    // Somebody else's session cannot accept it (nor learn it exists).
    const other = await f.login('coder');
    expect(
      (await call(app(), 'POST', `/api/auth/invitations/${invitationId}/accept`, { token: other })).body.code,
    ).toBe(404);

    const accepted = await call(app(), 'POST', `/api/auth/invitations/${invitationId}/accept`, { token });
    expect(accepted.body).toMatchObject({ code: 200, data: { tenantId: tenantB } });
    expect((await call(app(), 'GET', '/api/auth/invitations', { token })).body.data).toEqual([]);
    const me = (await call(app(), 'GET', '/api/auth/me', { token })).body.data as { tenants: unknown[] };
    expect(me.tenants).toHaveLength(2);
    const switched = await call(app(), 'POST', '/api/auth/switch', { token, body: { tenantId: tenantB } });
    expect(switched.body.data).toMatchObject({ tenant: { tenantId: tenantB } });
    expect((await userByAccount(adminB, 'entry'))!.state).toBe('enabled');
    // Shared now: B's administrator still cannot reset the account.
    const userId = (await userByAccount(adminB, 'entry'))!.userId;
    expect((await call(app(), 'POST', `/api/users/${userId}/reset-password`, { token: adminB })).status).toBe(
      403,
    );

    // Declining removes the pending membership.
    expect((await createInB('coder')).body.data).toMatchObject({ invited: true });
    const coder = await f.login('coder');
    const [offer] = (await call(app(), 'GET', '/api/auth/invitations', { token: coder })).body.data as {
      invitationId: string;
    }[];
    const declined = await call(app(), 'POST', `/api/auth/invitations/${offer!.invitationId}/decline`, {
      token: coder,
    });
    expect(declined.body.code).toBe(200);
    expect(await userByAccount(adminB, 'coder')).toBeUndefined();
    expect(
      ((await call(app(), 'GET', '/api/auth/me', { token: coder })).body.data as { tenants: unknown[] })
        .tenants,
    ).toHaveLength(1);
  });
});

describe('C2: a pre-registered account name', () => {
  it('is never attached to the tenant that creates that name, cannot sign in, and expires', async () => {
    const registered = await register('squatter', 'squat-co', 'Squat#2026x');
    expect(registered.body.code).toBe(200);
    const taken = await createInB('squatter');
    expect(taken.body.code).toBe(409);
    expect(taken.body.msg).toMatch(/cannot be used/);
    expect(await userByAccount(adminB, 'squatter')).toBeUndefined();
    // The registrant's password opens nothing while the registration waits.
    const early = await rawLogin('squatter', 'Squat#2026x');
    expect(JSON.parse(early.text)).toMatchObject({
      code: 400,
      msg: 'The tenant registration is waiting for approval',
    });

    // Unapproved, the registration expires: name and code are free, the registrant's password is gone.
    f.clock.advance((REGISTRATION_DAYS + 1) * 86_400_000);
    adminB = await f.login('badmin', 'Bee#Admin2026');
    const created = await createInB('squatter');
    expect(created.body.data).toMatchObject({ invited: false, user: { state: 'inactive' } });
    expect((created.body.data as { activationPath: string }).activationPath).toMatch(/token=/);
    const late = await rawLogin('squatter', 'Squat#2026x');
    expect(JSON.parse(late.text)).toMatchObject({ code: 400, msg: 'Incorrect account or password' });
    const operator = await f.login('operator');
    const gone = await call(app(), 'GET', '/api/tenancy/operator/tenants?deleted=true', { token: operator });
    expect(gone.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Tenant squat-co', status: 'rejected' })]),
    );
    const again = await register('someoneelse', 'squat-co');
    expect(again.body.code).toBe(200);
    const pending = (
      await call(app(), 'GET', '/api/tenancy/operator/tenants?status=pending', { token: operator })
    ).body.data as { code: string }[];
    expect(pending.map((t) => t.code)).toContain('squat-co');
  });
});

describe('registration answers', () => {
  it('never confirm an existing account name or tenant code', async () => {
    const fresh = await register('brandnew', 'brand-new-co');
    const nameTaken = await register('demoadmin', 'another-co');
    const codeTaken = await register('anotherone', 'brand-new-co');
    for (const res of [fresh, nameTaken, codeTaken]) {
      expect(res.status).toBe(200);
      expect(res.body.msg).toBe(fresh.body.msg);
      expect(res.body.msg).toMatch(/If this tenant and account can be registered/);
      expect(Object.keys(res.body.data as object).sort()).toEqual(['status', 'tenantId']);
      expect(res.body.data).toMatchObject({ status: 'pending' });
    }
    // Nothing was created for the refused ones, and demoadmin keeps its password.
    const operator = await f.login('operator');
    const names = (
      (await call(app(), 'GET', '/api/tenancy/operator/tenants', { token: operator })).body.data as {
        code: string;
      }[]
    ).map((t) => t.code);
    expect(names).toContain('brand-new-co');
    expect(names).not.toContain('another-co');
    await f.login('demoadmin');
    expect(JSON.parse((await rawLogin('anotherone', 'Regist#2026')).text).msg).toBe(
      'Incorrect account or password',
    );
  });
});

describe('M4: login answers', () => {
  it('are byte-identical for unknown, wrong-password, locked, disabled and pending accounts, with similar timing', async () => {
    const admin = await f.login('demoadmin');
    // Locked: five wrong passwords; disabled: by the administrator; pending: a waiting registration.
    for (let i = 0; i < 5; i++) await rawLogin('medical', 'Wrong#pass1');
    expect((await userByAccount(admin, 'medical'))!.state).toBe('locked');
    const sponsor = (await userByAccount(admin, 'sponsor'))!;
    await call(app(), 'POST', `/api/users/${sponsor.userId}/disable`, { token: admin });
    await register('waiting', 'waiting-co', 'Waiting#2026');

    // The floor production uses (300 ms) scaled to the test's cheap scrypt: refused logins answer
    // no sooner than 80 ms, whatever writes the account's state makes.
    f.options.loginFloorMs = 80;
    const cases: Record<string, string> = {
      unknown: 'nobody-at-all',
      wrongPassword: 'qc',
      locked: 'medical',
      disabled: 'sponsor',
      pending: 'waiting',
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    const bodies = new Set<string>();
    const statuses = new Set<number>();
    for (let round = 0; round < 20; round++) {
      for (const [name, account] of Object.entries(cases)) {
        const res = await rawLogin(account, 'Wrong#guess9');
        bodies.add(res.text);
        statuses.add(res.status);
        times[name]!.push(res.ms);
      }
    }
    // The same answer asks every one of them for the verification code from now on.
    expect([...bodies]).toEqual([
      JSON.stringify({
        code: 400,
        msg: 'Incorrect account or password',
        data: { captchaRequired: true },
      }),
    ]);
    expect([...statuses]).toEqual([400]);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const medians = Object.values(times).map(median);
    expect(Math.max(...medians) - Math.min(...medians), JSON.stringify(medians)).toBeLessThan(20);
    f.options.loginFloorMs = 0;

    // With the right password the holder learns the state.
    const told = async (account: string, password: string) =>
      JSON.parse((await rawLogin(account, password)).text);
    expect((await told('medical', f.passwords.medical!)).msg).toMatch(/locked until/);
    expect((await told('sponsor', f.passwords.sponsor!)).msg).toBe('The account is disabled');
    expect((await told('waiting', 'Waiting#2026')).msg).toBe(
      'The tenant registration is waiting for approval',
    );

    // The administrator unlocks (and enables) again.
    const medical = (await userByAccount(admin, 'medical'))!;
    const unlocked = await call(app(), 'POST', `/api/users/${medical.userId}/unlock`, { token: admin });
    expect(unlocked.body.data).toMatchObject({ state: 'enabled', lockedUntil: null });
    await f.login('medical');
    // Failures counted while disabled too: enabled again, the account still waits for its unlock.
    await call(app(), 'POST', `/api/users/${sponsor.userId}/enable`, { token: admin });
    expect((await told('sponsor', f.passwords.sponsor!)).msg).toMatch(/locked until/);
    await call(app(), 'POST', `/api/users/${sponsor.userId}/unlock`, { token: admin });
    await f.login('sponsor');
  });

  it('locks an account in one tenant only: anonymous failures do not shut it out of its other tenants', async () => {
    // entry belongs to tenant A (last used) and tenant B (accepted above).
    const token = await f.login('entry');
    await call(app(), 'POST', '/api/auth/switch', { token, body: { tenantId: tenantB } });
    const me = await f.login('entry');
    const lastTenant = (
      (await call(app(), 'GET', '/api/auth/me', { token: me })).body.data as {
        tenant: { tenantId: string };
      }
    ).tenant.tenantId;
    expect(lastTenant).toBe(tenantB);
    for (let i = 0; i < 5; i++) await rawLogin('entry', 'Wrong#pass1');
    expect((await userByAccount(adminB, 'entry'))!.state).toBe('locked');
    expect(JSON.parse((await rawLogin('entry', f.passwords.entry!)).text).msg).toMatch(/locked until/);
    const demoTenant = JSON.parse(
      (await rawLogin('entry', f.passwords.entry!, { tenantId: await tenantOf('demoadmin') })).text,
    );
    expect(demoTenant.code).toBe(200);
    const demoAdmin = await f.login('demoadmin');
    expect((await userByAccount(demoAdmin, 'entry'))!.state).toBe('enabled');
    // Signed in to tenant A, the account still cannot switch into B while B's lock lasts.
    const switched = await call(app(), 'POST', '/api/auth/switch', {
      token: (demoTenant.data as { token: string }).token,
      body: { tenantId: tenantB },
      lang: 'en',
    });
    expect(switched.status).toBe(403);
    expect(switched.body.msg).toMatch(/locked until/);
    // B's administrator unlocks B's membership.
    const userId = (await userByAccount(adminB, 'entry'))!.userId;
    expect(
      (await call(app(), 'POST', `/api/users/${userId}/unlock`, { token: adminB })).body.data,
    ).toMatchObject({
      state: 'enabled',
    });
    expect(JSON.parse((await rawLogin('entry', f.passwords.entry!, { tenantId: tenantB })).text).code).toBe(
      200,
    );
  });
});

async function tenantOf(account: string): Promise<string> {
  const token = await f.login(account);
  return ((await call(app(), 'GET', '/api/auth/me', { token })).body.data as { tenant: { tenantId: string } })
    .tenant.tenantId;
}

describe('the platform operator', () => {
  it('resets a shared account platform-wide (every session ends) and unlocks it in every tenant', async () => {
    // entry is shared by tenant A and tenant B by now; B's administrator may not reset it, the operator may.
    const operator = await f.login('operator');
    const token = await f.login('entry');
    const refused = await call(app(), 'POST', '/api/tenancy/operator/accounts/reset-password', {
      token: adminB,
      body: { account: 'entry' },
    });
    expect(refused.status).toBe(403);
    const reset = await call(app(), 'POST', '/api/tenancy/operator/accounts/reset-password', {
      token: operator,
      body: { account: 'entry' },
    });
    expect(reset.body.code).toBe(200);
    expect((await call(app(), 'GET', '/api/auth/me', { token })).body.code).toBe(400001);
    const link = new URL((reset.body.data as { resetPath: string }).resetPath, 'http://x').searchParams.get(
      'token',
    )!;
    const set = await call(app(), 'POST', '/api/auth/activation', {
      body: { token: link, password: 'Entry#Reset2026', confirmPassword: 'Entry#Reset2026' },
    });
    expect(set.body.code).toBe(200);
    f.passwords.entry = 'Entry#Reset2026';

    // Locked in both tenants, unlocked in both by one call.
    for (const tenantId of [tenantB, await tenantOf('demoadmin')])
      for (let i = 0; i < 5; i++) await rawLogin('entry', 'Wrong#pass1', { tenantId });
    expect((await userByAccount(adminB, 'entry'))!.state).toBe('locked');
    const unlocked = await call(app(), 'POST', '/api/tenancy/operator/accounts/unlock', {
      token: operator,
      body: { account: 'entry' },
    });
    expect(unlocked.body.code).toBe(200);
    expect((await userByAccount(adminB, 'entry'))!.state).toBe('enabled');
    expect((await userByAccount(await f.login('demoadmin'), 'entry'))!.state).toBe('enabled');
    await f.login('entry');
  });
});

describe('the verification code (captcha on)', () => {
  /** A login without a verification code, as the login page sends one before any failure. */
  async function bare(account: string, password: string, extra: Record<string, unknown> = {}) {
    const res = await app().request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'lang-type': 'en' },
      body: JSON.stringify({ account, password, ...extra }),
    });
    return { status: res.status, text: await res.text() };
  }
  const asked = JSON.stringify({
    code: 400,
    msg: 'Enter the verification code to log in',
    data: { captchaRequired: true },
  });
  const wrong = JSON.stringify({
    code: 400,
    msg: 'Incorrect account or password',
    data: { captchaRequired: true },
  });

  it('is asked from the first failed login of an account name in a tenant until a login succeeds, unknown names alike', async () => {
    const password = f.passwords.submitter!;
    // No failure yet: no code needed.
    expect(JSON.parse((await bare('submitter', password)).text).code).toBe(200);
    // The first wrong password answers as always, and asks for the code from then on: for a known
    // and an unknown name the same bytes, even with the right password.
    for (const [account, next] of [
      ['submitter', password],
      ['nobody-at-all-2', 'Whatever#1'],
    ] as const) {
      expect(await bare(account, 'Wrong#guess9')).toEqual({ status: 400, text: wrong });
      expect(await bare(account, next)).toEqual({ status: 400, text: asked });
      expect(await bare(account, 'Wrong#guess9')).toEqual({ status: 400, text: asked });
    }
    // Another name, and the same name in another tenant, are not asked.
    expect(JSON.parse((await bare('demoadmin', f.passwords.demoadmin!)).text).code).toBe(200);
    expect(await bare('submitter', password, { tenantId: tenantB })).not.toEqual({
      status: 400,
      text: asked,
    });
    // With the code the holder signs in, and is not asked any more.
    const withCode = await bare('submitter', password, { captchaId: await captchaId(), captchaCode: 'ACE7' });
    expect(JSON.parse(withCode.text).code).toBe(200);
    expect(JSON.parse((await bare('submitter', password)).text).code).toBe(200);
  });

  it('marks only the tenant named: a failure naming a tenant leaves the account’s own login free', async () => {
    const password = f.passwords.submitter!;
    expect(await bare('submitter', 'Wrong#guess9', { tenantId: tenantB })).toEqual({
      status: 400,
      text: wrong,
    });
    expect(await bare('submitter', password, { tenantId: tenantB })).toEqual({ status: 400, text: asked });
    expect(JSON.parse((await bare('submitter', password)).text).code).toBe(200);
  });

  it('is always checked when sent, and a wrong one asks for a new one', async () => {
    const password = f.passwords.submitter!;
    const res = await bare('submitter', password, { captchaId: await captchaId(), captchaCode: 'ZZZZ' });
    expect(JSON.parse(res.text)).toMatchObject({ code: 400, data: { captchaRequired: true } });
    expect(await bare('submitter', password)).toEqual({ status: 400, text: asked });
  });
});
