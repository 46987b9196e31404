/**
 * The browser's one reader of the wall clock (eslint.config.js lets no other file in web/src do
 * it): dates the app shows or suggests, session expiry and its timers read the time here. Tests
 * move it with `setClock` instead of faking the global Date.
 */
export interface WebClock {
  now(): Date;
}

const wall: WebClock = { now: () => new Date() };
let current: WebClock = wall;

/** The current time. */
export const now = (): Date => current.now();

/** The current time in epoch milliseconds. */
export const nowMs = (): number => current.now().getTime();

/** Today's date as YYYY-MM-DD (UTC, as the date inputs have always suggested it). */
export const todayIso = (): string => current.now().toISOString().slice(0, 10);

/** Replaces the clock (tests); `null` goes back to the wall clock. */
export function setClock(clock: WebClock | null): void {
  current = clock ?? wall;
}
