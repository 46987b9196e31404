import { describe, expect, it } from 'vitest';
import { cronOf, shapeOf } from './cron';
import type { CronShape } from './cron';

describe('cron builder model', () => {
  it('writes each shape as a 5-field expression and reads it back', () => {
    const shapes: CronShape[] = [
      { kind: 'minutes', every: 15 },
      { kind: 'hourly', minute: 5 },
      { kind: 'daily', hour: 3, minute: 30 },
      { kind: 'weekly', weekday: 1, hour: 9, minute: 0 },
      { kind: 'monthly', day: 28, hour: 23, minute: 45 },
    ];
    for (const shape of shapes) expect(shapeOf(cronOf(shape))).toEqual(shape);
    expect(cronOf({ kind: 'daily', hour: 3, minute: 30 })).toBe('30 3 * * *');
  });

  it('keeps what the builder cannot show as an expression', () => {
    for (const expression of ['0 9 * * 1-5', '0 0 1 1 *', '0 */2 * * *', '0 0 9 * * *', '61 * * * *'])
      expect(shapeOf(expression)).toEqual({ kind: 'custom', expression });
  });
});
