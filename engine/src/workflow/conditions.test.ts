import { describe, expect, it } from 'vitest';
import { compileCondition, holds } from './conditions';
import type { Condition, Facts } from './conditions';

const conditions: Condition[] = [
  { fact: 'a', is: true },
  { fact: 'a', is: null },
  { fact: 's', in: ['CN', 'US'] },
  { fact: 's', notIn: ['CN', null] },
  { fact: 'n', gt: 3 },
  { fact: 'n', lt: 3 },
  { fact: 's', empty: true },
  { fact: 's', empty: false },
  { all: [{ fact: 'a', is: true }, { not: { fact: 'n', gt: 3 } }] },
  {
    any: [
      { fact: 'a', is: false },
      { fact: 's', in: ['CN'] },
    ],
  },
  { all: [] },
  { any: [] },
];
const factSets: Facts[] = [
  {},
  { a: true, s: 'CN', n: 5 },
  { a: false, s: '', n: 3 },
  { a: null, s: null, n: '4' },
  { a: true, s: 'US', n: 2 },
];

describe('compileCondition', () => {
  it('means exactly what holds means, for every operator', () => {
    for (const condition of conditions) {
      const compiled = compileCondition(condition);
      for (const facts of factSets)
        expect([condition, facts, compiled(facts)]).toEqual([condition, facts, holds(condition, facts)]);
    }
  });
});
