import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../display/values';
import { timestampFromText } from './DateTimeWidget';

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
});
