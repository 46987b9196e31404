import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../display/values';
import { timestampFromText, withDay } from './DateTimeWidget';

describe('date-time fields typed in ISO order', () => {
  it('a local date and time becomes the instant, and reads back the same', () => {
    const iso = timestampFromText('2027-12-31 23:59')!;
    expect(iso).toBe(new Date(2027, 11, 31, 23, 59).toISOString());
    expect(formatDateTime(iso)).toBe('2027-12-31 23:59');
    expect(timestampFromText('2027-12-31T23:59:30')).toBe(new Date(2027, 11, 31, 23, 59, 30).toISOString());
  });

  it('refuses what is not a date and time', () => {
    for (const text of ['2027-12-31', '12/31/2027 11:59 PM', '2027-12-31 24:00', 'soon'])
      expect(timestampFromText(text), text).toBeNull();
  });

  it('a day picked on the calendar keeps the time typed (00:00 when none)', () => {
    const day = new Date(2027, 0, 5);
    expect(withDay('2027-12-31 23:59', day)).toBe('2027-01-05 23:59');
    expect(withDay('2027-12-31 08:30:15', day)).toBe('2027-01-05 08:30:15');
    expect(withDay('', day)).toBe('2027-01-05 00:00');
    expect(timestampFromText(withDay('', day))).toBe(new Date(2027, 0, 5).toISOString());
  });
});
