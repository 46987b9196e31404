import { afterEach, describe, expect, it } from 'vitest';
import { now, nowMs, setClock, todayIso } from './clock';

describe('web clock', () => {
  afterEach(() => setClock(null));

  it('answers the clock it is given, and the wall clock again after null', () => {
    const fixed = new Date('2026-11-21T23:30:00Z');
    setClock({ now: () => new Date(fixed) });
    expect(now().toISOString()).toBe('2026-11-21T23:30:00.000Z');
    expect(nowMs()).toBe(fixed.getTime());
    expect(todayIso()).toBe('2026-11-21');
    setClock(null);
    expect(nowMs()).not.toBe(fixed.getTime());
  });
});
