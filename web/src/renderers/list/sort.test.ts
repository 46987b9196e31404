import { describe, expect, it } from 'vitest';
import type { ColumnDefinition } from '../definition';
import { nextSort, sortParams } from './sort';

const columns: ColumnDefinition[] = [
  { key: 'code', label: { zh: '编码', en: 'Code' }, sortable: true },
  { key: 'when', field: 'at', label: { zh: '时间', en: 'Time' }, sortable: true },
  { key: 'ip', label: { zh: 'IP', en: 'IP' } },
];

describe('list sort', () => {
  it('cycles a header through ascending, descending and the list’s own order; another header starts ascending', () => {
    const up = nextSort(null, 'code');
    expect(up).toEqual({ key: 'code', direction: 1 });
    const down = nextSort(up, 'code');
    expect(down).toEqual({ key: 'code', direction: -1 });
    expect(nextSort(down, 'code')).toBeNull();
    expect(nextSort(down, 'when')).toEqual({ key: 'when', direction: 1 });
  });

  it('asks the server for the column’s field and direction', () => {
    expect(sortParams({ key: 'code', direction: -1 }, columns)).toEqual({ sort: 'code', order: 'desc' });
    expect(sortParams({ key: 'when', direction: 1 }, columns)).toEqual({ sort: 'at', order: 'asc' });
  });

  it('asks for no sort without one, or for a column not declared sortable', () => {
    expect(sortParams(null, columns)).toEqual({});
    expect(sortParams({ key: 'ip', direction: 1 }, columns)).toEqual({});
    expect(sortParams({ key: 'gone', direction: 1 }, columns)).toEqual({});
  });
});
