/**
 * The page's display names: `name(kind, id)` answers a referenced object's name in the display
 * language, asking the server for the ids of one render in one batch (names.ts); the component
 * renders again when the names arrive. The cache lives for the page (cleared when the path changes).
 */
import { useCallback, useEffect, useReducer } from 'react';
import { useLocation } from 'react-router-dom';
import { api } from '../app/api';
import { useLanguage } from '../i18n/LanguageContext';
import { createNameCache, nameText } from './names';
import type { NameKind } from './names';

export const pageNames = createNameCache((params) => api.request('/names', { params, silent: true }));
let cachedPath: string | null = null;

export interface NamesApi {
  /** The name of the object, '' while it is being read, the id itself when the caller may not see it. */
  name(kind: NameKind, id: unknown): string;
  /** Asks for many ids at once (a page of rows) before they render. */
  want(kind: NameKind, ids: Iterable<unknown>): void;
  /** Reads the names of many ids and resolves when they are known (exports). */
  load(kind: NameKind, ids: Iterable<unknown>): Promise<void>;
}

export function useNames(): NamesApi {
  const { pick } = useLanguage();
  const { pathname } = useLocation();
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  if (cachedPath !== pathname) {
    if (cachedPath !== null) pageNames.clear();
    cachedPath = pathname;
  }
  useEffect(() => pageNames.subscribe(bump), []);
  const want = useCallback((kind: NameKind, ids: Iterable<unknown>) => {
    const strings = [...ids].filter((id): id is string => typeof id === 'string' && id !== '');
    if (strings.length) pageNames.want(kind, strings);
  }, []);
  const name = useCallback(
    (kind: NameKind, id: unknown) => {
      if (typeof id !== 'string' || !id) return '';
      const known = pageNames.get(kind, id);
      if (known === undefined) {
        pageNames.want(kind, [id]);
        return '';
      }
      return known ? nameText(kind, known, pick) : id;
    },
    // version: a new function after each answer, so memoised cells render again.
    [pick, version],
  );
  const load = useCallback(
    (kind: NameKind, ids: Iterable<unknown>) =>
      pageNames.load(
        kind,
        [...ids].filter((id): id is string => typeof id === 'string' && id !== ''),
      ),
    [],
  );
  return { name, want, load };
}
