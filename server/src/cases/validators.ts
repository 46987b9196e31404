/**
 * The case check in the browser (DESIGN 4, issue 14 item 6): the AJV standalone module of the
 * configuration a case is checked with, and that configuration's declared rule set, both served
 * under the configuration's hash so that the browser runs exactly the server's check.
 *
 * - `GET /cases/:caseId/validators[?environment=UAT]` (a member of the case's project; UAT: the
 *   configurator too) answers the hash and the two URLs.
 * - `GET /cases/validators/:hash?tenant&project&ticket` is the ES module (validators bundled with
 *   the format checks they use, minified); `.../:hash/rules` the resolved configuration (schemas,
 *   code lists, rule sets) the engine's rules run from. Both never change for a hash:
 *   `Cache-Control: public, max-age=31536000, immutable`.
 *
 * The browser loads the module with `import()`, which sends no Authorization header; the URLs carry
 * a ticket instead (HMAC of tenant, project and hash under a key of this process), handed out only
 * by the member-checked route. An unknown hash, or one this process has not offered, answers 404.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ResolvedConfiguration } from '@pv/engine';
import { callerOf, requirePrincipal, tenantHandle } from '../http';
import { errors } from '../http';
import { ok } from '../http';
import type { JsonSchema } from '../http';
import type { ModuleRouter } from '../http';
import { callerMay } from '../http';
import { CASE_OBJECT, caseScope, requireCaseAccess } from './membership';
import { configurationFor } from './validation';
import { bundleValidatorsModule } from './validators-module';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Who may try a project's UAT configuration drafts (as the check route). */
const CONFIGURATOR_PERMISSION = 'authoritymanagement:projectInfo:config';
const SERVED_LIMIT = 50;

const key = randomBytes(32);

/** The ticket of one configuration for one tenant's project. */
export function validatorsTicket(tenantId: string, projectId: string, hash: string): string {
  return createHmac('sha256', key).update(`${tenantId}\u0000${projectId}\u0000${hash}`).digest('base64url');
}

function ticketValid(tenantId: string, projectId: string, hash: string, ticket: string): boolean {
  const expected = Buffer.from(validatorsTicket(tenantId, projectId, hash));
  const given = Buffer.from(ticket);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

interface Served {
  configuration: ResolvedConfiguration;
  module?: Promise<string>;
}

/** Configurations offered to a browser, by hash (content-addressed: tenants may share one). */
const served = new Map<string, Served>();

function offer(configuration: ResolvedConfiguration): void {
  const hit = served.get(configuration.hash);
  served.delete(configuration.hash);
  served.set(configuration.hash, hit ?? { configuration });
  if (served.size > SERVED_LIMIT) served.delete(served.keys().next().value!);
}

/** The browser module of a configuration (validators-module.ts), generated once per hash. */
export function validatorsModule(configuration: ResolvedConfiguration): Promise<string> {
  let entry = served.get(configuration.hash);
  if (!entry) {
    offer(configuration);
    entry = served.get(configuration.hash)!;
  }
  entry.module ??= bundleValidatorsModule(configuration).catch((error: unknown) => {
    // A failed build is not kept: the next request tries again.
    delete served.get(configuration.hash)?.module;
    throw error;
  });
  return entry.module;
}

const ticketQuery: JsonSchema = {
  type: 'object',
  required: ['tenant', 'project', 'ticket'],
  additionalProperties: false,
  properties: {
    tenant: { type: 'string', minLength: 1, maxLength: 64 },
    project: { type: 'string', minLength: 1, maxLength: 64 },
    ticket: { type: 'string', minLength: 1, maxLength: 64 },
  },
};
const hashParams: JsonSchema = {
  type: 'object',
  required: ['hash'],
  properties: { hash: { type: 'string', pattern: '^[0-9a-f]{8,128}$' } },
};

type TicketQuery = { tenant: string; project: string; ticket: string };

/** The offered configuration of a ticket; 404 for an unknown hash or a ticket that does not match. */
function ticketed(hash: string, query: TicketQuery): ResolvedConfiguration {
  const entry = served.get(hash);
  if (!entry || !ticketValid(query.tenant, query.project, hash, query.ticket))
    throw errors.notFound('cases.validatorsNotFound', { hash });
  return entry.configuration;
}

export interface ValidatorsAnswer {
  environment: 'UAT' | 'PRO';
  configurationVersion: number;
  configurationHash: string;
  /** The ES module (same origin, for `import()`). */
  module: string;
  /** The resolved configuration whose rules the engine runs (JSON envelope). */
  rules: string;
}

export function validatorRoutes(router: ModuleRouter): void {
  router.route<unknown, { environment?: 'UAT' | 'PRO' }, { caseId: string }>(
    {
      method: 'get',
      path: '/:caseId/validators',
      object: CASE_OBJECT,
      summary:
        "Where the browser loads the case's check: the AJV standalone module and the rule set of the configuration the case is checked with (its project's PRO version, or with `environment=UAT` the project's drafts, configurators only), under the configuration's hash",
      permission: 'activecase',
      params: {
        type: 'object',
        required: ['caseId'],
        properties: { caseId: { type: 'string', minLength: 1, maxLength: 64 } },
      },
      query: { type: 'object', properties: { environment: { enum: ['UAT', 'PRO'] } } },
    },
    async (c, { params, query }): Promise<ValidatorsAnswer> => {
      const environment = query.environment ?? 'PRO';
      const handle = tenantHandle(c);
      // As the check route: a member of the case's project (tenant administrators excepted).
      await requireCaseAccess(callerOf(c), params.caseId);
      const scope = await caseScope(handle, params.caseId);
      if (!scope) throw errors.notFound('cases.notFound', { id: params.caseId });
      if (environment === 'UAT' && !(await callerMay(c, CONFIGURATOR_PERMISSION, scope)))
        throw errors.forbidden('cases.uatCheckForbidden');
      const { configuration, version } = await configurationFor(handle, scope.projectId, environment);
      offer(configuration);
      const tenant = requirePrincipal(c).tenantId;
      const project = scope.projectId ?? '';
      const search = new URLSearchParams({
        tenant,
        project,
        ticket: validatorsTicket(tenant, project, configuration.hash),
      }).toString();
      const base = `/api/cases/validators/${configuration.hash}`;
      return {
        environment,
        configurationVersion: version,
        configurationHash: configuration.hash,
        module: `${base}?${search}`,
        rules: `${base}/rules?${search}`,
      };
    },
  );

  router.route<unknown, TicketQuery, { hash: string }>(
    {
      method: 'get',
      path: '/validators/:hash',
      auth: 'none',
      download: true,
      summary:
        'The AJV standalone validators of one configuration as an ES module (text/javascript), immutable; the ticket comes from GET /cases/:caseId/validators (import() sends no Authorization header)',
      params: hashParams,
      query: ticketQuery,
    },
    async (_c, { params, query }) => {
      const code = await validatorsModule(ticketed(params.hash, query));
      return new Response(code, {
        headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': IMMUTABLE },
      });
    },
  );

  router.route<unknown, TicketQuery, { hash: string }>(
    {
      method: 'get',
      path: '/validators/:hash/rules',
      auth: 'none',
      summary:
        'The resolved configuration of one hash (schemas, code lists, rule sets, custom and disabled rules): what the engine runs the rules from in the browser; immutable',
      params: hashParams,
      query: ticketQuery,
    },
    (c, { params, query }) => {
      const answer = ok(c, ticketed(params.hash, query));
      answer.headers.set('Cache-Control', IMMUTABLE);
      return answer;
    },
  );
}
