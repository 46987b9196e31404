/**
 * The case list: the tabs and the declared filters of schemas/ui/case-list.json over case
 * summaries, with sort and paging; and the selection other modules (export) resolve.
 */
import { caseListDefinition, codelists } from '@pv/engine';
import type { CaseListFilter } from '@pv/engine';
import { errors } from '../http';
import type { JsonSchema } from '../http';
import { cappedTotal, textMatch } from '../store';
import type { CappedTotal, Filter, Handle, SortSpec } from '../store';
import { C } from './collections';
import type { CaseSummary } from './summary';
import { isDay, nextDay, withinCondition } from './e2b-range';
import { filterPaths, pointerKey } from './summary';
import { currentTransmissionStatus } from './transmission';
import type { CaseTransmissionSummary } from './transmission';

export const TAB_IDS = caseListDefinition.tabs.map((tab) => tab.id);
export const FILTER_IDS = caseListDefinition.filters.map((filter) => filter.id);
export const SORTABLE_COLUMNS = caseListDefinition.columns
  .filter((column) => column.sortable)
  .map((column) => column.id);

/** Longest text a list filter takes (a contains filter, a code, an id). */
export const MAX_FILTER_TEXT = 200;
/** The most alternatives a list query's `any` holds. */
export const MAX_ALTERNATIVES = 20;
const SCALAR = { type: ['string', 'number', 'boolean', 'null'], maxLength: MAX_FILTER_TEXT } as const;
const DAY = { type: ['string', 'null'], maxLength: 10 } as const;
const NUMBER = { type: ['number', 'null'] } as const;

/** Code lists whose codes follow the project's configuration (workflow overrides): any text there. */
const CONFIGURED_CODELISTS = new Set(['workflowNode']);

/** A select filter's values: its code list's codes (completion also as booleans), or empty. */
function codeSchema(definition: CaseListFilter): JsonSchema | null {
  const list = definition.codelist ? codelists[definition.codelist] : undefined;
  if (!list || CONFIGURED_CODELISTS.has(definition.codelist!)) return null;
  const codes: unknown[] = list.values.map((entry) => entry.code);
  if (definition.codelist === 'completionState') codes.push(true, false);
  return { enum: [...codes, '', null] };
}

/**
 * The values a list filter accepts, by its operator: a scalar for eq, a scalar or a list of
 * them for in, text for contains, `{from, to}` days for between (empty values mean "no filter").
 * Objects appear nowhere else, so no query operator can travel in a filter value.
 */
export function filterValueSchema(definition: CaseListFilter): JsonSchema {
  const value = codeSchema(definition) ?? SCALAR;
  switch (definition.operator) {
    case 'eq':
    case 'anyEq':
      return value;
    case 'in':
      return { anyOf: [value, { type: 'array', maxItems: 500, items: value }] };
    case 'contains':
    case 'anyContains':
      return { type: ['string', 'null'], maxLength: MAX_FILTER_TEXT };
    case 'between':
    case 'anyWithin':
      return {
        anyOf: [
          { type: ['string', 'null'], maxLength: 0 },
          { type: 'object', additionalProperties: false, properties: { from: DAY, to: DAY } },
        ],
      };
    case 'range':
      return {
        anyOf: [
          { type: ['string', 'null'], maxLength: 0 },
          { type: 'object', additionalProperties: false, properties: { from: NUMBER, to: NUMBER } },
        ],
      };
  }
}

/** The body of a case list query (POST /cases/search and the routes that take "what the list shows"). */
export function caseListQuerySchema(options: { paged: boolean } = { paged: true }): JsonSchema {
  const filters: JsonSchema = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      caseListDefinition.filters.map((filter) => [filter.id, filterValueSchema(filter)]),
    ),
  };
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      tab: { enum: TAB_IDS },
      filters,
      any: { type: 'array', maxItems: MAX_ALTERNATIVES, items: filters },
      sort: {
        type: 'object',
        required: ['column'],
        additionalProperties: false,
        properties: { column: { enum: SORTABLE_COLUMNS }, direction: { enum: ['asc', 'desc'] } },
      },
      ...(options.paged
        ? { page: { type: 'integer', minimum: 1 }, size: { type: 'integer', minimum: 1, maximum: 200 } }
        : {}),
    },
  };
}

