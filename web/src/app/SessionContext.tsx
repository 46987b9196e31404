/**
 * The signed-in session as React state: who the user is, their menus and permissions, and the
 * sign-in, sign-out and switch actions. Persisted in localStorage through `session`.
 */
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { SessionInfo } from '../api/identity';
import { loadSessionInfo, logout, switchSession } from './identity';
import { session } from './session';
import { setTabAccount } from './watchers';

export interface SessionApi {
  info: SessionInfo | null;
  /** Stores a fresh token and loads who it belongs to. */
  signIn(token: string, account: string): Promise<SessionInfo>;
  /** Ends the session on the server (best effort) and clears local storage. */
  signOut(): Promise<void>;
  /** Re-reads the session info (after a password change). */
  reload(): Promise<SessionInfo>;
  /** Switches tenant and/or organisation: a new token and session info. */
  switchTo(target: { tenantId?: string; organisationId?: string }): Promise<SessionInfo>;
}

const SessionContext = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [info, setInfo] = useState<SessionInfo | null>(() => (session.token() ? session.info() : null));

  const signIn = useCallback(async (token: string, account: string) => {
    session.start(token, account);
    let loaded: SessionInfo;
    try {
      loaded = await loadSessionInfo(true);
    } catch (error) {
      session.dropToken();
      throw error;
    }
    session.setInfo(loaded);
    setTabAccount(account);
    setInfo(loaded);
    return loaded;
  }, []);

  const signOut = useCallback(async () => {
    await logout().catch(() => undefined);
    session.clear();
    setTabAccount(null);
    setInfo(null);
  }, []);

  const reload = useCallback(async () => {
    const loaded = await loadSessionInfo();
    session.setInfo(loaded);
    setInfo(loaded);
    return loaded;
  }, []);

  const switchTo = useCallback(
    async (target: { tenantId?: string; organisationId?: string }) => {
      const view = await switchSession(target);
      return signIn(view.token, view.user.account);
    },
    [signIn],
  );

  const api = useMemo(
    () => ({ info, signIn, signOut, reload, switchTo }),
    [info, signIn, signOut, reload, switchTo],
  );
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error('useSession outside SessionProvider');
  return api;
}
