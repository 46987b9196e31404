/**
 * App-level session watchers (SPEC 8): the session expiry check every 2 s, which clears local
 * storage and shows an alert; and the storage event that notices a different account signing in
 * in another tab of the same browser and offers a refresh.
 */
import { goTo } from './api';
import { notify } from './notify';
import { SESSION_KEYS, session } from './session';
import { nowMs } from '../clock';

export const EXPIRY_CHECK_MS = 2000;

/** The account this tab works as; another tab signing in as someone else changes storage only. */
let tabAccount: string | null = session.account();

export function setTabAccount(account: string | null): void {
  tabAccount = account;
}

export function checkExpiry(now = nowMs()): boolean {
  if (!session.isExpired(now)) return false;
  session.clear();
  void notify
    .ask({
      tag: 'session',
      titleKey: 'session.expiredTitle',
      message: { key: 'session.expired' },
      buttons: [{ labelKey: 'session.relogin', value: 'relogin', appearance: 'primary' }],
    })
    .then(() => goTo('/login'));
  return true;
}

export function onStorage(event: Pick<StorageEvent, 'key' | 'newValue'>): boolean {
  if (event.key !== SESSION_KEYS.account || !event.newValue || event.newValue === tabAccount) return false;
  void notify
    .ask({
      tag: 'account-changed',
      titleKey: 'session.accountChangedTitle',
      message: { key: 'session.accountChanged' },
      buttons: [{ labelKey: 'session.refresh', value: 'refresh', appearance: 'primary' }],
    })
    .then(() => window.location.reload());
  return true;
}

/** Starts both watchers; returns the function that stops them. */
export function startWatchers(): () => void {
  const timer = setInterval(() => checkExpiry(), EXPIRY_CHECK_MS);
  const listener = (event: StorageEvent) => onStorage(event);
  window.addEventListener('storage', listener);
  return () => {
    clearInterval(timer);
    window.removeEventListener('storage', listener);
  };
}