export interface CaseListQuery {
  tab?: string;
  /** Filter id -> value: text for contains, a value or list for in/eq, `{from, to}` for dates. */
  filters?: Record<string, unknown>;
  /**
   * Alternatives beside `filters`: a case matches when it matches every filter of one of them (a
   * pooled-analysis link under age groups of projects with different rules: each rule's projects
   * with their age range).
   */
  any?: Record<string, unknown>[];
  sort?: { column: string; direction?: 'asc' | 'desc' };
  page?: number;
  size?: number;
}

export interface CaseListRow {
  id: string;
  values: Record<string, unknown>;
  state: CaseSummary['state'];
  deadline: CaseSummary['deadline'];
}

/** `2026-11-01` or `20261101` -> `20261101`; anything else (20261341 too) refused. */
function e2bDay(value: unknown, filterId: string): string {
  const text = String(value ?? '').replace(/-/g, '');
  if (!isDay(text)) throw errors.badRequest('cases.badFilter', { filter: filterId });
  return text;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

/**
 * Fields the summary keeps verbatim in its indexed `state` too: read there (the validity filter of
 * every drill-down list reads `state.validity` through the summaries' index, not `v.state_validity`).
 */
const STATE_PATHS: Record<string, string> = { 'v.state_validity': 'state.validity' };

/** A `{from, to}` value of a range filter (between, anyWithin, range), else a translated 400. */
function rangeOf(definition: CaseListFilter, value: unknown): { from?: unknown; to?: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw errors.badRequest('cases.badFilter', { filter: definition.id });
  return value as { from?: unknown; to?: unknown };
}

/** The store filter of one list filter, or null when the value is empty. */
export function filterClause(definition: CaseListFilter, value: unknown): Filter | null {
  if (isEmpty(value)) return null;
  // Routes validate against filterValueSchema; a stored query (a download task) is checked here too.
  const scalar = (v: unknown) => v === null || typeof v !== 'object';
  const ranged = ['between', 'anyWithin', 'range'].includes(definition.operator);
  if (!ranged && !(Array.isArray(value) ? value : [value]).every(scalar))
    throw errors.badRequest('cases.badFilter', { filter: definition.id });
  const paths = filterPaths(definition).map((path) => STATE_PATHS[path] ?? path);
  const booleanCodes = definition.codelist === 'completionState';
  const coerce = (v: unknown) => (booleanCodes ? v === true || v === 'true' : v);
  const each = (clause: (path: string) => Filter): Filter =>
    paths.length === 1 ? clause(paths[0]!) : { $or: paths.map(clause) };
  switch (definition.operator) {
    case 'eq':
    case 'anyEq': {
      const target = definition.widget === 'number' ? Number(value) : coerce(value);
      if (definition.widget === 'number' && !Number.isFinite(target))
        throw errors.badRequest('cases.badFilter', { filter: definition.id });
      return each((path) => ({ [path]: target }));
    }
    case 'in': {
      const list = (Array.isArray(value) ? value : [value]).map(coerce);
      return each((path) => ({ [path]: { $in: list } }));
    }
    case 'contains':
    case 'anyContains': {
      if (typeof value !== 'string') throw errors.badRequest('cases.badFilter', { filter: definition.id });
      if (value.length > MAX_FILTER_TEXT)
        throw errors.badRequest('cases.badFilter', { filter: definition.id });
      const match = textMatch(value.trim());
      return each((path) => ({ [path]: match }));
    }
    case 'anyWithin': {
      // One value of the array in the range (not one value per bound), partial dates by their period.
      const range = rangeOf(definition, value);
      const bounds = {
        ...(isEmpty(range.from) ? {} : { from: e2bDay(range.from, definition.id) }),
        ...(isEmpty(range.to) ? {} : { to: e2bDay(range.to, definition.id) }),
      };
      if (!bounds.from && !bounds.to) return null;
      const { $gte, $lt, ...rest } = withinCondition(bounds);
      // The bounds alone first: a superset the embedded store reads in SQL (side table), so only
      // its matches go through the exact $elemMatch (which it cannot say in SQL).
      return each((path) => ({
        $and: [{ [path]: { $gte, $lt } }, { [path]: { $elemMatch: { $gte, $lt, ...rest } } }],
      }));
    }
    case 'range': {
      // A number from `from` (included) to `to` (excluded).
      const range = rangeOf(definition, value);
      const bounds: Record<string, number> = {};
      for (const [bound, operator] of [
        ['from', '$gte'],
        ['to', '$lt'],
      ] as const) {
        const v = range[bound];
        if (isEmpty(v)) continue;
        if (typeof v !== 'number' || !Number.isFinite(v))
          throw errors.badRequest('cases.badFilter', { filter: definition.id });
        bounds[operator] = v;
      }
      return Object.keys(bounds).length ? each((path) => ({ [path]: bounds })) : null;
    }
    case 'between': {
      const range = rangeOf(definition, value);
      const bounds: Record<string, string> = {};
      if (!isEmpty(range.from)) bounds.$gte = e2bDay(range.from, definition.id);
      if (!isEmpty(range.to)) bounds.$lt = nextDay(e2bDay(range.to, definition.id));
      return Object.keys(bounds).length ? each((path) => ({ [path]: bounds })) : null;
    }
  }
}

const VALIDITY_CODES = codelists.caseValidity!.values.map((value) => value.code);

/**
 * A tab filter as plain equalities and `$in`, which the store runs in SQL: `$ne` on a summary flag
 * (always a boolean there) or on the validity code becomes the values that remain.
 */
export function exactFilter(filter: Filter): Filter {
  const out: Filter = {};
  for (const [path, condition] of Object.entries(filter)) {
    const ne =
      condition !== null && typeof condition === 'object' ? (condition as { $ne?: unknown }).$ne : undefined;
    if (ne === undefined || Object.keys(condition as object).length !== 1) out[path] = condition;
    else if (typeof ne === 'boolean') out[path] = !ne;
    else if (path === 'state.validity') out[path] = { $in: VALIDITY_CODES.filter((code) => code !== ne) };
    else out[path] = condition;
  }
  return out;
}

/** The store clauses of a set of declared filters (an unknown id: translated 400). */
function filterClauses(filters: Record<string, unknown> | undefined): Filter[] {
  const clauses: Filter[] = [];
  for (const [id, value] of Object.entries(filters ?? {})) {
    const definition = caseListDefinition.filters.find((f) => f.id === id);
    if (!definition) throw errors.badRequest('cases.badFilter', { filter: id });
    const clause = filterClause(definition, value);
    if (clause) clauses.push(clause);
  }
  return clauses;
}

/** The store filter of a list query (tab, filters, and the caller's projects when the request names them). */
export function listFilter(query: CaseListQuery, projectIds: string[]): Filter {
  const tab = caseListDefinition.tabs.find((t) => t.id === (query.tab ?? 'all'));
  if (!tab) throw errors.badRequest('cases.badTab', { tab: String(query.tab) });
  const clauses: Filter[] = [exactFilter(tab.filter as Filter), ...filterClauses(query.filters)];
  if (query.any?.length) {
    if (query.any.length > MAX_ALTERNATIVES) throw errors.badRequest('cases.badFilter', { filter: 'any' });
    const alternatives = query.any.map((filters) => filterClauses(filters));
    // An alternative without a filter matches every case: then `any` narrows nothing.
    if (alternatives.every((one) => one.length))
      clauses.push({ $or: alternatives.map((one) => (one.length === 1 ? one[0]! : { $and: one })) });
  }
  if (projectIds.length) clauses.push({ 'v.report_studyProjectId': { $in: projectIds } });
  return clauses.length === 1 ? clauses[0]! : { $and: clauses };
}

export function listSort(sort: CaseListQuery['sort']): SortSpec {
  if (!sort) {
    const { field, direction } = caseListDefinition.defaultSort;
    return { [`v.${pointerKey(field)}`]: direction === 'asc' ? 1 : -1 };
  }
  const column = caseListDefinition.columns.find((c) => c.id === sort.column);
  if (!column || !column.sortable) throw errors.badRequest('cases.badSort', { column: sort.column });
  return { [`v.${pointerKey(column.field)}`]: sort.direction === 'asc' ? 1 : -1 };
}

/**
 * Columns whose value the summary keeps beside the document's (`source: summary`), by field: the
 * transmission status of the case's current version, which the exports module reports (./transmission).
 */
type SummaryRow = CaseSummary & { transmission?: CaseTransmissionSummary | null };
const SUMMARY_VALUES: Record<string, (summary: SummaryRow) => unknown> = {
  '/transmission/status': (summary) => currentTransmissionStatus(summary.transmission, summary.state.version),
};
const SUMMARY_COLUMNS = caseListDefinition.columns.filter((column) => column.source === 'summary');
const SUMMARY_FIELDS = Object.fromEntries(
  SUMMARY_COLUMNS.map((column) => [column.field.split('/')[1]!, 1 as const]),
);

export const toRow = (summary: SummaryRow): CaseListRow => ({
  id: summary._id,
  values: {
    ...summary.v,
    ...Object.fromEntries(
      SUMMARY_COLUMNS.map((column) => [
        pointerKey(column.field),
        SUMMARY_VALUES[column.field]?.(summary) ?? null,
      ]),
    ),
  },
  state: summary.state,
  deadline: summary.deadline,
});

/** A page of the case list; `totalCapped`: more than `total` cases match (the list shows "N+"). */
export interface CaseListPage extends CappedTotal {
  page: number;
  size: number;
  items: CaseListRow[];
}

export async function listCases(
  handle: Handle,
  query: CaseListQuery,
  projectIds: string[],
  totalLimit = caseListDefinition.totalLimit,
): Promise<CaseListPage> {
  const page = query.page ?? 1;
  const size = query.size ?? 20;
  const filter = listFilter(query, projectIds);
  const summaries = handle.collection<Omit<CaseSummary, '_id'>>(C.summaries);
  // The page first: where the embedded store sorts every match for it, it keeps their number for
  // the count asked next.
  const [docs, { total, totalCapped }] = await Promise.all([
    summaries.find(filter, {
      sort: listSort(query.sort),
      skip: (page - 1) * size,
      limit: size,
      projection: { v: 1, state: 1, deadline: 1, ...SUMMARY_FIELDS },
    }),
    // Counted up to the declared limit, or to the end of the page asked for when that is further.
    cappedTotal(summaries, filter, Math.max(totalLimit, page * size)),
  ]);
  return { total, totalCapped, page, size, items: docs.map((doc) => toRow(doc as CaseSummary)) };
}

/**
 * The cases a selection names (export, batch actions): explicit ids, or every case a list query
 * finds. An empty selection is refused with the message the page shows.
 */
export async function resolveCaseSelection(
  handle: Handle,
  selection: { caseIds?: string[]; query?: CaseListQuery },
  projectIds: string[],
  emptyMessage = 'cases.exportNotSelected',
): Promise<string[]> {
  if (selection.caseIds?.length) {
    const found = await handle
      .collection(C.summaries)
      .find({ _id: { $in: selection.caseIds } }, { projection: { _id: 1 } });
    const known = new Set(found.map((doc) => doc._id));
    const missing = selection.caseIds.filter((id) => !known.has(id));
    if (missing.length) throw errors.notFound('cases.notFound', { id: missing[0]! });
    return selection.caseIds;
  }
  if (selection.query) {
    const docs = await handle.collection(C.summaries).find(listFilter(selection.query, projectIds), {
      sort: listSort(selection.query.sort),
      projection: { _id: 1 },
    });
    if (docs.length) return docs.map((doc) => doc._id);
  }
  throw errors.badRequest(emptyMessage);
}
