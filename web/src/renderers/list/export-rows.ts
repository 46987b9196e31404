/**
 * The rows an XLSX export holds: every row the list's filters and tab select, not only the page on
 * screen. A server-paged list is read again page by page at the largest page size the API takes.
 */
import { PAGE_SIZE_MAX } from '@pv/engine';

type Row = Record<string, unknown>;

/** The largest page the list APIs accept (the engine's declaration, which the server's page query uses). */
export const EXPORT_PAGE_SIZE = PAGE_SIZE_MAX;
/** An export stops after this many rows (50 pages); the list's filters narrow a larger one. */
export const EXPORT_MAX_ROWS = 10_000;

export type PageReader = (page: number, size: number) => Promise<{ total: number; items: Row[] }>;

export async function rowsToExport(
  shown: { rows: Row[]; total: number; serverPaged: boolean; totalCapped?: boolean },
  readPage: PageReader,
): Promise<Row[]> {
  if (!shown.serverPaged || (shown.total <= shown.rows.length && !shown.totalCapped)) return shown.rows;
  // A capped total ("N+") says more rows match than it counts: read on to the ceiling.
  const wanted = shown.totalCapped ? EXPORT_MAX_ROWS : Math.min(shown.total, EXPORT_MAX_ROWS);
  const collected: Row[] = [];
  for (let page = 1; collected.length < wanted; page += 1) {
    const answer = await readPage(page, EXPORT_PAGE_SIZE);
    collected.push(...answer.items);
    if (answer.items.length < EXPORT_PAGE_SIZE) break;
  }
  return collected.slice(0, EXPORT_MAX_ROWS);
}
