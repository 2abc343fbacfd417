// The rfc6238 scheme's expected codes, memoised per time step. Under rfc6238
// the code depends only on the verification key and the counter (the card
// number and session stay out of the MAC), so every scan within one step
// compares against the same few codes: each is computed once, on first need,
// and a scan costs its split and the constant-time compares.

import { otpDigits } from './otp';

/** The current key and up to four previous ones (config.ts MAX_KEYS). */
const MAX_KEYS: i32 = 5;
/** Most tries in a window: steps 0, -1, +1, ... for a window of up to 10. */
const MAX_TRIES: i32 = 21;
const CODE_SIZE: i32 = 16;

/** Expected codes (ASCII digits), CODE_SIZE apart, for each key and try of the window. */
const CODES: usize = memory.data(MAX_KEYS * MAX_TRIES * CODE_SIZE, 16);
/** The generation each code was computed in; a code is current when it equals `generation`. */
const GENERATIONS: usize = memory.data(MAX_KEYS * MAX_TRIES * 4, 16);

let memoStep: u64 = 0;
let generation: u32 = 1;

/** Forgets every memoised code (a new step, a new key). */
export function memoReset(): void {
  generation++;
  if (generation == 0) {
    // After 2^32 resets an old entry's generation could match again: clear them all instead.
    memory.fill(GENERATIONS, 0, <usize>(MAX_KEYS * MAX_TRIES * 4));
    generation = 1;
  }
}

/** Makes the memo hold codes of step `current` (a step change drops the old ones). */
export function memoAt(current: u64): void {
  if (current != memoStep) {
    memoStep = current;
    memoReset();
  }
}

/**
 * The expected code of try `tryIndex` (counter `counter`) under key `key`
 * (its pads at `pads`), computed on first need in the present step.
 */
export function memoCode(
  alg: i32, key: i32, tryIndex: i32, pads: usize, counter: u64, digits: i32,
): usize {
  const index = <usize>(key * MAX_TRIES + tryIndex);
  const code = CODES + index * <usize>CODE_SIZE;
  const seen = GENERATIONS + (index << 2);
  if (load<u32>(seen) != generation) {
    otpDigits(alg, pads, counter, 0, 0, digits, code);
    store<u32>(seen, generation);
  }
  return code;
}
