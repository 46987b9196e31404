import { describe, expect, it } from 'vitest';
import { AppError } from '../http';
import { nextCronRun } from './cron';

const at = (iso: string) => new Date(iso);

describe('cron expressions', () => {
  it('reads five fields as minute hour day month weekday', () => {
    expect(nextCronRun('*/15 * * * *', at('2026-03-01T10:07:30Z'))?.toISOString()).toBe(
      '2026-03-01T10:15:00.000Z',
    );
    expect(nextCronRun('0 2 * * *', at('2026-03-01T02:00:00Z'))?.toISOString()).toBe(
      '2026-03-02T02:00:00.000Z',
    );
    expect(nextCronRun('30 8 1 * *', at('2026-01-31T09:00:00Z'))?.toISOString()).toBe(
      '2026-02-01T08:30:00.000Z',
    );
    // 2026-03-02 is a Monday.
    expect(nextCronRun('0 9 * * 1', at('2026-03-01T00:00:00Z'))?.toISOString()).toBe(
      '2026-03-02T09:00:00.000Z',
    );
  });

  it('reads six fields with seconds first', () => {
    expect(nextCronRun('*/10 * * * * *', at('2026-03-01T10:00:01Z'))?.toISOString()).toBe(
      '2026-03-01T10:00:10.000Z',
    );
  });

  it('is strictly after the given instant', () => {
    expect(nextCronRun('0 * * * *', at('2026-03-01T10:00:00Z'))?.toISOString()).toBe(
      '2026-03-01T11:00:00.000Z',
    );
  });

  it('reads the expression in the schedule time zone', () => {
    // 08:00 in Shanghai (UTC+8) is 00:00 UTC.
    expect(nextCronRun('0 8 * * *', at('2026-03-01T01:00:00Z'), 'Asia/Shanghai')?.toISOString()).toBe(
      '2026-03-02T00:00:00.000Z',
    );
  });

  it('combines day of month and weekday with OR, like cron', () => {
    // The 15th, or any Sunday: from Monday 2026-03-02 the first match is Sunday 2026-03-08.
    expect(nextCronRun('0 0 15 * 0', at('2026-03-02T00:00:00Z'))?.toISOString()).toBe(
      '2026-03-08T00:00:00.000Z',
    );
  });

  it('refuses malformed expressions with a translated error', () => {
    for (const bad of ['', '* * *', '61 * * * *', '* * * * * * *', 'every day']) {
      expect(() => nextCronRun(bad, at('2026-03-02T00:00:00Z')), bad).toThrow(AppError);
    }
  });
});
