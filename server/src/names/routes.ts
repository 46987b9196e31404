/** The route of display names (`GET /api/names`): a batch of ids per kind -> their names. */
import { callerOf } from '../http';
import type { JsonSchema, ModuleRouter } from '../http';
import { NAME_BATCH_MAX, NAME_KINDS, projectChoices, resolveNames, userChoices } from './service';
import type { NameKind, NameRequest } from './service';

/** The query property of a kind: `project` -> `projectIds`. */
export const kindParam = (kind: NameKind) => `${kind}Ids` as const;

const ids: JsonSchema = {
  type: 'array',
  maxItems: NAME_BATCH_MAX,
  items: { type: 'string', minLength: 1, maxLength: 128 },
};

export function nameRoutes(router: ModuleRouter): void {
  router.route<unknown, Partial<Record<string, string[]>>>(
    {
      method: 'get',
      path: '/names',
      summary:
        'Display names of a batch of ids per kind (projectIds, siteIds, drugIds, userIds, receiverIds, regulatorIds, organisationIds, tenantIds - operators only), only of what the caller may see',
      // No permission: every signed-in user reads names, each kind scoped to what the caller sees.
      query: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(NAME_KINDS.map((kind) => [kindParam(kind), ids])),
      },
    },
    async (c, { query }) => {
      const request: NameRequest = Object.fromEntries(
        NAME_KINDS.map((kind) => [kind, query[kindParam(kind)] ?? []]),
      );
      return resolveNames(callerOf(c), request);
    },
  );

  router.route(
    {
      method: 'get',
      path: '/names/projects',
      summary: 'The projects the caller works in with their study sites (project and site pickers), by code',
      // No permission: a member's own projects, as the case list already shows them.
    },
    async (c) => projectChoices(callerOf(c)),
  );

  router.route(
    {
      method: 'get',
      path: '/names/users',
      summary:
        "The users working in the caller's projects (every user of the tenant for its administrators), by name: a handler filter's picker",
      // No permission: the names a member already sees on the cases of their projects.
    },
    async (c) => userChoices(callerOf(c)),
  );
}
