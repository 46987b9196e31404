/**
 * Answers kept across requests while this process wrote none of the collections they are read
 * from (Store.writeCounter), for at most KEPT_ANSWER_MS of real time (writes by other server
 * instances): an object's project scope, a file's owners, a user's project memberships. A write
 * in this process drops the kept answer at once; a kept answer is returned without a promise.
 */
import type { Store, WriteCounter } from '../store';

/** Kept answers expire after this long (real time): writes by other server instances. */
export const KEPT_ANSWER_MS = 2000;
const LIMIT = 10_000;

interface Kept<T> {
  value: T;
  generation: number;
  at: number;
}

/**
 * Entries under two keys (a tenant, then an id), at most LIMIT of them (all dropped beyond). Two
 * levels, not one joined key: a request's lookup reuses the tenant id's string (its hash kept by
 * the engine) instead of building and hashing a new string (the busiest path of every request).
 */
export class KeptTable<V> {
  #byOuter = new Map<string, Map<string, V>>();
  #size = 0;

  get(outer: string, inner: string): V | undefined {
    return this.#byOuter.get(outer)?.get(inner);
  }

  set(outer: string, inner: string, value: V): void {
    if (this.#size >= LIMIT) this.clear();
    let entries = this.#byOuter.get(outer);
    if (!entries) this.#byOuter.set(outer, (entries = new Map()));
    if (!entries.has(inner)) this.#size++;
    entries.set(inner, value);
  }

  delete(outer: string, inner: string): void {
    if (this.#byOuter.get(outer)?.delete(inner)) this.#size--;
  }

  clear(): void {
    this.#byOuter.clear();
    this.#size = 0;
  }
}

/**
 * One kind of kept answer (its own keys: the tenant, then the object's id), per store. `compute`
 * is called with the id and `context` only when no current answer is kept: a module-level function
 * with its context passed along costs no closure per lookup (the busy case is a hit).
 */
export function answerKeeper<T>(collections: readonly string[]) {
  const perStore = new WeakMap<object, { kept: KeptTable<Kept<T>>; writes: WriteCounter }>();
  return <C = undefined>(
    store: Pick<Store, 'writeCounter'>,
    tenantId: string,
    id: string,
    compute: (id: string, context: C) => Promise<T>,
    context?: C,
  ): T | Promise<T> => {
    let entry = perStore.get(store);
    if (!entry)
      perStore.set(store, (entry = { kept: new KeptTable(), writes: store.writeCounter(collections) }));
    const kept = entry.kept;
    // Read before the answer is: a write landing meanwhile leaves the kept answer unused.
    const generation = entry.writes.count;
    const now = performance.now();
    const hit = kept.get(tenantId, id);
    if (hit && hit.generation === generation && now - hit.at < KEPT_ANSWER_MS) return hit.value;
    const into = kept;
    return compute(id, context as C).then((value) => {
      into.set(tenantId, id, { value, generation, at: now });
      return value;
    });
  };
}
