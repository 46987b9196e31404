/**
 * What auth asks of access and tenancy (providers.ts): nothing is granted and no tenant is read
 * before they register; once registered, auth's calls reach theirs. This file imports neither
 * module, so the registrations seen here are the test's own.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ModuleDeps, Principal } from '../http';
import type { Store } from '../store';

// A fresh copy of providers.ts: the suite's workers share modules between files (vitest.config.ts),
// and an earlier file's app has registered access and tenancy in the shared one.
vi.resetModules();
const {
  assertTenantUsable,
  authorize,
  getTenant,
  grantsOf,
  purgeExpiredRegistrations,
  registerAuthorizer,
  registerTenantDirectory,
} = await import('./providers');

const deps = {} as ModuleDeps;
const store = {} as Store;
const principal: Principal = { userId: 'u1', tenantId: 't1' };

describe('auth providers', () => {
  it('grant nothing and read no tenant before access and tenancy register', async () => {
    expect(await authorize(deps, principal, 'activecase:add', { projectId: null })).toBe(false);
    expect(await grantsOf(deps, principal, 'p1')).toEqual({
      all: false,
      member: false,
      keys: new Set(),
      roleIdentifiers: [],
    });
    expect(() => getTenant(store, 't1')).toThrow(/tenancy module/);
    expect(() => assertTenantUsable(null, new Date(0))).toThrow(/tenancy module/);
  });

  it("reach the registered authorizer and tenant directory with the caller's arguments", async () => {
    const asked: string[] = [];
    registerAuthorizer({
      grantsOf: async (_deps, who, projectId) => {
        asked.push(`grants ${who.userId} ${projectId}`);
        return { all: false, member: true, keys: new Set(['activecase:add']), roleIdentifiers: ['r'] };
      },
      authorize: async (_deps, who, permission, context) => {
        asked.push(`authorize ${who.userId} ${permission} ${context.projectId}`);
        return permission === 'activecase:add';
      },
    });
    registerTenantDirectory({
      getTenant: async (_store, tenantId) => {
        asked.push(`tenant ${tenantId}`);
        return null;
      },
      assertTenantUsable: (tenant) => {
        if (!tenant) throw new Error('unknown tenant');
      },
      purgeExpiredRegistrations: async () => asked.push('purge'),
    });
    expect(await authorize(deps, principal, 'activecase:add', { projectId: 'p1' })).toBe(true);
    expect(await authorize(deps, principal, 'activecase:delete', { projectId: 'p1' })).toBe(false);
    expect((await grantsOf(deps, principal, 'p1')).member).toBe(true);
    expect(await getTenant(store, 't9')).toBeNull();
    expect(() => assertTenantUsable(null, new Date(0))).toThrow('unknown tenant');
    await purgeExpiredRegistrations({ store, clock: { now: () => new Date(0) } });
    expect(asked).toEqual([
      'authorize u1 activecase:add p1',
      'authorize u1 activecase:delete p1',
      'grants u1 p1',
      'tenant t9',
      'purge',
    ]);
  });
});
