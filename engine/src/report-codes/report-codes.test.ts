import { describe, expect, it } from 'vitest';
import { checkGenerator, formatReportCode, maxValue, periodOf } from './index';
import type { ReportCodeGenerator } from './index';

const generator: ReportCodeGenerator = {
  countryCode: 'CN',
  organisation: 'ACME',
  cycle: 'year',
  length: 6,
  startValue: 1,
};
const at = new Date('2026-11-21T20:30:00Z');

describe('report codes', () => {
  it('formats country-organisation-period+number with hyphens', () => {
    expect(formatReportCode(generator, periodOf('year', at), 12)).toBe('CN-ACME-2026000012');
    expect(formatReportCode({ ...generator, cycle: 'none', length: 4 }, periodOf('none', at), 7)).toBe(
      'CN-ACME-0007',
    );
  });

  it('has one period per cycle, in the configured time zone', () => {
    expect(periodOf('yearMonth', at)).toBe('202611');
    expect(periodOf('yearMonthDay', at)).toBe('20261121');
    expect(periodOf('yearMonthDay', at, 8 * 60)).toBe('20261122');
    expect(periodOf('shortYear', at)).toBe('26');
    expect(periodOf('year', new Date('2026-12-31T20:00:00Z'), 8 * 60)).toBe('2027');
  });

  it('refuses settings that cannot make a valid code', () => {
    expect(checkGenerator(generator)).toEqual([]);
    const fields = checkGenerator({
      countryCode: 'cn',
      organisation: 'A-B',
      cycle: 'week' as never,
      length: 0,
      startValue: -1,
    }).map((p) => p.field);
    expect(fields).toEqual(['countryCode', 'organisation', 'cycle', 'length', 'startValue']);
    expect(checkGenerator({ ...generator, length: 2, startValue: 100 }).map((p) => p.field)).toEqual([
      'startValue',
    ]);
    expect(maxValue({ ...generator, length: 3 })).toBe(999);
  });
});
