/**
 * Answers kept across requests while this process wrote none of the collections they are read
 * from (Store.writeGeneration), for at most KEPT_ANSWER_MS of real time (writes by other server
 * instances): an object's project scope, a file's owners, a user's project memberships. A write
 * in this process drops the kept answer at once; a kept answer is returned without a promise.
 */
import type { Store } from '../store';

/** Kept answers expire after this long (real time): writes by other server instances. */
export const KEPT_ANSWER_MS = 2000;
const LIMIT = 10_000;

interface Kept<T> {
  value: T;
  generation: number;
  at: number;
}

/** One kind of kept answer (its own keys), per store. */
export function answerKeeper<T>(collections: readonly string[]) {
  const perStore = new WeakMap<object, Map<string, Kept<T>>>();
  return (store: Pick<Store, 'writeGeneration'>, key: string, compute: () => Promise<T>): T | Promise<T> => {
    let kept = perStore.get(store);
    if (!kept) perStore.set(store, (kept = new Map()));
    // Read before the answer is: a write landing meanwhile leaves the kept answer unused.
    let generation = 0;
    for (const name of collections) generation += store.writeGeneration(name);
    const now = performance.now();
    const hit = kept.get(key);
    if (hit && hit.generation === generation && now - hit.at < KEPT_ANSWER_MS) return hit.value;
    const into = kept;
    return compute().then((value) => {
      if (into.size > LIMIT) into.clear();
      into.set(key, { value, generation, at: now });
      return value;
    });
  };
}
