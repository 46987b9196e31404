/**
 * A substring index over a fixed list of texts: every character pair (bigram) of each text's
 * search key points at the texts holding it. A query of two or more characters reads the posting
 * list of its rarest bigram and checks the candidates, so a search touches a few thousand texts
 * rather than all of them.
 *
 * Texts are numbered in the caller's display order, and posting lists keep that order, so hits
 * come out already sorted within each rank and a search never sorts. Two more lists per bigram
 * (texts starting with it, texts with a word starting with it) find the best-ranked hits without
 * ranking every candidate of a common two-character query.
 */
import { searchKey } from './text';

/** How a text matched a query, best first. */
export const MatchRank = { exactCode: 0, exact: 1, prefix: 2, wordPrefix: 3, contains: 4 } as const;
export type MatchRankValue = (typeof MatchRank)[keyof typeof MatchRank];

const WORD_SEPARATOR = /[\s\-(,/]/u;

function isWordStart(key: string, at: number): boolean {
  return at > 0 && WORD_SEPARATOR.test(key[at - 1]!);
}

export function rankMatch(key: string, query: string): MatchRankValue {
  if (key === query) return MatchRank.exact;
  if (key.startsWith(query)) return MatchRank.prefix;
  for (let at = key.indexOf(query, 1); at > 0; at = key.indexOf(query, at + 1)) {
    if (isWordStart(key, at)) return MatchRank.wordPrefix;
  }
  return MatchRank.contains;
}

/**
 * Collects ranked hits: keeps the first `keep` per rank (they arrive in display order) and counts
 * all of them, so a page is read without sorting.
 */
export class RankedHits {
  private readonly buckets: number[][] = [[], [], [], [], []];
  total = 0;

  constructor(readonly keep: number) {}

  /** Counts a hit and keeps it when its rank still has room. */
  add(id: number, rank: MatchRankValue): void {
    this.total += 1;
    this.place(id, rank);
  }

  /** Keeps a hit already counted. */
  place(id: number, rank: MatchRankValue): void {
    const bucket = this.buckets[rank]!;
    if (bucket.length < this.keep) bucket.push(id);
  }

  full(rank: MatchRankValue): boolean {
    return this.buckets[rank]!.length >= this.keep;
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

type Postings = Map<number, Int32Array>;

function freeze(lists: Map<number, number[]>): Postings {
  const out: Postings = new Map();
  for (const [gram, list] of lists) out.set(gram, Int32Array.from(list));
  return out;
}

function append(lists: Map<number, number[]>, gram: number, id: number): void {
  let list = lists.get(gram);
  if (!list) lists.set(gram, (list = []));
  // A text repeating a bigram is listed once: ids arrive in order, so compare with the last.
  if (list[list.length - 1] !== id) list.push(id);
}

/** Ids in both ascending lists. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}

const gramAt = (text: string, i: number) => text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
const EMPTY = new Int32Array(0);

export class NgramIndex {
  /** Bigram (two UTF-16 units as one number) -> ids of the texts holding it, ascending. */
  private readonly postings: Postings;
  private readonly starts: Postings;
  private readonly wordStarts: Postings;
  readonly keys: string[];

  constructor(texts: readonly string[]) {
    this.keys = texts.map(searchKey);
    const all = new Map<number, number[]>();
    const starts = new Map<number, number[]>();
    const wordStarts = new Map<number, number[]>();
    for (let id = 0; id < this.keys.length; id++) {
      const key = this.keys[id]!;
      for (let i = 0; i + 1 < key.length; i++) {
        const gram = gramAt(key, i);
        append(all, gram, id);
        if (i === 0) append(starts, gram, id);
        else if (isWordStart(key, i)) append(wordStarts, gram, id);
      }
    }
    this.postings = freeze(all);
    this.starts = freeze(starts);
    this.wordStarts = freeze(wordStarts);
  }

  /**
   * Every text containing `query` (a search key of two or more characters) that `accept` takes is
   * counted in `hits`; the best `hits.keep` of each rank are kept.
   */
  collect(query: string, accept: (id: number) => boolean, hits: RankedHits): void {
    if (query.length < 2) return;
    const lists: Int32Array[] = [];
    for (let i = 0; i + 1 < query.length; i++) {
      const list = this.postings.get(gramAt(query, i));
      if (!list) return;
      lists.push(list);
    }
    lists.sort((a, b) => a.length - b.length);
    // The two rarest lists intersected: far fewer texts to check character by character.
    const rarest = lists.length > 1 ? intersect(lists[0]!, lists[1]!) : lists[0]!;
    const keys = this.keys;
    const exactPair = query.length === 2;
    // Rank candidates until the last rank is full; past that only better ranks can still enter.
    let rankedUpTo = Infinity;
    for (let k = 0; k < rarest!.length; k++) {
      const id = rarest![k]!;
      if (!exactPair && !keys[id]!.includes(query)) continue;
      if (!accept(id)) continue;
      hits.total += 1;
      if (rankedUpTo === Infinity) {
        hits.place(id, rankMatch(keys[id]!, query));
        if (hits.full(MatchRank.contains)) rankedUpTo = id;
      }
    }
    if (rankedUpTo === Infinity) return;
    const first = gramAt(query, 0);
    const later = (list: Int32Array | undefined, visit: (id: number, key: string) => void) => {
      const ids = list ?? EMPTY;
      for (let k = 0; k < ids.length; k++) if (ids[k]! > rankedUpTo) visit(ids[k]!, keys[ids[k]!]!);
    };
    later(this.starts.get(first), (id, key) => {
      if (key.startsWith(query) && accept(id))
        hits.place(id, key === query ? MatchRank.exact : MatchRank.prefix);
    });
    later(this.wordStarts.get(first), (id, key) => {
      if (!hits.full(MatchRank.wordPrefix) && rankMatch(key, query) === MatchRank.wordPrefix && accept(id)) {
        hits.place(id, MatchRank.wordPrefix);
      }
    });
  }
}
