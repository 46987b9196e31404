/**
 * Display names of referenced objects for lists and forms: ids asked during one render are
 * gathered and read in one `GET /api/names` batch (per kind a query property `<kind>Ids`), and the
 * answers kept for the page (useNames clears them when the path changes). Ids the
 * caller may not see come back absent and are remembered as such, so they are not asked again.
 */
import { NAME_BATCH_MAX } from '@pv/engine';
import type { DisplayName, NameKind } from '@pv/engine';
import type { LocalisedText } from '../i18n';

export { NAME_BATCH_MAX, NAME_KINDS } from '@pv/engine';
export type { DisplayName, NameKind };

type Answer = Partial<Record<NameKind, Record<string, DisplayName>>>;
export type NameReader = (params: Record<string, string[]>) => Promise<Answer>;

export interface NameCache {
  /** The name when known; null when the server said it has none for the caller; undefined while unknown. */
  get(kind: NameKind, id: string): DisplayName | null | undefined;
  /** Asks for ids not yet known; one read per tick, whatever the number of callers. */
  want(kind: NameKind, ids: Iterable<string>): void;
  /** Resolves once every id is answered or its read failed (an export of rows not on screen). */
  load(kind: NameKind, ids: Iterable<string>): Promise<void>;
  /** Called after each answer arrives (or a read fails). */
  subscribe(listener: () => void): () => void;
  clear(): void;
}

export function createNameCache(
  read: NameReader,
  schedule: (run: () => void) => void = queueMicrotask,
): NameCache {
  const known = new Map<string, DisplayName | null>();
  /** Asked and not answered yet (waiting for the tick, or in flight). */
  const asked = new Set<string>();
  const pending = new Map<NameKind, Set<string>>();
  const listeners = new Set<() => void>();
  let scheduled = false;
  let generation = 0;
  const key = (kind: NameKind, id: string) => `${kind}\u0000${id}`;

  const flush = async () => {
    scheduled = false;
    const batch = new Map<NameKind, string[]>();
    for (const [kind, ids] of pending) {
      const all = [...ids];
      batch.set(kind, all.slice(0, NAME_BATCH_MAX));
      // Ids beyond one batch wait for the next round.
      if (all.length > NAME_BATCH_MAX) pending.set(kind, new Set(all.slice(NAME_BATCH_MAX)));
      else pending.delete(kind);
    }
    if (pending.size) scheduleFlush();
    if (!batch.size) return;
    const params = Object.fromEntries([...batch].map(([kind, ids]) => [`${kind}Ids`, ids]));
    const round = generation;
    let answer: Answer | null = null;
    try {
      answer = await read(params);
    } catch {
      // Unreadable now: a later render asks again; the ids stay shown meanwhile.
    }
    if (round !== generation) return;
    for (const [kind, ids] of batch)
      for (const id of ids) {
        asked.delete(key(kind, id));
        if (answer) known.set(key(kind, id), answer[kind]?.[id] ?? null);
      }
    for (const listener of listeners) listener();
  };
  const scheduleFlush = () => {
    if (scheduled) return;
    scheduled = true;
    schedule(() => void flush());
  };

  return {
    get: (kind, id) => known.get(key(kind, id)),
    want(kind, ids) {
      for (const id of ids) {
        const k = key(kind, id);
        if (!id || known.has(k) || asked.has(k)) continue;
        asked.add(k);
        const set = pending.get(kind) ?? new Set<string>();
        set.add(id);
        pending.set(kind, set);
      }
      if (pending.size) scheduleFlush();
    },
    load(kind, ids) {
      const wanted = [...ids].filter(Boolean);
      this.want(kind, wanted);
      const settled = () => wanted.every((id) => !asked.has(key(kind, id)));
      return new Promise<void>((resolve) => {
        if (settled()) return resolve();
        const stop = this.subscribe(() => {
          if (!settled()) return;
          stop();
          resolve();
        });
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    clear() {
      generation += 1;
      known.clear();
      asked.clear();
      pending.clear();
    },
  };
}

/** What a reference shows: a project its code; a site `code name`; others their name, in the display language. */
export function nameText(kind: NameKind, name: DisplayName, pick: (text: LocalisedText) => string): string {
  const localised = pick({ zh: name.name, en: name.nameEn || name.name });
  if (kind === 'project') return name.code || localised;
  if (kind === 'site') return name.code ? `${name.code} ${localised}` : localised;
  return localised;
}
