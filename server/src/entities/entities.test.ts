/**
 * Entity schemas are the single source of request bodies: each file of schemas/entities (but the
 * shared formats) is read by some route of the running server, seen in the OpenAPI document as the
 * `x-entity` its body was derived from. A schema no route reads is a second copy waiting to drift.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modules } from '../modules';
import { testPlatform } from '../testing';
import { testStore } from '../http/test-store';
import { entityFiles, entityFormat, entityNames, loadEntity, pickBody } from './schema';

type OpenApi = {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
};

/** Entity file names the document's request bodies were derived from. */
function entitiesInBodies(doc: OpenApi): Set<string> {
  const found = new Set<string>();
  for (const operations of Object.values(doc.paths))
    for (const operation of Object.values(operations)) {
      const schema = operation.requestBody?.content['application/json']?.schema as
        Record<string, unknown> | undefined;
      const entity = schema?.['x-entity'];
      if (typeof entity === 'string') found.add(entity.split('#')[0]!);
    }
  return found;
}

function unread(doc: OpenApi, names: string[]): string[] {
  const read = entitiesInBodies(doc);
  return names.filter((name) => !read.has(name));
}

describe('entity schemas and the routes', () => {
  let store: Awaited<ReturnType<typeof testStore>>;
  let doc: OpenApi;

  beforeAll(async () => {
    store = await testStore();
    const res = await testPlatform({ store, modules }).app.request('/api/openapi.json');
    doc = (await res.json()) as OpenApi;
  });
  afterAll(() => store.close());

  it('every entity schema is read by a route (its body is derived from it)', () => {
    expect(entityNames().length).toBeGreaterThanOrEqual(20);
    expect(unread(doc, entityNames())).toEqual([]);
  });

  it('the identity entities validate their routes’ bodies', () => {
    const read = entitiesInBodies(doc);
    for (const name of ['organisation', 'receiver', 'role', 'tenant', 'user', 'company', 'operator-user'])
      expect(read.has(name), name).toBe(true);
    const body = (path: string, method: string) =>
      doc.paths[path]?.[method]?.requestBody?.content['application/json']?.schema as Record<string, unknown>;
    expect(body('/api/users', 'post')['x-entity']).toBe('user');
    expect(body('/api/tenancy/organisations/{organisationId}', 'put')['x-entity']).toBe('organisation');
    expect(body('/api/tenancy/operator/tenants/{tenantId}/decision', 'post')['x-entity']).toBe(
      'tenant#/$defs/decision',
    );
  });

  it('the identity routes take the entity’s whole body (the generic CRUD), not a pick of it', () => {
    const body = (path: string, method: string) =>
      doc.paths[path]?.[method]?.requestBody?.content['application/json']?.schema as {
        'x-entity': string;
        required: string[];
        properties: Record<string, unknown>;
      };
    const writable = (name: string, options: { edit?: boolean } = {}) =>
      Object.entries(loadEntity(name).properties)
        .filter(([, p]) => p.readOnly !== true)
        .filter(([, p]) => !(options.edit && (p['x-ui'] as { createOnly?: boolean })?.createOnly))
        .map(([key]) => key)
        .concat(options.edit ? ['rev'] : [])
        .sort();
    const cases: [string, string, string, { edit?: boolean }][] = [
      ['/api/exports/receivers', 'post', 'receiver', {}],
      ['/api/exports/receivers/{receiverId}', 'put', 'receiver', { edit: true }],
      ['/api/tenancy/organisations', 'post', 'organisation', {}],
      ['/api/tenancy/organisations/{organisationId}', 'put', 'organisation', { edit: true }],
      ['/api/access/roles', 'post', 'role', {}],
      ['/api/access/roles/{roleId}', 'put', 'role', { edit: true }],
      ['/api/access/operator/roles', 'post', 'role#/$defs/operator', {}],
      ['/api/access/operator/roles/{roleId}', 'put', 'role#/$defs/operator', { edit: true }],
      ['/api/users', 'post', 'user', {}],
      ['/api/users/{userId}', 'put', 'user', { edit: true }],
      ['/api/tenancy/operator/tenants', 'post', 'tenant#/$defs/create', {}],
      ['/api/tenancy/operator/tenants/{tenantId}', 'put', 'tenant#/$defs/settings', { edit: true }],
    ];
    for (const [path, method, entity, options] of cases) {
      const schema = body(path, method);
      expect(schema['x-entity'], `${method} ${path}`).toBe(entity);
      expect(Object.keys(schema.properties).sort(), `${method} ${path}`).toEqual(writable(entity, options));
    }
    // A user's account is fixed at creation: an edit's body does not take it.
    expect(body('/api/users/{userId}', 'put').properties).not.toHaveProperty('account');
    // The public registration: tenant.json's registration view plus the route's password and captcha.
    const registration = body('/api/tenancy/registrations', 'post');
    expect(registration['x-entity']).toBe('tenant#/$defs/registration');
    expect(registration.properties.account).toEqual(body('/api/users', 'post').properties.account);
    expect((registration.properties.phone as { pattern: string }).pattern).toBe(
      entityFormat('phone').pattern,
    );
    expect((registration.properties.email as { pattern: string }).pattern).toBe(
      entityFormat('email').pattern,
    );
  });

  it('reports an entity schema that no route reads', () => {
    expect(unread(doc, [...entityNames(), 'planted-entity'])).toEqual(['planted-entity']);
  });

  it('derives a body from the entity’s own declaration, with the shared formats inlined', () => {
    const body = pickBody(loadEntity('user'), ['account', 'phone'], { rev: true });
    expect(body.required).toEqual(['account', 'rev']);
    expect(body.additionalProperties).toBe(false);
    expect((body.properties.phone as { pattern: string }).pattern).toBe(entityFormat('phone').pattern);
    expect(body.properties.account).toMatchObject({
      maxLength: 64,
      pattern: entityFormat('account').pattern,
    });
  });

  it('a property naming a shared format only annotates or narrows it (the inlined rule is the format’s)', () => {
    const formats = entityFiles().formats!.$defs as Record<string, Record<string, unknown>>;
    const problems: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (!node || typeof node !== 'object') return;
      const { $ref, ...siblings } = node as Record<string, unknown>;
      const format =
        typeof $ref === 'string' && $ref.startsWith('formats.json#/$defs/')
          ? formats[$ref.slice(20)]
          : undefined;
      if (typeof $ref === 'string' && $ref.startsWith('formats.json') && !format)
        problems.push(`${where}: ${$ref} unknown`);
      if (format)
        for (const [key, value] of Object.entries(siblings)) {
          const narrows =
            key.startsWith('x-') ||
            ['readOnly', 'description', 'default'].includes(key) ||
            (key === 'minLength' && typeof value === 'number') ||
            (key === 'maxLength' &&
              typeof value === 'number' &&
              value <= ((format.maxLength as number) ?? Infinity)) ||
            (key === 'type' && format.type === undefined);
          if (!narrows) problems.push(`${where}: ${key} beside ${$ref}`);
        }
      for (const [key, child] of Object.entries(node)) walk(child, `${where}/${key}`);
    };
    for (const name of entityNames()) walk(entityFiles()[name], name);
    expect(problems).toEqual([]);
    // The check itself: a sibling that loosens the format is reported.
    const before = problems.length;
    walk({ phone: { $ref: 'formats.json#/$defs/phone', maxLength: 100, pattern: '.*' } }, 'planted');
    expect(problems.slice(before)).toEqual([
      'planted/phone: maxLength beside formats.json#/$defs/phone',
      'planted/phone: pattern beside formats.json#/$defs/phone',
    ]);
  });
});
