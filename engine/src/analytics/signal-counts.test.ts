import { describe, expect, it } from 'vitest';
import { generateMeddra, random, SMALL_MEDDRA } from '../dictionaries/synthetic';
import { countSignalPairs, signalTable } from './signal-counts';
import type { SignalEventLevel } from './signal-counts';

const meddra = generateMeddra(SMALL_MEDDRA).en;
const ptOf = new Map(meddra.llts.map((l) => [l.code, l.ptCode]));
const socOf = new Map(meddra.pts.map((p) => [p.code, p.primarySocCode]));

const drugNames = ['Aspirin', 'Metformin', 'Warfarin', 'Ibuprofen', 'Simvastatin'];

interface TestCase {
  state: { validity: string };
  drugs: { drugCharacterisation: string; drugName: string }[];
  reactions: { meddraCode: string; meddraPtCode: string; meddraSocCode: string }[];
}

function randomCases(count: number, seed: number): TestCase[] {
  const rand = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const llts = meddra.llts.slice(0, 25);
  return Array.from({ length: count }, () => ({
    state: { validity: pick(['valid', 'valid', 'valid', 'valid', 'invalid', 'deleted']) },
    drugs: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ({
      drugCharacterisation: pick(['1', '1', '2', '3', '4']),
      // Same drug spelt differently: counted as one.
      drugName: rand() < 0.2 ? ` ${pick(drugNames).toUpperCase()}  ` : pick(drugNames),
    })),
    // Repeats of one reaction in a case are likely with 25 terms: each pair still counts once.
    reactions: Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
      const llt = pick(llts);
      const pt = ptOf.get(llt.code)!;
      return { meddraCode: llt.code, meddraPtCode: pt, meddraSocCode: socOf.get(pt)! };
    }),
  }));
}

/** The obvious count: for each pair, look at every case. */
function bruteForce(cases: TestCase[], by: SignalEventLevel) {
  const eventOf = (r: TestCase['reactions'][number]) =>
    by === 'term'
      ? r.meddraCode
      : by === 'pt'
        ? ptOf.get(r.meddraCode)!
        : socOf.get(ptOf.get(r.meddraCode)!)!;
  const kept = cases
    .filter((c) => c.state.validity === 'valid')
    .map((c) => ({
      drugs: new Set(
        c.drugs
          .filter((d) => d.drugCharacterisation === '1' || d.drugCharacterisation === '3')
          .map((d) => d.drugName.trim().toUpperCase()),
      ),
      events: new Set(c.reactions.map(eventOf)),
    }))
    .filter((c) => c.drugs.size > 0 && c.events.size > 0);
  const tables = new Map<string, { a: number; b: number; c: number; d: number }>();
  for (const drug of new Set(kept.flatMap((c) => [...c.drugs])))
    for (const event of new Set(kept.flatMap((c) => [...c.events]))) {
      const t = { a: 0, b: 0, c: 0, d: 0 };
      for (const c of kept) {
        const hasDrug = c.drugs.has(drug);
        const hasEvent = c.events.has(event);
        if (hasDrug && hasEvent) t.a++;
        else if (hasDrug) t.b++;
        else if (hasEvent) t.c++;
        else t.d++;
      }
      if (t.a > 0) tables.set(`${drug}|${event}`, t);
    }
  return { cases: kept.length, tables };
}

describe('signal pair counts', () => {
  const cases = randomCases(1000, 7);

  for (const by of ['term', 'pt', 'soc'] as const) {
    it(`equal a brute-force count over 1,000 random cases, by ${by}`, () => {
      const counts = countSignalPairs(cases, { by, meddra });
      const expected = bruteForce(cases, by);
      expect(counts.cases).toBe(expected.cases);
      expect(counts.pairs.length).toBe(expected.tables.size);
      for (const pair of counts.pairs) {
        const { a, b, c, d } = pair;
        expect({ a, b, c, d }).toEqual(expected.tables.get(`${pair.drug.toUpperCase()}|${pair.event}`));
      }
    });
  }

  it('without a release, pt and soc come from the codes stored with the coding', () => {
    const withRelease = countSignalPairs(cases, { by: 'soc', meddra });
    const stored = countSignalPairs(cases, { by: 'soc' });
    expect(stored).toEqual(withRelease);
  });

  it('counts a case once per pair, shows the first spelling, leaves out excluded cases', () => {
    const one = {
      drugs: [
        { drugCharacterisation: '1', drugName: 'Aspirin' },
        { drugCharacterisation: '3', drugName: 'ASPIRIN ' },
        { drugCharacterisation: '2', drugName: 'Paracetamol' },
      ],
      reactions: [{ meddraCode: '90019211' }, { meddraCode: '90019211' }],
    };
    const other = {
      drugs: [{ drugCharacterisation: '1', drugName: 'Warfarin' }],
      reactions: [{ meddraCode: '1' }],
    };
    const invalid = { ...one, state: { validity: 'invalid' } };
    const counts = countSignalPairs([one, other, invalid, {}], { by: 'term' });
    expect(counts.cases).toBe(2);
    expect(counts.skippedCases).toBe(2);
    expect(counts.pairs).toEqual([
      { drug: 'Aspirin', event: '90019211', a: 1, b: 0, c: 0, d: 1 },
      { drug: 'Warfarin', event: '1', a: 1, b: 0, c: 0, d: 1 },
    ]);
    expect(countSignalPairs([one, other, invalid], { by: 'term', includeInvalid: true }).pairs[0]!.a).toBe(2);
    expect(countSignalPairs([one, other], { by: 'term' }, 2).pairs).toEqual([]);
  });

  it('counts the codes a release does not know and leaves them out', () => {
    const counts = countSignalPairs(
      [{ drugs: [{ drugCharacterisation: '1', drugName: 'X' }], reactions: [{ meddraCode: '99999999' }] }],
      { by: 'pt', meddra },
    );
    expect(counts).toMatchObject({ cases: 0, unmappedEvents: 1, pairs: [] });
  });

  it('the signal table carries each pair with its figures', () => {
    const [row] = signalTable(countSignalPairs(cases, { by: 'soc', meddra }, 3));
    expect(row).toMatchObject({ drug: expect.any(String), a: expect.any(Number), prr: expect.any(Number) });
    expect(row!.a).toBeGreaterThanOrEqual(3);
  });
});
