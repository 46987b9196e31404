/**
 * Permissions and object scopes are kept across requests (the auth bench's target, issue 13), but
 * a change in this process counts on the very next request: a kept answer is used only while the
 * collections it was read from have had no write (Store.writeGeneration, Store.writeCounter).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { C } from '../auth';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';
import { call } from '../testing';

let f: IdentityFixture;
beforeAll(async () => {
  f = await identityFixture();
});
afterAll(() => f.close());

describe('kept permissions', () => {
  it('count a role granted or taken away on the next request', async () => {
    const token = await f.login('entry');
    const roles = () => call(f.platform.app, 'GET', '/api/access/roles', { token });
    // Twice: the second answer comes from the kept grants.
    expect((await roles()).status).toBe(403);
    expect((await roles()).status).toBe(403);

    const tenantId = (
      (await call(f.platform.app, 'GET', '/api/auth/me', { token })).body.data as {
        tenant: { tenantId: string };
      }
    ).tenant.tenantId;
    const handle = f.platform.deps.store.tenant(tenantId, { userId: 'system:test' });
    const role = await handle.collection(C.roles).insertOne({
      name: 'Role viewer',
      type: 'business',
      identifier: 'keptGrantsRoleViewer',
      permissions: ['authoritymanagement:userAccountManagement:roleView'],
    });
    const user = (await handle.collection<{ roleIds: string[] }>(C.users).findOne({ account: 'entry' }))!;
    await handle
      .collection(C.users)
      .updateOne({ _id: user._id }, { $set: { roleIds: [...user.roleIds, role._id] } });
    expect((await roles()).status).toBe(200);
    expect((await roles()).status).toBe(200);

    await handle.collection(C.users).updateOne({ _id: user._id }, { $set: { roleIds: user.roleIds } });
    expect((await roles()).status).toBe(403);
  });

  it('are counted per collection by the store', async () => {
    const store = f.platform.deps.store;
    const before = store.writeGeneration(C.roles);
    const other = store.writeGeneration(C.users);
    // One counter for a set of collections (the same whatever their order), bumped by a write to any.
    const rolesOrUsers = store.writeCounter([C.roles, C.users]);
    expect(store.writeCounter([C.users, C.roles])).toBe(rolesOrUsers);
    const usersOnly = store.writeCounter([C.users]);
    const counted = rolesOrUsers.count;
    const usersCounted = usersOnly.count;
    const handle = store.tenant('t-kept', { userId: 'system:test' });
    await handle
      .collection(C.roles)
      .insertOne({ name: 'x', type: 'business', identifier: 'x', permissions: [] });
    expect(store.writeGeneration(C.roles)).toBeGreaterThan(before);
    expect(store.writeGeneration(C.users)).toBe(other);
    expect(rolesOrUsers.count).toBeGreaterThan(counted);
    expect(usersOnly.count).toBe(usersCounted);
  });
});
