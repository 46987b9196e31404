/**
 * Tenant names (GET /api/names?tenantIds[]=...): an operator's lists name tenants by code and
 * name; a tenant's own user reads no tenant names, not even its own tenant's id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../testing';
import { identityFixture } from '../auth/testing';
import type { IdentityFixture } from '../auth/testing';
import { C } from '../auth';
import { namesModule } from '.';

let f: IdentityFixture;
beforeAll(async () => {
  f = await identityFixture([namesModule]);
});
afterAll(() => f.close());

const tenantNames = async (token: string, ids: string[]) => {
  const query = ids.map((id) => `tenantIds[]=${encodeURIComponent(id)}`).join('&');
  const answer = await call(f.platform.app, 'GET', `/api/names?${query}`, { token });
  expect(answer.body.code).toBe(200);
  return (answer.body.data as { tenant: Record<string, { code?: string; name: string }> }).tenant;
};

describe('tenant names', () => {
  it('names tenants to an operator only', async () => {
    const tenants = await f.platform.deps.store
      .platform({ userId: 'system:test' })
      .collection<{ code: string; name: string }>(C.tenants)
      .find({});
    expect(tenants.length).toBeGreaterThan(0);
    const ids = [...tenants.map((t) => t._id), 'no-such-tenant'];
    const operator = await tenantNames(await f.login('operator'), ids);
    expect(Object.keys(operator).sort()).toEqual(tenants.map((t) => t._id).sort());
    for (const t of tenants) expect(operator[t._id]).toMatchObject({ code: t.code, name: t.name });
    const user = await tenantNames(await f.login('demoadmin'), ids);
    expect(user).toEqual({});
  });
});
