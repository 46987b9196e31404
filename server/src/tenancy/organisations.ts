/**
 * Organisations and institutions of a tenant, as a tree (SPEC 5, /authoritymanagement/organization).
 * Add, edit and delete are the generic entity CRUD over schemas/entities/organisation.json (the
 * form renders the same declaration), with the tree's own rules as hooks: the parent exists and a
 * node never becomes its own ancestor; a node with children or users is not deleted. The list is
 * the tree itself.
 */
import { callerOf, errors } from '../http';
import type { ModuleRouter } from '../http';
import type { Handle, StoredDoc } from '../store';
import { C } from '../auth';
import { entityRoutes } from '../entities';

export interface Organisation {
  name: string;
  nameEn?: string;
  kind: 'organisation' | 'institution';
  code?: string;
  parentId: string | null;
  order: number;
  contact?: string;
  phone?: string;
  address?: string;
}

const organisationsOf = (handle: Handle) => handle.collection<Organisation>(C.organisations);

export const organisationView = (o: StoredDoc<Organisation>) => ({
  organisationId: o._id,
  name: o.name,
  nameEn: o.nameEn ?? null,
  kind: o.kind,
  code: o.code ?? null,
  parentId: o.parentId,
  order: o.order,
  contact: o.contact ?? null,
  phone: o.phone ?? null,
  address: o.address ?? null,
  rev: o.rev,
});

/** Walks up from the parent: it must exist and the node must not become its own ancestor. */
async function assertParent(handle: Handle, parentId: string | null | undefined, selfId?: string) {
  if (!parentId) return;
  const organisations = organisationsOf(handle);
  let cursor: string | null = parentId;
  for (let depth = 0; cursor; depth++) {
    if (cursor === selfId || depth > 50) throw errors.badRequest('tenancy.organisationCycle');
    const found: StoredDoc<Organisation> | null = await organisations.findOne({ _id: cursor });
    if (!found) throw errors.badRequest('tenancy.organisationParentMissing');
    cursor = found.parentId;
  }
}

export function organisationRoutes(router: ModuleRouter): void {
  router.route(
    {
      method: 'get',
      path: '/organisations',
      summary: 'Organisations and institutions of the tenant as a tree (children nested)',
      permission: 'authoritymanagement:organization',
    },
    async (c) => {
      const all = (
        await organisationsOf(callerOf(c).tenant).find({}, { sort: { order: 1, name: 1 }, limit: 10000 })
      ).map(organisationView);
      type Node = ReturnType<typeof organisationView> & { children: Node[] };
      const nodes = new Map<string, Node>(all.map((o) => [o.organisationId, { ...o, children: [] }]));
      const roots: Node[] = [];
      for (const node of nodes.values()) {
        const parent = node.parentId ? nodes.get(node.parentId) : undefined;
        (parent ? parent.children : roots).push(node);
      }
      return roots;
    },
  );

  entityRoutes<Organisation>(router, {
    path: '/organisations',
    collection: C.organisations,
    scope: 'tenant',
    entity: 'organisation',
    permission: 'authoritymanagement:organization',
    operations: ['create', 'update', 'delete'],
    summaries: {
      create: 'Add an organisation or institution under a parent (or at the root)',
      update: 'Edit an organisation or institution (move it with parentId; the whole entry)',
      delete: 'Delete an organisation without children or users',
    },
    idParam: 'organisationId',
    deletion: 'hard',
    async prepare(input, { handle, id }) {
      await assertParent(handle, input.parentId, id);
      return { ...input, parentId: input.parentId ?? null };
    },
    async assertUnused(id, handle) {
      if (await organisationsOf(handle).count({ parentId: id }))
        throw errors.badRequest('tenancy.organisationHasChildren');
      if (await handle.collection(C.users).count({ organisationIds: id }))
        throw errors.badRequest('tenancy.organisationHasUsers');
    },
    view: organisationView,
  });
}
