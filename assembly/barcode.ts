// Barcode split and verification over a barcode's bytes in linear memory
// (BARCODE for a single call, a slot of the batch area for a batch).
// Layout: prefix D cardNumber D cardSession D password (session may be empty),
// or the three-part prefix D cardNumber D password.

import {
  BARCODE, RESULT, SLOT_CARD_LENGTH, SLOT_CARD_OFFSET, SLOT_KEY_INDEX, SLOT_MATCHED_DELTA, SLOT_PASSWORD_OFFSET,
  SLOT_SESSION_LENGTH, SLOT_SESSION_OFFSET,
} from './buffers';
import { delimiterLength, DELIMITER, intervalSeconds, passLength, PREFIX, prefixLength, sessionLength } from './config';
import { matchKeys } from './match';
import { constantTimeEqual } from './otp';
import { setParsed } from './parsed';

export const VERIFY_OK: i32 = 0;
export const VERIFY_PREFIX_MISMATCH: i32 = 1;
export const VERIFY_MALFORMED: i32 = 2;
export const VERIFY_CODE_MISMATCH: i32 = 3;
/** `parseBarcode`: well formed, the password is still to be checked. */
export const VERIFY_PARSED: i32 = -1;

/** Card numbers are 1 to 64 UTF-8 bytes (the card cache holds 64). */
export const MAX_CARD_LENGTH: i32 = 64;

@inline function slot(slots: usize, index: i32, value: i32): void {
  store<i32>(slots + (<usize>index << 2), value);
}

// Character classes of a barcode's fields, one table look-up a byte (the
// range tests they replace branched per byte, twice per field). The interface
// document types the card number as any String and fixes only the session's
// length, so the classes refuse only what cannot be a character of them.
const DIGIT: u8 = 1;
const SESSION_CHAR: u8 = 2; // printable ASCII, space to tilde
const CARD_CHAR: u8 = 4; // any UTF-8 byte but the C0 controls and DEL
const CLASSES: usize = memory.data(256, 16);
for (let c = 0; c < 256; c++) {
  const digit = c >= 48 && c < 58;
  const printable = c >= 32 && c < 127;
  store<u8>(
    CLASSES + <usize>c,
    (digit ? DIGIT : 0) | (printable ? SESSION_CHAR : 0) | (c >= 32 && c != 127 ? CARD_CHAR : 0),
  );
}

/** Position of the next delimiter at or after `from` (before `end`), or -1. */
function findDelimiter(base: usize, from: i32, end: i32): i32 {
  const first = load<u8>(DELIMITER);
  if (delimiterLength == 1) {
    for (let i = from; i < end; i++) if (load<u8>(base + <usize>i) == first) return i;
    return -1;
  }
  const last = end - delimiterLength;
  for (let i = from; i <= last; i++) {
    if (load<u8>(base + <usize>i) != first) continue;
    let j = 1;
    while (j < delimiterLength && load<u8>(base + <usize>(i + j)) == load<u8>(DELIMITER + <usize>j)) j++;
    if (j == delimiterLength) return i;
  }
  return -1;
}

/** True when each of the `len` bytes at `from` is of class `kind`. */
function allOf(base: usize, from: i32, len: i32, kind: u8): bool {
  let all: u8 = kind;
  for (let i = 0; i < len; i++) all &= load<u8>(CLASSES + <usize>load<u8>(base + <usize>(from + i)));
  return all != 0;
}

/**
 * Splits and checks the form of the `len` barcode bytes at `base`;
 * `truncated` says the host could not fit the whole input. Offsets of the
 * parts that could be read go to `slots`; a well-formed barcode's parts also
 * to the `parsed*` globals. Returns a VERIFY_* code or VERIFY_PARSED.
 */
export function parseBarcode(base: usize, len: i32, truncated: i32, slots: usize): i32 {
  slot(slots, SLOT_CARD_OFFSET, -1);
  slot(slots, SLOT_CARD_LENGTH, 0);
  slot(slots, SLOT_SESSION_OFFSET, -1);
  slot(slots, SLOT_SESSION_LENGTH, 0);
  slot(slots, SLOT_PASSWORD_OFFSET, -1);
  slot(slots, SLOT_MATCHED_DELTA, 0);
  slot(slots, SLOT_KEY_INDEX, -1);

  const d0 = findDelimiter(base, 0, len);
  const field0End = d0 < 0 ? len : d0;
  if ((d0 < 0 && truncated != 0) || field0End != prefixLength) return VERIFY_PREFIX_MISMATCH;
  if (constantTimeEqual(base, PREFIX, prefixLength) == 0) return VERIFY_PREFIX_MISMATCH;
  if (d0 < 0) return VERIFY_MALFORMED;

  const cardStart = d0 + delimiterLength;
  const d1 = findDelimiter(base, cardStart, len);
  const cardLen = (d1 < 0 ? len : d1) - cardStart;
  const cardValid = cardLen >= 1 && cardLen <= MAX_CARD_LENGTH && !(d1 < 0 && truncated != 0) &&
    allOf(base, cardStart, cardLen, CARD_CHAR);
  if (cardValid) {
    slot(slots, SLOT_CARD_OFFSET, cardStart);
    slot(slots, SLOT_CARD_LENGTH, cardLen);
  }
  if (d1 < 0 || truncated != 0 || !cardValid) return VERIFY_MALFORMED;

  const p2 = d1 + delimiterLength;
  const d2 = findDelimiter(base, p2, len);
  let sessionLen = 0;
  let passStart = p2;
  if (d2 >= 0) {
    passStart = d2 + delimiterLength;
    if (findDelimiter(base, passStart, len) >= 0) return VERIFY_MALFORMED;
    sessionLen = d2 - p2;
  }
  const passLen = len - passStart;
  if (sessionLen != 0 && (sessionLen != sessionLength || !allOf(base, p2, sessionLen, SESSION_CHAR))) {
    return VERIFY_MALFORMED;
  }
  if (passLen != passLength || !allOf(base, passStart, passLen, DIGIT)) return VERIFY_MALFORMED;
  if (sessionLen != 0) {
    slot(slots, SLOT_SESSION_OFFSET, p2);
    slot(slots, SLOT_SESSION_LENGTH, sessionLen);
  }
  slot(slots, SLOT_PASSWORD_OFFSET, passStart);
  setParsed(cardStart, cardLen, p2, sessionLen, passStart);
  return VERIFY_PARSED;
}

/** The time step of Unix time `nowMs` (non-positive and NaN times are step 0, as wasm truncation saturates). */
export function stepAt(nowMs: f64): u64 {
  const nowSeconds: u64 = nowMs > 0 ? <u64>(nowMs / 1000) : 0;
  return nowSeconds / intervalSeconds;
}

/** Splits and checks the barcode at `base`, results to `slots`; a VERIFY_* code. */
export function verifyAt(base: usize, len: i32, truncated: i32, current: u64, slots: usize): i32 {
  const parsed = parseBarcode(base, len, truncated, slots);
  if (parsed != VERIFY_PARSED) return parsed;
  return matchKeys(base, current, slots, 0, 0) ? VERIFY_OK : VERIFY_CODE_MISMATCH;
}

/**
 * Splits and checks the `len` barcode bytes in BARCODE at Unix time `nowMs`.
 * `truncated` says the host could not fit the whole input. Returns a VERIFY_*
 * code; offsets of the parts that could be read go to RESULT.
 */
export function verify(len: i32, truncated: i32, nowMs: f64): i32 {
  return verifyAt(BARCODE, len, truncated, stepAt(nowMs), RESULT);
}
