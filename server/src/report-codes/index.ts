/**
 * Report-code generators and counters per tenant and project (`/api/report-codes`), the
 * administration of /authoritymanagement/codeManagement. Cases take codes through `nextReportCode`.
 */
// The public surface first: other modules read these while this module's routes may still be loading.
export { nextReportCode, generatorFor, RC as reportCodeCollections } from './service';
export type { StoredGenerator, Counter } from './service';
export { RC } from './service';

import { callerOf, tenantHandle } from '../http';
import { errors } from '../http';
import { defineModule } from '../http';
import type { ModuleRouter, ObjectResolver, RouteObject } from '../http';
import type { JsonSchema } from '../http';
import type { CollectionDefinition, StoredDoc } from '../store';
import type { Counter, StoredGenerator } from './service';
import { assertGenerator, previewReportCode, RC } from './service';
import { loadEntity, pickBody } from '../entities';

const collections: CollectionDefinition[] = [
  { name: RC.generators, scope: 'tenant', audited: true, indexes: [{ fields: { projectId: 1 } }] },
  {
    name: RC.counters,
    scope: 'tenant',
    audited: true,
    indexes: [{ name: 'period', fields: { generatorId: 1, period: 1 }, unique: true }],
  },
];

// Bodies are schemas/entities/report-code-generator.json's declaration (the form renders the same
// one); each field names the message of the check (assertGenerator) it would otherwise fail.
const generatorEntity = loadEntity('report-code-generator');
const GENERATOR_FIELDS = Object.keys(generatorEntity.properties);
const idParams: JsonSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 64 } },
};

const LIST = 'authoritymanagement:codeManagement';
const ADD = 'authoritymanagement:codeManagement:add';
const EDIT = 'authoritymanagement:codeManagement:edit';

/**
 * A generator is its project's (projectId null: the tenant's, for its tenant-wide roles): routes
 * naming one check their permission there, whatever the projectId header says.
 */
const GENERATOR_OBJECT: RouteObject = { param: 'id', kind: 'report-code-generator' };
const generatorObject: ObjectResolver = {
  notFound: 'reportCodes.notFound',
  async scopeOf(handle, id) {
    const found = await handle
      .collection<StoredGenerator>(RC.generators)
      .findOne({ _id: id }, { projection: { projectId: 1 } });
    return found ? { projectId: found.projectId ?? null, membership: 'optional' } : null;
  },
};

const view = (doc: StoredDoc<StoredGenerator>) => {
  const { tenantId: _t, createdBy: _cb, updatedBy: _ub, _id, ...rest } = doc;
  return { id: _id, ...rest };
};

