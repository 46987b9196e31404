/**
 * The server's one reader of the wall clock. Everything else takes the time from a `Clock`: routes,
 * seeds and jobs from `deps.clock`, the store from the clock it is opened with, and the engine from
 * the `now` its caller passes. Tests hand the platform a clock of their own (`settableClock`), so a
 * suite means the same thing on any day (eslint.config.js refuses `Date.now()` and an argument-less
 * `new Date()` anywhere else in server/, engine/ and web/src).
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * For readers that never stamp or compare times (resolving a configuration, for instance): reaching
 * it is a programming error, told loudly rather than answered with the wall clock.
 */
export const noClock: Clock = {
  now() {
    throw new Error('this operation has no clock: pass deps.clock');
  },
};

/** A test clock: starts at `start` (default: the wall clock once) and moves only when told. */
export interface SettableClock extends Clock {
  set(at: Date | string | number): void;
  advance(ms: number): void;
}

export function settableClock(start: Date | string | number = systemClock.now()): SettableClock {
  let ms = new Date(start).getTime();
  if (Number.isNaN(ms)) throw new Error(`settableClock: not a time: ${String(start)}`);
  return {
    now: () => new Date(ms),
    set(at) {
      ms = new Date(at).getTime();
    },
    advance(delta) {
      ms += delta;
    },
  };
}
