/**
 * Must-hold: every API route of the platform (all modules of server/src/modules.ts) answers
 * 400001 without a token, and a tenant A caller holding every permission cannot read or change
 * tenant B's documents through any of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../app';
import type { JsonSchema } from '../http';
import type { StoredDoc } from '../store';
import { call, testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { C } from '../auth';
import { openSession } from '../auth';
import { createTenant } from '../tenancy';

const MARKER = 'TENANT-B-SECRET';
process.env.PV_LOGIN_CAPTCHA = 'off';
process.env.PV_DEMO_SEED = 'off';

let store: Awaited<ReturnType<typeof testStore>>;
let platform: Platform;
let tokenA = '';
/** Tenant B's ids by the parameter or field name that refers to them. */
const idsB: Record<string, string> = {};
let tenantB = '';

async function snapshotB(): Promise<string> {
  const maintenance = store.maintenance();
  const rows: StoredDoc[] = [];
  for (const definition of await maintenance.definitions()) {
    for await (const doc of maintenance.scan(definition.name)) {
      const text = JSON.stringify(doc);
      if (doc.tenantId === tenantB || (doc.tenantId === '_platform' && text.includes(tenantB)))
        rows.push(doc);
    }
  }
  return JSON.stringify(rows);
}

beforeAll(async () => {
  store = await testStore();
  const { modules } = await import('../modules');
  platform = testPlatform({ store, modules });
  await platform.ready();
  const options = { captcha: false, scryptCost: { N: 1024, r: 8, p: 1 }, demoSeed: false };
  const deps = platform.deps;
  const make = (code: string) =>
    createTenant(
      deps,
      options,
      {
        name: `Tenant ${code}`,
        code,
        status: 'active',
        expiresAt: null,
        limits: { projects: 5, sponsors: 5, users: 50 },
        contact: { name: 'Admin', email: `${code}@example.com` },
        admin: {
          account: `admin${code}`,
          name: `Admin ${code}`,
          email: `${code}@example.com`,
          password: 'Admin#2026x',
        },
      },
      'test',
    );
  const a = await make('ta');
  const b = await make('tb');
  tenantB = b._id;
  const session = (tenantId: string, accountId: string, account: string) =>
    openSession(deps, {
      accountId,
      account,
      name: account,
      sessionTenantId: tenantId,
      organisationId: null,
      operator: false,
      sessionMinutes: 60,
      mustChangePassword: false,
      ip: null,
      userAgent: null,
    });
  tokenA = (await session(a._id, a.enterpriseAdminId!, 'adminta')).token;
  const sessionB = await session(b._id, b.enterpriseAdminId!, 'admintb');
  const handle = store.tenant(b._id, { userId: b.enterpriseAdminId! });
  const org = await handle
    .collection(C.organisations)
    .insertOne({ name: MARKER, kind: 'institution', parentId: null, order: 1 });
  const role = await handle
    .collection(C.roles)
    .insertOne({ name: MARKER, type: 'business', identifier: 'secretRole', permissions: ['home'] });
  await handle.collection(C.projectMembers).insertOne({
    projectId: 'project-b',
    userId: b.enterpriseAdminId!,
    roleIds: [role._id],
    permissionKeys: [],
  });
  await handle.collection(C.company).insertOne({ _id: 'company', name: MARKER });
  await handle.collection(C.users).updateOne({ _id: b.enterpriseAdminId! }, { $set: { job: MARKER } });
  Object.assign(idsB, {
    tenant: b._id,
    user: b.enterpriseAdminId!,
    organisation: org._id,
    role: role._id,
    project: 'project-b',
    session: sessionB.session._id,
  });
});
afterAll(() => store.close());

/** Tenant B's id for a parameter or field name (`userId`, `roleIds` ...); other ids get `fallback`. */
function idFor(name: string, fallback: string): string {
  const kind = /^(tenant|user|organisation|role|project|session)/i.exec(name)?.[1]?.toLowerCase();
  return kind ? idsB[kind]! : fallback;
}

/** A body that satisfies the usual shape of a schema: required fields filled, ids pointing at tenant B. */
function sampleBody(schema: JsonSchema | undefined, name = '', id = ''): unknown {
  if (!schema || typeof schema !== 'object') return {};
  const s = schema as Record<string, unknown>;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (s.enum) return (s.enum as unknown[])[0];
  if (type === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    for (const key of (s.required as string[] | undefined) ?? [])
      out[key] = sampleBody(properties[key], key, id);
    return out;
  }
  if (type === 'array') return /ids$/i.test(name) ? [idFor(name, id)] : [];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (/id$/i.test(name)) return idFor(name, id);
  return 'Sample#2026x';
}

describe('every API route', () => {
  it('answers 400001 without a token unless it is public', async () => {
    const guarded = platform.routes.filter((r) => (r.declaration.auth ?? 'required') === 'required');
    expect(guarded.length).toBeGreaterThan(40);
    for (const route of guarded) {
      const path = route.path.replace(/:(\w+)/g, 'x');
      const res = await call(platform.app, route.declaration.method.toUpperCase(), path, {
        body: route.declaration.body ? {} : undefined,
      }).catch(async () => {
        const raw = await platform.app.request(path, { method: route.declaration.method.toUpperCase() });
        return { body: (await raw.json()) as { code: number } };
      });
      expect(res.body.code, `${route.declaration.method} ${route.path}`).toBe(400001);
    }
  });

  it(
    'refuses tenant A’s caller on tenant B’s resources and reads nothing of B',
    { timeout: 180_000 },
    async () => {
      const before = await snapshotB();
      const guarded = platform.routes.filter((r) => (r.declaration.auth ?? 'required') !== 'none');
      const query = `?userId=${idsB.user}&tenantId=${idsB.tenant}&organisationId=${idsB.organisation}&roleId=${idsB.role}&projectId=${idsB.project}&subjectId=${idsB.organisation}&size=200`;
      let calls = 0;
      for (const route of guarded) {
        // Named parameters get the B id of their kind; unknown ones (caseId, jobId ...) try each B id.
        const unknownParam = /:(?!tenant|user|organisation|role|project|session)\w+/i.test(route.path);
        for (const fallback of unknownParam ? Object.values(idsB) : [idsB.organisation!]) {
          const path = route.path.replace(/:(\w+)/g, (_m, name: string) => idFor(name, fallback));
          const method = route.declaration.method.toUpperCase();
          const res = await platform.app.request(`${path}${method === 'GET' ? query : ''}`, {
            method,
            headers: {
              authorization: `Bearer ${tokenA}`,
              'content-type': 'application/json',
              projectid: idsB.project!,
              sysorgid: idsB.organisation!,
            },
            body:
              method === 'GET' || method === 'DELETE'
                ? undefined
                : JSON.stringify(sampleBody(route.declaration.body, '', fallback)),
          });
          calls += 1;
          const text = await res.text();
          expect(text, `${method} ${route.path} with ${fallback}`).not.toContain(MARKER);
          if (res.headers.get('content-type')?.includes('json') && !route.declaration.download) {
            const body = JSON.parse(text) as { code: number; data: unknown };
            if (body.code === 200)
              expect(JSON.stringify(body.data), `${method} ${route.path}`).not.toContain(tenantB);
          }
        }
      }
      expect(calls).toBeGreaterThanOrEqual(guarded.length);
      expect(await snapshotB()).toBe(before);
    },
  );
});
