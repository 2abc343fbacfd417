// HOTP/TOTP (RFC 4226, RFC 6238) with a 64-bit counter, optionally bound to a
// card session (the OCRA idea of RFC 6287): the session bytes follow the
// counter in the MAC input, so parts of two barcodes cannot be spliced.

import { CTX_SIZE, hashUpdate } from './hash';
import { hmacBegin, hmacEnd, hmacShort, SHORT_MESSAGE_MAX } from './hmac';

const CTX: usize = memory.data(<i32>CTX_SIZE, 16);
const COUNTER: usize = memory.data(8, 8);
const TAG: usize = memory.data(32, 16);

// 10^digits for digits 0..9; at 10 digits the 31-bit value is the code itself.
const POW10: usize = memory.data<u32>([1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000]);

/**
 * Computes the `digits`-digit code for `counter` under the key in `pads` and
 * writes it, zero-padded ASCII, at `out`. `session` may be empty (len 0).
 */
export function otpDigits(
  alg: i32, pads: usize, counter: u64, session: usize, sessionLen: i32, digits: i32, out: usize,
): void {
  store<u64>(COUNTER, bswap<u64>(counter));
  if (8 + sessionLen <= SHORT_MESSAGE_MAX) {
    hmacShort(alg, pads, COUNTER, 8, session, sessionLen, TAG);
  } else {
    hmacBegin(CTX, alg, pads);
    hashUpdate(CTX, alg, COUNTER, 8);
    hashUpdate(CTX, alg, session, sessionLen);
    hmacEnd(CTX, alg, pads, TAG);
  }
  digitsOfTag(TAG, alg == 1 ? 20 : 32, digits, out);
}

/**
 * The `digits`-digit code (RFC 4226 dynamic truncation) of the `tagLen`-byte tag at `tag`, zero-padded ASCII at `out`.
 */
export function digitsOfTag(tag: usize, tagLen: usize, digits: i32, out: usize): void {
  const offset = <usize>(load<u8>(tag + tagLen - 1) & 0x0f);
  const binary: u32 = ((<u32>load<u8>(tag + offset) & 0x7f) << 24) |
    (<u32>load<u8>(tag + offset + 1) << 16) |
    (<u32>load<u8>(tag + offset + 2) << 8) |
    <u32>load<u8>(tag + offset + 3);
  // u32 arithmetic throughout: the value is below 2^31, and V8 turns a u32
  // division by the constant 10 into a multiply.
  let value = digits >= 10 ? binary : binary % load<u32>(POW10 + (<usize>digits << 2));
  for (let i = digits - 1; i >= 0; i--) {
    const next = value / 10;
    store<u8>(out + <usize>i, <u8>(48 + value - next * 10));
    value = next;
  }
}

/** Compares `len` bytes in time that depends only on `len`; 1 when equal. */
export function constantTimeEqual(a: usize, b: usize, len: i32): i32 {
  let diff: u32 = 0;
  for (let i: usize = 0; i < <usize>len; i++) {
    diff |= <u32>(load<u8>(a + i) ^ load<u8>(b + i));
  }
  return <i32>(1 & ((diff - 1) >>> 8));
}
