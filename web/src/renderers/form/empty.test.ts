import { describe, expect, it } from 'vitest';
import { withoutEmpty } from './empty';

describe('withoutEmpty', () => {
  it('treats the defaults a form fills in as no change', () => {
    expect(withoutEmpty({ name: '', permissions: [], extra: {}, note: undefined, code: null })).toEqual({});
  });

  it('keeps real values, falsy ones included, and cleans nested objects', () => {
    expect(
      withoutEmpty({ name: 'QC', enabled: false, limit: 0, address: { city: '', street: 'A' } }),
    ).toEqual({
      name: 'QC',
      enabled: false,
      limit: 0,
      address: { street: 'A' },
    });
  });

  it('keeps the order and content of lists', () => {
    expect(withoutEmpty({ roles: ['b', 'a'] })).toEqual({ roles: ['b', 'a'] });
  });
});
