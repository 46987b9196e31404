import { describe, expect, it } from 'vitest';
import { EXPORT_MAX_ROWS, EXPORT_PAGE_SIZE, rowsToExport } from './export-rows';

const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ n: from + i }));

function server(total: number) {
  const asked: [number, number][] = [];
  const readPage = async (page: number, size: number) => {
    asked.push([page, size]);
    const start = (page - 1) * size;
    return { total, items: rows(start, Math.max(0, Math.min(size, total - start))) };
  };
  return { asked, readPage };
}

describe('rows to export', () => {
  it('reads every page of a server-paged list, not only the one on screen', async () => {
    const s = server(450);
    const all = await rowsToExport({ rows: rows(0, 20), total: 450, serverPaged: true }, s.readPage);
    expect(all).toHaveLength(450);
    expect(all[449]).toEqual({ n: 449 });
    expect(s.asked).toEqual([
      [1, EXPORT_PAGE_SIZE],
      [2, EXPORT_PAGE_SIZE],
      [3, EXPORT_PAGE_SIZE],
    ]);
  });

  it('reads past a capped total ("N+"): more rows match than it counts', async () => {
    const s = server(2500);
    const all = await rowsToExport(
      { rows: rows(0, 20), total: 1000, totalCapped: true, serverPaged: true },
      s.readPage,
    );
    expect(all).toHaveLength(2500);
  });

  it('keeps the rows on screen when they are all of them', async () => {
    const s = server(3);
    const shown = rows(0, 3);
    expect(await rowsToExport({ rows: shown, total: 3, serverPaged: true }, s.readPage)).toBe(shown);
    expect(await rowsToExport({ rows: shown, total: 3, serverPaged: false }, s.readPage)).toBe(shown);
    expect(s.asked).toEqual([]);
  });

  it('stops at the export ceiling', async () => {
    const s = server(EXPORT_MAX_ROWS + 500);
    const all = await rowsToExport(
      { rows: rows(0, 20), total: EXPORT_MAX_ROWS + 500, serverPaged: true },
      s.readPage,
    );
    expect(all).toHaveLength(EXPORT_MAX_ROWS);
    expect(s.asked).toHaveLength(EXPORT_MAX_ROWS / EXPORT_PAGE_SIZE);
  });
});
