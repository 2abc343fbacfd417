import { NOW } from './fixtures.js';

/**
 * The one test clock: code under test reads `now` (pass it as a `clock` option), the test moves it with `advance`
 * and `set`. Tests inject it instead of faking timers, so they stay deterministic (see docs/architecture.md).
 */
export interface TestClock {
  /** The clock's current instant in epoch ms; a bound function, so `clock: time.now` works. */
  readonly now: () => number;
  /** Moves the clock forward (or back, for a negative `ms`). */
  advance(ms: number): void;
  /** Puts the clock at the instant `ms`. */
  set(ms: number): void;
}

/**
 * A clock that stands still at `start` (default {@link NOW}) until moved; with `'wall'` it follows the wall clock
 * plus whatever the test has advanced, for servers whose own timers must still run.
 */
export function testClock(start: number | 'wall' = NOW): TestClock {
  const wall = start === 'wall';
  let at = wall ? 0 : start;
  const now = wall ? () => Date.now() + at : () => at;
  return {
    now,
    advance(ms) {
      at += ms;
    },
    set(ms) {
      at = wall ? ms - Date.now() : ms;
    },
  };
}
