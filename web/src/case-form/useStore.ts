import { useCallback, useSyncExternalStore } from 'react';
import type { CaseStore } from './store';

/** A value derived from the case at `pointer`; re-renders only when the derived value changes. */
export function useCaseValue<T>(store: CaseStore, pointer: string, select: (value: unknown) => T): T {
  const subscribe = useCallback(
    (listener: () => void) => store.subscribe(pointer, listener),
    [store, pointer],
  );
  return useSyncExternalStore(subscribe, () => select(store.get(pointer)));
}

export const lengthOf = (value: unknown): number => (Array.isArray(value) ? value.length : 0);
