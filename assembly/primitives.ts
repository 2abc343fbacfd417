// Stand-alone primitives for the host's exported helpers and the RFC test
// vectors: one-shot HMAC (streamed), HOTP with any key, card key derivation.

import { IO, KEY, OUT, wipe } from './buffers';
import { deriveCardKeyInto } from './match';
import { algorithm, PARTNER_PADS } from './config';
import { CTX_SIZE, digestLength, hashUpdate } from './hash';
import { hmacBegin, hmacEnd, hmacKey, PADS_SIZE } from './hmac';
import { otpDigits } from './otp';

const CTX: usize = memory.data(<i32>CTX_SIZE, 16);
const PADS: usize = memory.data(PADS_SIZE, 16);
let macAlgorithm: i32 = 2;

/** Starts an HMAC under the `keyLen` key bytes in KEY (wiped afterwards). */
export function macBegin(alg: i32, keyLen: i32): void {
  macAlgorithm = alg;
  hmacKey(alg, PADS, KEY, keyLen);
  wipe(KEY, keyLen);
  hmacBegin(CTX, alg, PADS);
}

/** Absorbs `len` message bytes from IO. */
export function macUpdate(len: i32): void {
  hashUpdate(CTX, macAlgorithm, IO, len);
}

/** Writes the tag at OUT and returns its length. */
export function macEnd(): i32 {
  hmacEnd(CTX, macAlgorithm, PADS, OUT);
  return digestLength(macAlgorithm);
}

/** Keys the OTP generator with the `keyLen` bytes in KEY (wiped afterwards). */
export function otpKey(alg: i32, keyLen: i32): void {
  macAlgorithm = alg;
  hmacKey(alg, PADS, KEY, keyLen);
  wipe(KEY, keyLen);
}

/** Writes the `digits`-digit code for counter (hi:lo), bound to the `sessionLen` session bytes in IO, at OUT. */
export function otp(counterHi: u32, counterLo: u32, digits: i32, sessionLen: i32): void {
  const counter = (<u64>counterHi << 32) | <u64>counterLo;
  otpDigits(macAlgorithm, PADS, counter, IO, sessionLen, digits, OUT);
}

/** Writes cardKey for the `cardLen` card number bytes in IO at OUT; returns its length. */
export function deriveCardKey(cardLen: i32): i32 {
  deriveCardKeyInto(PARTNER_PADS, IO, cardLen, OUT);
  return digestLength(algorithm);
}
