import { describe, expect, it } from 'vitest';
import { applyLayout, isFixed, layoutOf, move, orderedColumns, parseLayouts } from './layout';

const cols = ['code', 'name', 'type', 'state', 'actions'].map((key) => ({ key }));
const keys = (list: { key: string }[]) => list.map((c) => c.key);

describe('column layout', () => {
  it('shows every column as declared without a layout', () => {
    expect(keys(applyLayout(cols, undefined))).toEqual(['code', 'name', 'type', 'state', 'actions']);
  });

  it('hides unchecked columns and orders the rest, the ends fixed', () => {
    const layout = layoutOf(['code', 'state', 'name', 'type', 'actions'], new Set(['state', 'type']));
    expect(keys(applyLayout(cols, layout))).toEqual(['code', 'state', 'type', 'actions']);
  });

  it('lists hidden columns too, in the layout order, for the dialog', () => {
    const layout = layoutOf(['code', 'state', 'name', 'type', 'actions'], new Set(['state']));
    expect(keys(orderedColumns(cols, layout))).toEqual(['code', 'state', 'name', 'type', 'actions']);
  });

  it('keeps the first and last columns even when a layout leaves them out', () => {
    expect(keys(applyLayout(cols, { order: ['type', 'name'], checked: ['type'] }))).toEqual([
      'code',
      'type',
      'state',
      'actions',
    ]);
  });

  it('shows columns added after the layout was saved and ignores removed ones', () => {
    const layout = {
      order: ['code', 'gone', 'type', 'name', 'actions'],
      checked: ['code', 'gone', 'type', 'actions'],
    };
    expect(keys(applyLayout(cols, layout))).toEqual(['code', 'type', 'state', 'actions']);
  });

  it('never moves a fixed column or across one', () => {
    const list = ['a', 'b', 'c', 'd'];
    expect(move(list, 1, 1)).toEqual(['a', 'c', 'b', 'd']);
    expect(move(list, 1, -1)).toBe(list);
    expect(move(list, 2, 1)).toBe(list);
    expect(move(list, 0, 1)).toBe(list);
    expect(isFixed(3, 4)).toBe(true);
  });

  it('reads a stored columnJson and tolerates none or garbage', () => {
    expect(parseLayouts(JSON.stringify({ t: { order: ['a'], checked: ['a'] } }))).toEqual({
      t: { order: ['a'], checked: ['a'] },
    });
    expect(parseLayouts(undefined)).toEqual({});
    expect(parseLayouts('nope')).toEqual({});
  });
});
