import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { DisplayLanguage, LocalisedText, Params } from './index';
import { pickLabel, translate } from './index';
import { session } from '../app/session';

export interface LanguageApi {
  language: DisplayLanguage;
  setLanguage(language: DisplayLanguage): void;
  /** A catalogue text in the display language. */
  t(key: string, params?: Params): string;
  /** A server-sent zh/en label in the display language. */
  pick(text: LocalisedText): string;
}

const LanguageContext = createContext<LanguageApi | null>(null);

export function LanguageProvider({ children }: { children: ReactNode }) {
  const [language, setState] = useState<DisplayLanguage>(() => session.language());
  const setLanguage = useCallback((next: DisplayLanguage) => {
    session.setLanguage(next);
    document.documentElement.lang = next === 'en' ? 'en' : 'zh-CN';
    setState(next);
  }, []);
  const api = useMemo<LanguageApi>(
    () => ({
      language,
      setLanguage,
      t: (key, params) => translate(language, key, params),
      pick: (text) => pickLabel(language, text),
    }),
    [language, setLanguage],
  );
  return <LanguageContext.Provider value={api}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): LanguageApi {
  const api = useContext(LanguageContext);
  if (!api) throw new Error('useLanguage outside LanguageProvider');
  return api;
}