function routes(router: ModuleRouter): void {
  router.route<unknown, { projectId?: string }>(
    {
      method: 'get',
      path: '/generators',
      summary: "The tenant's report-code generators (optionally one project's)",
      permission: LIST,
      query: { type: 'object', properties: { projectId: { type: 'string', maxLength: 64 } } },
    },
    async (c, { query }) => {
      const caller = callerOf(c);
      // Each generator is listed in its own project's right (the tenant's roles for tenant-wide
      // ones), never the projectId header's: another project's generators stay out.
      const mayRead = new Map<string | null, Promise<boolean>>();
      const allowed = (projectId: string | null) => {
        let verdict = mayRead.get(projectId);
        if (!verdict) {
          verdict = caller.authorize(LIST, { projectId, membership: 'optional' });
          mayRead.set(projectId, verdict);
        }
        return verdict;
      };
      if (query.projectId && !(await allowed(query.projectId))) throw errors.forbidden();
      const filter = query.projectId ? { projectId: query.projectId } : {};
      const docs = await tenantHandle(c)
        .collection<StoredGenerator>(RC.generators)
        .find(filter, { sort: { name: 1 } });
      const visible: typeof docs = [];
      for (const doc of docs) if (await allowed(doc.projectId ?? null)) visible.push(doc);
      return { items: visible.map(view) };
    },
  );

  router.route<StoredGenerator>(
    {
      method: 'post',
      path: '/generators',
      summary:
        'Adds a generator: country code, company or regulator name, cycle, length, start value (one enabled per project)',
      permission: ADD,
      bodyProject: { property: 'projectId', permission: ADD, membership: 'optional' },
      body: pickBody(generatorEntity, GENERATOR_FIELDS),
    },
    async (c, { body }) => {
      // Added in the project it names (bodyProject) or, without one, the tenant's: never in the
      // projectId header's project.
      const tenantWide = { projectId: null, membership: 'optional' } as const;
      if (!body.projectId && !(await callerOf(c).authorize(ADD, tenantWide))) throw errors.forbidden();
      const generator: StoredGenerator = {
        ...body,
        projectId: body.projectId ?? null,
        utcOffsetMinutes: body.utcOffsetMinutes ?? 480,
        enabled: body.enabled ?? true,
      };
      assertGenerator(generator);
      const generators = tenantHandle(c).collection<StoredGenerator>(RC.generators);
      if (generator.enabled && (await generators.count({ projectId: generator.projectId, enabled: true }))) {
        throw errors.badRequest('reportCodes.projectHasGenerator');
      }
      return view(await generators.insertOne(generator));
    },
  );

  router.route<Partial<StoredGenerator> & { rev: number }, Record<string, unknown>, { id: string }>(
    {
      method: 'put',
      path: '/generators/:id',
      object: GENERATOR_OBJECT,
      summary:
        'Edits a generator from the revision read; counters keep their values; it stays in its project',
      permission: EDIT,
      bodyProject: { property: 'projectId', permission: EDIT, membership: 'optional' },
      params: idParams,
      // An edit may send only the fields it changes.
      body: pickBody(generatorEntity, GENERATOR_FIELDS, {
        required: ['rev'],
        extra: { rev: { type: 'integer', minimum: 1 } },
      }),
    },
    async (c, { params, body }) => {
      const generators = tenantHandle(c).collection<StoredGenerator>(RC.generators);
      const current = await generators.findOne({ _id: params.id });
      if (!current) throw errors.notFound('reportCodes.notFound');
      const { rev, ...changes } = body;
      // Its codes and counters are its project's: moving it would hand them to another project.
      if (changes.projectId !== undefined && (changes.projectId ?? null) !== (current.projectId ?? null))
        throw errors.badRequest('reportCodes.projectFixed');
      const next = { ...current, ...changes };
      assertGenerator(next);
      const updated = await generators.updateOne({ _id: params.id }, { $set: changes }, { expectedRev: rev });
      return view(updated!);
    },
  );

  router.route<unknown, Record<string, unknown>, { id: string }>(
    {
      method: 'delete',
      path: '/generators/:id',
      object: GENERATOR_OBJECT,
      summary: 'Deletes a generator that never issued a code (disable one that did)',
      permission: 'authoritymanagement:codeManagement:delete',
      params: idParams,
    },
    async (c, { params }) => {
      const handle = tenantHandle(c);
      if (await handle.collection<Counter>(RC.counters).count({ generatorId: params.id })) {
        throw errors.badRequest('reportCodes.inUse');
      }
      if (!(await handle.collection(RC.generators).deleteOne({ _id: params.id })))
        throw errors.notFound('reportCodes.notFound');
      return null;
    },
  );

  router.route<unknown, Record<string, unknown>, { id: string }>(
    {
      method: 'get',
      path: '/generators/:id/counters',
      object: GENERATOR_OBJECT,
      summary:
        "A generator's counters, one per period, with the last value issued and the code the next case gets",
      permission: 'authoritymanagement:codeManagement',
      params: idParams,
    },
    async (c, { params }) => {
      const handle = tenantHandle(c);
      const generator = await handle.collection<StoredGenerator>(RC.generators).findOne({ _id: params.id });
      if (!generator) throw errors.notFound('reportCodes.notFound');
      const counters = await handle
        .collection<Counter>(RC.counters)
        .find({ generatorId: params.id }, { sort: { period: -1 } });
      return {
        next: await previewReportCode(handle, generator, c.get('deps').clock.now()),
        items: counters.map((counter) => ({
          period: counter.period,
          value: counter.value,
          updatedAt: counter.updatedAt,
        })),
      };
    },
  );
}

export const reportCodesModule = defineModule({
  name: 'report-codes',
  dependsOn: [],
  collections,
  objects: { [GENERATOR_OBJECT.kind]: generatorObject },
  routes,
});
