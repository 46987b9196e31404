import { describe, expect, it } from 'vitest';
import { generateMeddra, random, SMALL_MEDDRA } from './synthetic';
import { NgramIndex, RankedHits, rankMatch } from './ngram';

const texts = generateMeddra(SMALL_MEDDRA).en.llts.map((l) => l.name);
const index = new NgramIndex(texts);

/** Every match ranked, best rank first, display order within a rank: what collect must equal. */
function naive(query: string, accept: (id: number) => boolean, limit: number) {
  const ids = index.keys.map((_, id) => id).filter((id) => index.keys[id]!.includes(query) && accept(id));
  const ranked = ids.map((id) => ({ id, rank: rankMatch(index.keys[id]!, query) }));
  ranked.sort((a, b) => a.rank - b.rank || a.id - b.id);
  return { total: ids.length, page: ranked.slice(0, limit).map((r) => r.id) };
}

describe('n-gram index', () => {
  it('finds the same hits, in the same order, as ranking every text', () => {
    const rand = random(7);
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      const key = index.keys[Math.floor(rand() * index.keys.length)]!;
      const length = 2 + Math.floor(rand() * 3);
      const start = Math.floor(rand() * Math.max(1, key.length - length));
      const query = key.slice(start, start + length);
      if (query.length < 2) continue;
      // A small page and a filter make the shortcut for later, better-ranked hits matter.
      const accept = (id: number) => id % 3 !== 0;
      for (const limit of [1, 3, 10]) {
        const hits = new RankedHits(limit);
        index.collect(query, accept, hits);
        expect({ total: hits.total, page: hits.page(0, limit) }, query).toEqual(naive(query, accept, limit));
      }
      checked += 1;
    }
    expect(checked).toBeGreaterThan(250);
  });

  it('ranks exact, prefix, word start, then anywhere', () => {
    expect(rankMatch('head pain', 'head pain')).toBe(1);
    expect(rankMatch('head pain', 'hea')).toBe(2);
    expect(rankMatch('dull head pain', 'pai')).toBe(3);
    expect(rankMatch('spain pain', 'pai')).toBe(3);
    expect(rankMatch('spain', 'pai')).toBe(4);
  });
});
