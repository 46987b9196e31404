/**
 * Sorting of a paged list by a column (the `sort` and `order` query parameters): the store sorts
 * before skip/limit so a page is a slice of the whole sorted result, not a page sorted on its own.
 * Only fields a route declares may be sorted (each covered by an index where the collection has
 * them); anything else is refused, never silently ignored.
 */
import { errors } from '../http';
import type { SortSpec } from '../store';

export interface SortQuery {
  sort?: string;
  order?: 'asc' | 'desc';
}

/** Query schema properties of the sort parameters, spread into a list route's query. */
export const sortQuery = {
  sort: { type: 'string', minLength: 1, maxLength: 64 },
  order: { enum: ['asc', 'desc'] },
} as const;

/**
 * The store sort of a list request: the asked field (ascending unless `order=desc`) with `_id` in
 * the same direction as tie-breaker, so equal values keep one order across pages; without `sort`,
 * the route's own order. Throws a translated 400 for a field the route does not sort by.
 */
export function listSort(query: SortQuery, sortable: readonly string[], fallback: SortSpec): SortSpec {
  if (query.sort === undefined) {
    if (query.order !== undefined) throw errors.badRequest('entities.orderWithoutSort');
    return '_id' in fallback ? fallback : { ...fallback, _id: 1 };
  }
  if (!sortable.includes(query.sort))
    throw errors.badRequest('entities.unsortable', {
      field: query.sort,
      fields: sortable.join(', ') || '-',
    });
  const direction = query.order === 'desc' ? -1 : 1;
  return { [query.sort]: direction, _id: direction };
}
