// Barcode split and verification, entirely over the static input buffer.
// Layout: prefix D cardNumber D cardSession D password (session may be empty),
// or the three-part prefix D cardNumber D password.

import {
  BARCODE, RESULT, SLOT_CARD_LENGTH, SLOT_CARD_OFFSET, SLOT_COUNTER_HI, SLOT_COUNTER_LO, SLOT_KEY_INDEX,
  SLOT_MATCHED_DELTA, SLOT_PASSWORD_OFFSET, SLOT_SESSION_LENGTH, SLOT_SESSION_OFFSET,
} from './buffers';
import {
  algorithm, delimiterLength, DELIMITER, intervalSeconds, KEY_PADS, keyCount, passLength, PREFIX,
  prefixLength, scheme, SCHEME_CARD_BOUND, sessionLength, window,
} from './config';
import { CTX_SIZE, digestLength, hashUpdate } from './hash';
import { hmacBegin, hmacEnd, hmacKey, hmacShort, PADS_SIZE, SHORT_MESSAGE_MAX } from './hmac';
import { constantTimeEqual, otpDigits } from './otp';

export const VERIFY_OK: i32 = 0;
export const VERIFY_PREFIX_MISMATCH: i32 = 1;
export const VERIFY_MALFORMED: i32 = 2;
export const VERIFY_CODE_MISMATCH: i32 = 3;

export const MAX_CARD_LENGTH: i32 = 64;

const CARD_LABEL: usize = memory.data<u8>([0x63, 0x61, 0x72, 0x64, 0x3a]); // "card:"
const CARD_KEY: usize = memory.data(32, 16);
const CARD_PADS: usize = memory.data(PADS_SIZE, 16);
const DERIVE_CTX: usize = memory.data(<i32>CTX_SIZE, 16);
const DIGITS: usize = memory.data(16, 16);

@inline function slot(index: i32, value: i32): void {
  store<i32>(RESULT + (<usize>index << 2), value);
}

/** Position of the next delimiter at or after `from` (before `end`), or -1. */
function findDelimiter(from: i32, end: i32): i32 {
  const first = load<u8>(DELIMITER);
  const last = end - delimiterLength;
  for (let i = from; i <= last; i++) {
    if (load<u8>(BARCODE + <usize>i) != first) continue;
    let j = 1;
    while (j < delimiterLength && load<u8>(BARCODE + <usize>(i + j)) == load<u8>(DELIMITER + <usize>j)) j++;
    if (j == delimiterLength) return i;
  }
  return -1;
}

function isCardChar(c: u32): bool {
  return (c - 48 < 10) || ((c | 32) - 97 < 26) || c == 45;
}

function isSessionChar(c: u32): bool {
  return (c - 48 < 10) || ((c | 32) - 97 < 26);
}

function allMatch(from: i32, len: i32, session: bool): bool {
  for (let i = 0; i < len; i++) {
    const c = <u32>load<u8>(BARCODE + <usize>(from + i));
    if (session ? !isSessionChar(c) : !isCardChar(c)) return false;
  }
  return true;
}

function allDigits(from: i32, len: i32): bool {
  for (let i = 0; i < len; i++) {
    if (<u32>load<u8>(BARCODE + <usize>(from + i)) - 48 >= 10) return false;
  }
  return true;
}

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

/**
 * Splits and checks the `len` barcode bytes in BARCODE at Unix time `nowMs`.
 * `truncated` says the host could not fit the whole input. Returns a VERIFY_*
 * code; offsets of the parts that could be read go to RESULT.
 */
