import { describe, expect, it } from 'vitest';
import { breaksFormat } from './registration-formats';

describe('registration format checks', () => {
  it('take what the server takes and refuse what it refuses', () => {
    for (const phone of ['13800138000', '010-12345678-8', '+8613800138000'])
      expect(breaksFormat('phone', phone)).toBe(false);
    for (const phone of ['12345', '010-123', 'phone']) expect(breaksFormat('phone', phone)).toBe(true);
    expect(breaksFormat('email', 'a@b.cn')).toBe(false);
    expect(breaksFormat('email', 'a@b')).toBe(true);
    expect(breaksFormat('account', 'ab')).toBe(true);
    expect(breaksFormat('account', 'admin.one')).toBe(false);
    expect(breaksFormat('code', 'ACME_1')).toBe(false);
    expect(breaksFormat('code', 'A')).toBe(true);
  });

  it('leave empty optional fields and fields without a format alone', () => {
    expect(breaksFormat('phone', '')).toBe(false);
    expect(breaksFormat('tenantName', '任意名称 !')).toBe(false);
  });
});
