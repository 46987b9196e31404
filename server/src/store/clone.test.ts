/** cloneDocument must copy exactly as structuredClone does for what documents hold. */
import { expect, it } from 'vitest';
import { cloneDocument } from './core';

it('copies deeply as structuredClone does, without sharing anything with the input', () => {
  const input = {
    report: { code: 'CN-1', when: new Date('2026-11-21T00:00:00Z'), flags: [true, false, null] },
    drugs: [{ name: '阿司匹林', dose: 1.5, batches: ['B1'] }],
    gap: undefined,
    big: 12n,
  };
  const copy = cloneDocument(input) as typeof input;
  expect(copy).toEqual(structuredClone(input));
  expect(copy.report.when).toBeInstanceOf(Date);
  expect(copy.report.when).not.toBe(input.report.when);
  copy.drugs[0]!.batches.push('B2');
  expect(input.drugs[0]!.batches).toEqual(['B1']);
});

it('keeps a __proto__ key as data, refuses functions like structuredClone, and survives cycles', () => {
  const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
  const copy = cloneDocument(parsed) as Record<string, unknown>;
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(() => cloneDocument({ f: () => 1 })).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  const cloned = cloneDocument(cyclic) as Record<string, unknown>;
  expect(cloned.name).toBe('loop');
  expect(cloned.self).not.toBe(cyclic);
});