export function verify(len: i32, truncated: i32, nowMs: f64): i32 {
  slot(SLOT_CARD_OFFSET, -1);
  slot(SLOT_CARD_LENGTH, 0);
  slot(SLOT_SESSION_OFFSET, -1);
  slot(SLOT_SESSION_LENGTH, 0);
  slot(SLOT_PASSWORD_OFFSET, -1);
  slot(SLOT_MATCHED_DELTA, 0);
  slot(SLOT_KEY_INDEX, -1);

  const d0 = findDelimiter(0, len);
  const field0End = d0 < 0 ? len : d0;
  if ((d0 < 0 && truncated != 0) || field0End != prefixLength) return VERIFY_PREFIX_MISMATCH;
  if (constantTimeEqual(BARCODE, PREFIX, prefixLength) == 0) return VERIFY_PREFIX_MISMATCH;
  if (d0 < 0) return VERIFY_MALFORMED;

  const cardStart = d0 + delimiterLength;
  const d1 = findDelimiter(cardStart, len);
  const cardLen = (d1 < 0 ? len : d1) - cardStart;
  const cardValid = cardLen >= 1 && cardLen <= MAX_CARD_LENGTH && !(d1 < 0 && truncated != 0) &&
    allMatch(cardStart, cardLen, false);
  if (cardValid) {
    slot(SLOT_CARD_OFFSET, cardStart);
    slot(SLOT_CARD_LENGTH, cardLen);
  }
  if (d1 < 0 || truncated != 0 || !cardValid) return VERIFY_MALFORMED;

  const p2 = d1 + delimiterLength;
  const d2 = findDelimiter(p2, len);
  let sessionStart = p2;
  let sessionLen = 0;
  let passStart = p2;
  if (d2 >= 0) {
    passStart = d2 + delimiterLength;
    if (findDelimiter(passStart, len) >= 0) return VERIFY_MALFORMED;
    sessionLen = d2 - p2;
  }
  const passLen = len - passStart;
  if (sessionLen != 0 && (sessionLen != sessionLength || !allMatch(sessionStart, sessionLen, true))) {
    return VERIFY_MALFORMED;
  }
  if (passLen != passLength || !allDigits(passStart, passLen)) return VERIFY_MALFORMED;
  if (sessionLen != 0) {
    slot(SLOT_SESSION_OFFSET, sessionStart);
    slot(SLOT_SESSION_LENGTH, sessionLen);
  }
  slot(SLOT_PASSWORD_OFFSET, passStart);

  const nowSeconds: u64 = nowMs > 0 ? <u64>(nowMs / 1000) : 0;
  const current = nowSeconds / intervalSeconds;
  const password = BARCODE + <usize>passStart;
  const cardBound = scheme == SCHEME_CARD_BOUND;
  // rfc6238 reads the card number and session but keeps them out of the MAC.
  const macSessionLen = cardBound ? sessionLen : 0;
  // The current key first; previous keys only for what it refuses.
  for (let k = 0; k < keyCount; k++) {
    let pads = KEY_PADS + <usize>(k * PADS_SIZE);
    if (cardBound) {
      deriveCardKeyInto(pads, BARCODE + <usize>cardStart, cardLen, CARD_KEY);
      hmacKey(algorithm, CARD_PADS, CARD_KEY, digestLength(algorithm));
      pads = CARD_PADS;
    }
    if (matchWindow(pads, current, BARCODE + <usize>sessionStart, macSessionLen, password)) {
      slot(SLOT_KEY_INDEX, k);
      return VERIFY_OK;
    }
  }
  return VERIFY_CODE_MISMATCH;
}

/** Tries the steps of the window under `pads`; on a match, its delta and counter go to RESULT. */
function matchWindow(pads: usize, current: u64, session: usize, sessionLen: i32, password: usize): bool {
  // Order 0, -1, +1, -2, +2, ...: the present step first, as valid scans mostly are.
  for (let i = 0, tries = 2 * window + 1; i < tries; i++) {
    const magnitude = <u64>((i + 1) >> 1);
    const earlier = (i & 1) == 1;
    if (earlier && current < magnitude) continue;
    const counter = earlier ? current - magnitude : current + magnitude;
    otpDigits(algorithm, pads, counter, session, sessionLen, passLength, DIGITS);
    if (constantTimeEqual(DIGITS, password, passLength) == 1) {
      slot(SLOT_MATCHED_DELTA, earlier ? -<i32>magnitude : <i32>magnitude);
      slot(SLOT_COUNTER_LO, <i32>(counter & 0xffffffff));
      slot(SLOT_COUNTER_HI, <i32>(counter >>> 32));
      return true;
    }
  }
  return false;
}
