/**
 * One declaration for the module's read-only lists (the query lists, the query trace, the QC trace,
 * the data change log): a paged GET over the caller's projects with declared filters, and an
 * optional XLSX export of the same filters. The list says how it reads a slice; the helper owns the
 * project scope, paging, the empty answer and the workbook.
 */
import ExcelJS from 'exceljs';
import type { Caller, JsonSchema, ModuleRouter, PageQuery } from '../http';
import { callerOf, errors, pageOptions, pageQuery } from '../http';
import { emptyScope, listScope, scopeIds } from '../cases';
import { cappedTotal } from '../store';
import type { CappedTotal, Collection, Filter, FindOptions } from '../store';

/** An export reads at most this many rows (queries, records or saves). */
export const EXPORT_MAX = 5000;

/**
 * A list counts its matches up to this many (as the case list's declared totalLimit); past it the
 * total reads "N+" (`totalCapped`), so a page of 170,000 matching queries is not kept waiting for
 * every one of them to be counted.
 */
export const TOTAL_LIMIT = 1000;

/** A slice of a list: the page, or the export's first EXPORT_MAX (which needs no total). */
export interface Slice {
  skip: number;
  limit: number;
  count: boolean;
}

/** One slice of a list: its rows and the (capped) total; `totalCapped` unset is an exact total. */
export type SliceAnswer<Row> = { items: Row[] } & Pick<CappedTotal, 'total'> & Partial<CappedTotal>;

/**
 * The capped total of a slice: counted up to TOTAL_LIMIT, or to the end of the page asked for
 * when that is further (so the pager can offer the next page).
 */
export const sliceTotal = (collection: Pick<Collection, 'count'>, filter: Filter, slice: Slice) =>
  cappedTotal(collection, filter, Math.max(TOTAL_LIMIT, slice.skip + slice.limit));

export interface Column {
  key: string;
  zh: string;
  en: string;
}

export interface PagedListDeclaration<Q extends object, Row> {
  path: string;
  summary: string;
  permission: string;
  /** The list's query parameters beyond page and size; a `projectId` narrows the caller's projects. */
  filters: Record<string, JsonSchema>;
  /** One slice of the list in the caller's projects (a store filter on `projectId`). */
  read: (caller: Caller, projects: Filter, query: Q, slice: Slice) => Promise<SliceAnswer<Row>>;
  export?: {
    summary: string;
    permission: string;
    name: { zh: string; en: string };
    columns: Column[];
    /** A row of the sheet from a list item (values as text where the list keeps them raw). */
    row: (caller: Caller, item: Row) => Record<string, unknown>;
  };
}

/** A date range whose start is after its end finds nothing by construction: say so (SPEC 8). */
export function requireRange(query: { from?: string; to?: string }): void {
  if (query.from && query.to && query.from.slice(0, 10) > query.to.slice(0, 10))
    throw errors.badRequest('queries.conditionInvalid');
}

/** The caller's projects where they hold the permission, narrowed by a project filter; null: nothing. */
export async function projectFilter(
  caller: Caller,
  permission: string,
  projectId?: string,
): Promise<Filter | null> {
  const scope = await listScope(caller, permission);
  if (emptyScope(scope)) return null;
  const ids = scopeIds(scope);
  if (projectId) return ids.length && !ids.includes(projectId) ? null : { projectId };
  return ids.length ? { projectId: { $in: ids } } : {};
}

/** A slice of a collection: its documents in the order given and, when asked, the capped total. */
export async function findSlice<T extends object>(
  collection: Collection<T>,
  filter: Filter,
  sort: FindOptions['sort'],
  slice: Slice,
) {
  const [docs, total] = await Promise.all([
    collection.find(filter, { sort, skip: slice.skip, limit: slice.limit }),
    slice.count ? sliceTotal(collection, filter, slice) : Promise.resolve({ total: 0, totalCapped: false }),
  ]);
  return { docs, ...total };
}

/** An XLSX download with zh or en headers. */
export async function workbook(
  caller: Caller,
  name: { zh: string; en: string },
  columns: Column[],
  rows: Record<string, unknown>[],
): Promise<Response> {
  const title = caller.lang === 'en' ? name.en : name.zh;
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(title);
  sheet.columns = columns.map((c) => ({ header: caller.lang === 'en' ? c.en : c.zh, key: c.key, width: 22 }));
  for (const row of rows) sheet.addRow(row);
  const bytes = Buffer.from(await book.xlsx.writeBuffer());
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(`${title}.xlsx`)}`,
      'content-length': String(bytes.length),
    },
  });
}

/** Mounts the list at `path` and its export at `path/export`. */
export function pagedList<Q extends { projectId?: string }, Row>(
  router: ModuleRouter,
  list: PagedListDeclaration<Q, Row>,
): void {
  router.route<unknown, PageQuery & Q>(
    {
      method: 'get',
      path: list.path,
      summary: list.summary,
      permission: list.permission,
      query: { type: 'object', additionalProperties: false, properties: { ...pageQuery, ...list.filters } },
    },
    async (c, { query }) => {
      const caller = callerOf(c);
      const projects = await projectFilter(caller, list.permission, query.projectId);
      if (!projects) return { items: [], total: 0, totalCapped: false, page: query.page, size: query.size };
      const answer = await list.read(caller, projects, query, { ...pageOptions(query), count: true });
      return {
        items: answer.items,
        total: answer.total,
        totalCapped: answer.totalCapped ?? false,
        page: query.page,
        size: query.size,
      };
    },
  );
  const sheet = list.export;
  if (!sheet) return;
  router.route<unknown, Q>(
    {
      method: 'get',
      path: `${list.path}/export`,
      summary: sheet.summary,
      permission: sheet.permission,
      query: { type: 'object', additionalProperties: false, properties: list.filters },
      download: true,
    },
    async (c, { query }) => {
      const caller = callerOf(c);
      const projects = await projectFilter(caller, sheet.permission, query.projectId);
      const items = projects
        ? (await list.read(caller, projects, query, { skip: 0, limit: EXPORT_MAX, count: false })).items
        : [];
      return workbook(
        caller,
        sheet.name,
        sheet.columns,
        items.map((item) => sheet.row(caller, item)),
      );
    },
  );
}
