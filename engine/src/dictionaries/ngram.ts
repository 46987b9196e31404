/**
 * A substring index over a fixed list of texts: every character pair (bigram) of each text's
 * search key points at the texts holding it. A query of two or more characters reads the posting
 * list of its rarest bigram and checks the candidates, so a search touches a few thousand texts
 * rather than all of them.
 *
 * Texts are numbered in the caller's display order, and posting lists keep that order, so the
 * candidates come out already sorted and a search never sorts.
 */
import { searchKey } from './text';

export class NgramIndex {
  /** Bigram (two UTF-16 units as one number) -> ids of the texts holding it, ascending. */
  private readonly postings = new Map<number, Int32Array>();
  readonly keys: string[];

  constructor(texts: readonly string[]) {
    this.keys = texts.map(searchKey);
    const lists = new Map<number, number[]>();
    for (let id = 0; id < this.keys.length; id++) {
      const key = this.keys[id]!;
      for (let i = 0; i + 1 < key.length; i++) {
        const gram = key.charCodeAt(i) * 65536 + key.charCodeAt(i + 1);
        let list = lists.get(gram);
        if (!list) lists.set(gram, (list = []));
        // A text repeating a bigram is listed once: ids arrive in order, so compare with the last.
        if (list[list.length - 1] !== id) list.push(id);
      }
    }
    for (const [gram, list] of lists) this.postings.set(gram, Int32Array.from(list));
  }

  /**
   * Ids of the texts containing `query` (already a search key, at least two characters), in id
   * order, passed through `visit`.
   */
  forEachMatch(query: string, visit: (id: number) => void): void {
    if (query.length < 2) return;
    let rarest: Int32Array | undefined;
    for (let i = 0; i + 1 < query.length; i++) {
      const list = this.postings.get(query.charCodeAt(i) * 65536 + query.charCodeAt(i + 1));
      if (!list) return;
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    if (!rarest) return;
    const exactPair = query.length === 2;
    for (let k = 0; k < rarest.length; k++) {
      const id = rarest[k]!;
      if (exactPair || this.keys[id]!.includes(query)) visit(id);
    }
  }
}

/** How a text matched a query, best first. */
export const MatchRank = { exactCode: 0, exact: 1, prefix: 2, wordPrefix: 3, contains: 4 } as const;
export type MatchRankValue = (typeof MatchRank)[keyof typeof MatchRank];

export function rankMatch(key: string, query: string): MatchRankValue {
  if (key === query) return MatchRank.exact;
  if (key.startsWith(query)) return MatchRank.prefix;
  const at = key.indexOf(query);
  if (at > 0 && /[\s\-(,/]/u.test(key[at - 1]!)) return MatchRank.wordPrefix;
  return MatchRank.contains;
}

/**
 * Collects ranked hits: keeps the first `keep` per rank (they arrive in display order) and counts
 * all of them, so a page is read without sorting.
 */
export class RankedHits {
  private readonly buckets: number[][] = [[], [], [], [], []];
  total = 0;

  constructor(private readonly keep: number) {}

  add(id: number, rank: MatchRankValue): void {
    this.total += 1;
    const bucket = this.buckets[rank]!;
    if (bucket.length < this.keep) bucket.push(id);
  }

  page(offset: number, limit: number): number[] {
    const out: number[] = [];
    for (const bucket of this.buckets) {
      for (const id of bucket) {
        out.push(id);
        if (out.length >= offset + limit) return out.slice(offset);
      }
    }
    return out.slice(offset);
  }
}
