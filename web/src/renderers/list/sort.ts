/**
 * A list's sort by a column header. A server-paged list is sorted by the server (`sort`, `order`)
 * so that every page is a slice of the whole sorted result; a list loaded whole sorts on screen.
 */
import type { ColumnDefinition } from '../definition';

export interface ListSort {
  key: string;
  direction: 1 | -1;
}

/** A header click: ascending, then descending, then the list's own order. */
export function nextSort(current: ListSort | null, key: string): ListSort | null {
  if (current?.key !== key) return { key, direction: 1 };
  return current.direction === 1 ? { key, direction: -1 } : null;
}

/** The query parameters a server-paged list is read with for a sort (none without one). */
export function sortParams(sort: ListSort | null, columns: ColumnDefinition[]): Record<string, string> {
  const column = sort && columns.find((c) => c.key === sort.key && c.sortable);
  if (!sort || !column) return {};
  return { sort: column.field ?? column.key, order: sort.direction === 1 ? 'asc' : 'desc' };
}
