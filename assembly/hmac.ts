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

/** A pad pair: inner state at +0, outer state at +32. */
export const PADS_SIZE: i32 = 64;

/** Absorbs a key into the pad pair at `pads` (keys longer than a block are hashed first). */
export function hmacKey(alg: i32, pads: usize, key: usize, keyLen: i32): void {
  if (keyLen > 64) {
    hashInit(KEY_CTX, alg);
    hashUpdate(KEY_CTX, alg, key, keyLen);
    hashFinal(KEY_CTX, alg, LONG_KEY);
    key = LONG_KEY;
    keyLen = digestLength(alg);
  }
  padState(alg, pads, key, keyLen, 0x36);
  padState(alg, pads + 32, key, keyLen, 0x5c);
  memory.fill(PAD, 0, 64);
  memory.fill(LONG_KEY, 0, 32);
}

function padState(alg: i32, state: usize, key: usize, keyLen: i32, fill: u8): void {
  memory.fill(PAD, fill, 64);
  for (let i = 0; i < keyLen; i++) {
    store<u8>(PAD + <usize>i, load<u8>(key + <usize>i) ^ fill);
  }
  if (alg == SHA1) sha1Init(state);
  else sha256Init(state);
  compress(alg, state, PAD);
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
