/**
 * Routes of pooled analysis (`/api/analytics`). No route names one object: each counts over the
 * caller's projects holding the page's permission (service.ts); a project named in the filters
 * outside them is refused.
 */
import type { SignalThresholds } from '@pv/engine';
import { taskViewSchema } from '../downloads';
import { loadEntity, pickBody } from '../entities';
import { callerOf } from '../http';
import type { JsonSchema, ModuleDeps, ModuleRouter } from '../http';
import { listScope } from '../cases';
import { runEventCounts, runEventDetails } from './events';
import { ageStratumOptions } from './clauses';
import type { EventTreeQuery } from './events';
import { PERMISSIONS, runPivot, runSignals, runStatistic, statisticDeclarations } from './service';
import type { AnalyticsQuery } from './service';
import { exportRoutes } from './export';
import { VIEW_FIELDS } from './requests';
import type { ExportBody } from './export';
import { saveSignalThresholds, signalThresholds, THRESHOLD_FIELDS } from './thresholds';

/** The tenant configuration page (SPEC 2, /authoritymanagement/sysTenantConfig) and its edit button. */
const TENANT_CONFIG = 'authoritymanagement:sysTenantConfig';

const words = (max: number): JsonSchema => ({
  type: 'array',
  maxItems: max,
  uniqueItems: true,
  items: { type: 'string', minLength: 1, maxLength: 128 },
});
const day: JsonSchema = { type: 'string', pattern: '^[0-9]{8}$' };

const filtersSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    projectIds: words(100),
    received: { type: 'object', additionalProperties: false, properties: { from: day, to: day } },
    reportType: words(10),
    serious: { type: 'array', maxItems: 2, uniqueItems: true, items: { type: 'boolean' } },
    country: words(300),
    sex: words(5),
    product: words(50),
    ageStratum: {
      type: 'array',
      maxItems: 50,
      uniqueItems: true,
      items: {
        type: 'string',
        pattern: '^([0-9]+(\\.[0-9]+)?-([0-9]+(\\.[0-9]+)?)?|D\\.2\\.3:[0-9A-Za-z]{1,8})$',
      },
    },
    onset: { type: 'object', additionalProperties: false, properties: { from: day, to: day } },
  },
};

const queryProperties = {
  filters: filtersSchema,
  includeInvalid: { type: 'boolean' },
};

export function analyticsRoutes(router: ModuleRouter, deps: ModuleDeps): void {
  router.route(
    {
      method: 'get',
      path: '/declarations',
      summary:
        'The declared statistics, dimensions and filters of pooled analysis (schemas/analytics) with their zh/en labels, for the screens',
      permission: PERMISSIONS.summary,
    },
    async (c) => {
      const caller = callerOf(c);
      const projects = await listScope(caller, PERMISSIONS.summary);
      return statisticDeclarations({ ageStratum: await ageStratumOptions(caller.tenant, projects) });
    },
  );

  router.route<AnalyticsQuery & { statisticId: string }>(
    {
      method: 'post',
      path: '/statistic',
      summary:
        "One declared statistic (schemas/analytics/statistics.json): cases counted in the store by its dimensions over the caller's projects, valid cases unless includeInvalid, blinded drug names as BLINDED without the unblinded view",
      permission: PERMISSIONS.summary,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['statisticId'],
        properties: { ...VIEW_FIELDS.statistic, ...queryProperties },
      },
    },
    async (c, { body }) => runStatistic(callerOf(c), body.statisticId, body),
  );

  // Excel, Word and PDF of every table and chart: one route per source, declared in export.ts.
  for (const route of exportRoutes(queryProperties))
    router.route<ExportBody>(
      {
        method: 'post',
        path: route.path,
        summary: route.summary,
        permission: route.permission,
        body: route.body,
        response: taskViewSchema,
      },
      async (c, { body }) => route.start(callerOf(c), deps, body),
    );

  router.route<AnalyticsQuery & { dimensions: string[] }>(
    {
      method: 'post',
      path: '/pivot',
      summary:
        "Cross-tabulation of one to three declared dimensions (schemas/analytics/dimensions.json): cases per combination, counted in the store over the caller's projects",
      permission: PERMISSIONS.pivot,
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['dimensions'],
        properties: { ...VIEW_FIELDS.pivot, ...queryProperties },
      },
    },
    async (c, { body }) => runPivot(callerOf(c), body.dimensions, body),
  );

  router.route<AnalyticsQuery & { by?: 'pt' | 'soc'; minCases?: number }>(
    {
      method: 'post',
      path: '/signals',
      summary:
        "The signal table: each suspect drug x PT (or SOC) pair's a, b, c, d counted per case in the store over the caller's projects, with PRR and chi-square, ROR with its 95% interval, IC with IC025 and the flags by the tenant's thresholds (GET /analytics/thresholds; by default the published ones: Evans 2001, ROR025 > 1, IC025 > 0)",
      permission: PERMISSIONS.eventLevel,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: { ...VIEW_FIELDS.signals, ...queryProperties },
      },
    },
    async (c, { body }) => runSignals(callerOf(c), body.by ?? 'pt', body, body.minCases ?? 1),
  );

  router.route(
    {
      method: 'get',
      path: '/thresholds',
      summary:
        "The caller's tenant's signal thresholds (schemas/entities/signal-thresholds.json; the declared defaults until saved) and the revision a save names (null: never saved)",
      permission: TENANT_CONFIG,
    },
    async (c) => signalThresholds(callerOf(c)),
  );

  router.route<SignalThresholds & { rev: number | null }>(
    {
      method: 'put',
      path: '/thresholds',
      summary:
        "Set the tenant's signal thresholds (every field required); rev is the one GET answered (null the first time), a stale one is refused (409)",
      permission: `${TENANT_CONFIG}:edit`,
      body: pickBody(loadEntity('signal-thresholds'), THRESHOLD_FIELDS, {
        extra: { rev: { type: ['integer', 'null'] } },
        required: [...THRESHOLD_FIELDS, 'rev'],
      }),
    },
    async (c, { body }) => saveSignalThresholds(callerOf(c), body),
  );

  const eventsBody: JsonSchema = {
    type: 'object',
    additionalProperties: false,
    properties: { ...VIEW_FIELDS.events, ...queryProperties },
  };
  router.route<EventTreeQuery>(
    {
      method: 'post',
      path: '/events',
      summary:
        "The event-level tree: cases per MedDRA SOC, HLGT, HLT, PT and LLT (each reaction's PT on its primary path in the release most counted reactions were coded with), each node's serious and non-serious cases and its case list link, counted in the store over the caller's projects under the statistics' filters; with `suspect`, only cases where that product (G.k.2.2) is a suspect or interacting drug",
      permission: PERMISSIONS.eventLevel,
      body: eventsBody,
    },
    async (c, { body }) => runEventCounts(callerOf(c), deps.store, body),
  );

  router.route<EventTreeQuery>(
    {
      method: 'post',
      path: '/events/details',
      summary:
        "The event-level tree's details for the same request: each node's events by outcome (E.i.7) and time to onset (days from each suspect drug's first dose G.k.4.r.4 to the reaction's start E.i.4: median, quartiles, pairs with partial dates or before the first dose), by the node's codes, and the suspect products of the counted cases, counted in the store",
      permission: PERMISSIONS.eventLevel,
      body: eventsBody,
    },
    async (c, { body }) => runEventDetails(callerOf(c), deps.store, body),
  );
}
