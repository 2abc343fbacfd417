// The password check of a parsed barcode: the verification keys in order
// (the current key first; previous keys only for what it refuses), and for
// each the steps of the window, present step first.

import { SLOT_COUNTER_HI, SLOT_COUNTER_LO, SLOT_KEY_INDEX, SLOT_MATCHED_DELTA } from './buffers';
import { cardCacheClaim, cardCacheFind, cardCacheSlot } from './cardcache';
import { algorithm, KEY_PADS, keyCount, passLength, scheme, SCHEME_CARD_BOUND, window } from './config';
import { CTX_SIZE, digestLength, hashUpdate } from './hash';
import { hmacBegin, hmacEnd, hmacKey, hmacShort, PADS_SIZE, SHORT_MESSAGE_MAX } from './hmac';
import { memoAt, memoCode } from './memo';
import { constantTimeEqual, otpDigits } from './otp';
import { parsedCard, parsedCardLength, parsedPassword, parsedSession, parsedSessionLength } from './parsed';

const CARD_LABEL: usize = memory.data<u8>([0x63, 0x61, 0x72, 0x64, 0x3a]); // "card:"
const CARD_KEY: usize = memory.data(32, 16);
const DERIVE_CTX: usize = memory.data(<i32>CTX_SIZE, 16);
const DIGITS: usize = memory.data(16, 16);

/** cardKey = HMAC_alg(partnerKey, "card:" || cardNumber) under the partner key's `pads`, written at `out`. */
export function deriveCardKeyInto(pads: usize, card: usize, cardLen: i32, out: usize): void {
  if (5 + cardLen <= SHORT_MESSAGE_MAX) {
    hmacShort(algorithm, pads, CARD_LABEL, 5, card, cardLen, out);
    return;
  }
  hmacBegin(DERIVE_CTX, algorithm, pads);
  hashUpdate(DERIVE_CTX, algorithm, CARD_LABEL, 5);
  hashUpdate(DERIVE_CTX, algorithm, card, cardLen);
  hmacEnd(DERIVE_CTX, algorithm, pads, out);
}

/** Derives `card`'s key under verification key `key` and absorbs it into the pads at `out` (4 compressions). */
export function deriveCardPads(key: i32, card: usize, cardLen: i32, out: usize): void {
  deriveCardKeyInto(KEY_PADS + <usize>(key * PADS_SIZE), card, cardLen, CARD_KEY);
  hmacKey(algorithm, out, CARD_KEY, digestLength(algorithm));
  memory.fill(CARD_KEY, 0, 32);
}

/** The pads of `card`'s key under verification key `key`: from the cache, or derived into it. */
export function cardPads(key: i32, card: usize, cardLen: i32): usize {
  const slot = cardCacheSlot(key, card, cardLen);
  const cached = cardCacheFind(slot, key, card, cardLen);
  if (cached != 0) return cached;
  const pads = cardCacheClaim(slot, key, card, cardLen);
  deriveCardPads(key, card, cardLen, pads);
  return pads;
}

/**
 * Checks the password of the barcode just parsed (at `base`) at step
 * `current`; on a match, which key, delta and counter go to `slots`. A
 * card-bound caller that has key 0's card pads already passes them as
 * `pads0`, and `firstTry` > 0 when it has tried the first steps under them.
 */
export function matchKeys(base: usize, current: u64, slots: usize, pads0: usize, firstTry: i32): bool {
  const password = base + <usize>parsedPassword;
  if (scheme == SCHEME_CARD_BOUND) {
    const card = base + <usize>parsedCard;
    const session = base + <usize>parsedSession;
    for (let k = 0; k < keyCount; k++) {
      const pads = k == 0 && pads0 != 0 ? pads0 : cardPads(k, card, parsedCardLength);
      if (matchWindow(pads, -1, k == 0 ? firstTry : 0, current, session, parsedSessionLength, password, slots)) {
        store<i32>(slots + (<usize>SLOT_KEY_INDEX << 2), k);
        return true;
      }
    }
    return false;
  }
  // rfc6238 reads the card number and session but keeps them out of the MAC: the codes are the same for every scan in a
  // step.
  memoAt(current);
  for (let k = 0; k < keyCount; k++) {
    if (matchWindow(KEY_PADS + <usize>(k * PADS_SIZE), k, 0, current, 0, 0, password, slots)) {
      store<i32>(slots + (<usize>SLOT_KEY_INDEX << 2), k);
      return true;
    }
  }
  return false;
}

/** Records a match of step `counter` (`delta` steps from now) in `slots`. */
export function recordMatch(slots: usize, delta: i32, counter: u64): void {
  store<i32>(slots + (<usize>SLOT_MATCHED_DELTA << 2), delta);
  store<i32>(slots + (<usize>SLOT_COUNTER_LO << 2), <i32>(counter & 0xffffffff));
  store<i32>(slots + (<usize>SLOT_COUNTER_HI << 2), <i32>(counter >>> 32));
}

/**
 * Tries the steps of the window from try `from` under `pads`; `memoKey` >= 0
 * takes the codes from the rfc6238 memo of that key. On a match, its delta
 * and counter go to `slots`.
 */
function matchWindow(
  pads: usize, memoKey: i32, from: i32, current: u64, session: usize, sessionLen: i32, password: usize, slots: usize,
): bool {
  // Order 0, -1, +1, -2, +2, ...: the present step first, as valid scans mostly are.
  for (let i = from, tries = 2 * window + 1; i < tries; i++) {
    const magnitude = <u64>((i + 1) >> 1);
    const earlier = (i & 1) == 1;
    if (earlier && current < magnitude) continue;
    const counter = earlier ? current - magnitude : current + magnitude;
    let digits = DIGITS;
    if (memoKey >= 0) digits = memoCode(algorithm, memoKey, i, pads, counter, passLength);
    else otpDigits(algorithm, pads, counter, session, sessionLen, passLength, DIGITS);
    if (constantTimeEqual(digits, password, passLength) == 1) {
      recordMatch(slots, earlier ? -<i32>magnitude : <i32>magnitude, counter);
      return true;
    }
  }
  return false;
}
