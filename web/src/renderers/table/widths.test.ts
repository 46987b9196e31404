import { describe, expect, it } from 'vitest';
import declared from '../../../../schemas/ui/tables.json';
import { HEADER_CHROME, TABLE_DEFAULTS, columnWidth, declaredWidth, stickyOffsets } from './widths';

describe('column widths of the shared table renderer', () => {
  it('takes the column own declaration first, then schemas/ui/tables.json, then the kind, then the default', () => {
    expect(declaredWidth('workbench', { key: 'reportCode', width: 250 }).width).toBe(250);
    expect(declaredWidth('workbench', { key: 'reportCode' }).width).toBe(
      declared.tables.workbench.reportCode.width,
    );
    expect(declaredWidth('unknown', { key: 'x', kind: 'datetime' }).width).toBe(
      declared.kinds.datetime.width,
    );
    expect(declaredWidth('unknown', { key: 'x' })).toEqual({
      width: TABLE_DEFAULTS.width,
      minWidth: TABLE_DEFAULTS.minWidth,
    });
  });

  it('never goes below the declared minimum', () => {
    expect(declaredWidth('unknown', { key: 'x', width: 30, minWidth: 90 }).width).toBe(90);
    expect(columnWidth({ width: 120, minWidth: 80 }, 0, 20)).toBe(80);
  });

  it('widens a column to its header label unless the user dragged it', () => {
    expect(columnWidth({ width: 100, minWidth: 64 }, 150, undefined)).toBe(150 + HEADER_CHROME);
    expect(columnWidth({ width: 300, minWidth: 64 }, 150, undefined)).toBe(300);
    expect(columnWidth({ width: 100, minWidth: 64 }, 150, 90)).toBe(90);
  });

  it('pins left columns at the sum of the widths before them', () => {
    expect(stickyOffsets([40, 64, 190])).toEqual([0, 40, 104]);
  });
});
