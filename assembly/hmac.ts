// HMAC (RFC 2104) over precomputed pad states: a key is absorbed once into an
// inner and an outer state, so each later MAC of a short message costs two
// compressions instead of four.

import { compress, CTX_SIZE, digestLength, hashFinal, hashInit, hashResume, hashUpdate, SHA1 } from './hash';
import { sha1Init } from './sha1';
import { sha256Init } from './sha256';

const PAD: usize = memory.data(64, 16);
const LONG_KEY: usize = memory.data(32, 16);
const KEY_CTX: usize = memory.data(<i32>CTX_SIZE, 16);
const INNER_DIGEST: usize = memory.data(32, 16);
const STATE: usize = memory.data(32, 16);
const BLOCK: usize = memory.data(64, 16);

/** A pad pair: inner state at +0, outer state at +32. */
export const PADS_SIZE: i32 = 64;

/** Longest message that `hmacShort` takes: it and its padding fit one block. */
export const SHORT_MESSAGE_MAX: i32 = 55;

/** Absorbs a key into the pad pair at `pads` (keys longer than a block are hashed first). */
export function hmacKey(alg: i32, pads: usize, key: usize, keyLen: i32): void {
  if (keyLen > 64) {
    hashInit(KEY_CTX, alg);
    hashUpdate(KEY_CTX, alg, key, keyLen);
    hashFinal(KEY_CTX, alg, LONG_KEY);
    key = LONG_KEY;
    keyLen = digestLength(alg);
  }
  padState(alg, pads, key, keyLen, 0x36363636);
  padState(alg, pads + 32, key, keyLen, 0x5c5c5c5c);
  if (key == LONG_KEY) memory.fill(LONG_KEY, 0, 32);
}

// Word-wise, with no bulk-memory calls: on the verify path this runs for every
// scan, and V8's memory.fill/copy cost a call each.
function padState(alg: i32, state: usize, key: usize, keyLen: i32, fill: u32): void {
  const fill64 = (<u64>fill << 32) | <u64>fill;
  for (let i: usize = 0; i < 64; i += 8) store<u64>(PAD + i, fill64);
  const words = keyLen >> 2;
  for (let i = 0; i < words; i++) {
    const at = <usize>i << 2;
    store<u32>(PAD + at, load<u32>(key + at) ^ fill);
  }
  for (let i = words << 2; i < keyLen; i++) {
    store<u8>(PAD + <usize>i, load<u8>(key + <usize>i) ^ <u8>fill);
  }
  if (alg == SHA1) sha1Init(state);
  else sha256Init(state);
  compress(alg, state, PAD);
  for (let i: usize = 0; i < 64; i += 8) store<u64>(PAD + i, 0);
}

/** Starts a MAC in `ctx` under the key absorbed in `pads`. */
export function hmacBegin(ctx: usize, alg: i32, pads: usize): void {
  hashResume(ctx, alg, pads);
}

/** Finishes the MAC in `ctx` and writes the tag (digest length) at `out`. */
export function hmacEnd(ctx: usize, alg: i32, pads: usize, out: usize): void {
  hashFinal(ctx, alg, INNER_DIGEST);
  hashResume(ctx, alg, pads + 32);
  hashUpdate(ctx, alg, INNER_DIGEST, digestLength(alg));
  hashFinal(ctx, alg, out);
}

@inline function loadState(from: usize): void {
  store<u64>(STATE, load<u64>(from, 0), 0);
  store<u64>(STATE, load<u64>(from, 8), 8);
  store<u64>(STATE, load<u64>(from, 16), 16);
  store<u64>(STATE, load<u64>(from, 24), 24);
}

/** Writes the state as a big-endian digest of `words` words at `out`. */
@inline function writeDigest(out: usize, words: usize): void {
  for (let i: usize = 0; i < words; i++) {
    store<u32>(out + (i << 2), bswap<u32>(load<u32>(STATE + (i << 2))));
  }
}

/** Pads BLOCK after `used` bytes for a message of `totalBytes` (one final block). */
@inline function finishBlock(used: usize, totalBytes: u64): void {
  store<u8>(BLOCK + used, 0x80);
  let i = used + 1;
  for (; (i & 7) != 0; i++) store<u8>(BLOCK + i, 0);
  for (; i < 56; i += 8) store<u64>(BLOCK + i, 0);
  store<u64>(BLOCK + 56, bswap<u64>(totalBytes << 3));
}

/**
 * HMAC of a message of at most SHORT_MESSAGE_MAX bytes given as two parts
 * (`a` then `b`): exactly two compressions, no context bookkeeping.
 */
export function hmacShort(alg: i32, pads: usize, a: usize, aLen: i32, b: usize, bLen: i32, out: usize): void {
  const words: usize = alg == SHA1 ? 5 : 8;
  const digest = words << 2;
  for (let i: usize = 0; i < <usize>aLen; i++) store<u8>(BLOCK + i, load<u8>(a + i));
  for (let i: usize = 0; i < <usize>bLen; i++) store<u8>(BLOCK + <usize>aLen + i, load<u8>(b + i));
  const used = <usize>(aLen + bLen);
  finishBlock(used, 64 + <u64>used);
  loadState(pads);
  compress(alg, STATE, BLOCK);
  writeDigest(BLOCK, words);
  finishBlock(digest, 64 + <u64>digest);
  loadState(pads + 32);
  compress(alg, STATE, BLOCK);
  writeDigest(out, words);
}
