// Streaming hash contexts over static memory, for SHA-1 and SHA-256 alike.
// A context is 112 bytes: state (32), pending block (64), pending length
// (u32 at 96), total length in bytes (u64 at 104).

import { sha1Compress, sha1Init } from './sha1';
import { sha256Compress, sha256Init } from './sha256';

export const SHA1: i32 = 1;
export const SHA256: i32 = 2;

export const CTX_SIZE: usize = 112;
const STATE: usize = 0;
const PENDING: usize = 32;
const PENDING_LEN: usize = 96;
const TOTAL: usize = 104;

/** Digest length in bytes of `alg`. */
export function digestLength(alg: i32): i32 {
  return alg == SHA1 ? 20 : 32;
}

/** State length in bytes of `alg` (what a precomputed HMAC pad keeps). */
export function stateLength(alg: i32): usize {
  return alg == SHA1 ? 20 : 32;
}

/** Folds one block into `state` with the compression function of `alg`. */
export function compress(alg: i32, state: usize, block: usize): void {
  if (alg == SHA1) sha1Compress(state, block);
  else sha256Compress(state, block);
}

/** Starts a fresh hash in `ctx`. */
export function hashInit(ctx: usize, alg: i32): void {
  if (alg == SHA1) sha1Init(ctx + STATE);
  else sha256Init(ctx + STATE);
  store<u32>(ctx + PENDING_LEN, 0);
  store<u64>(ctx + TOTAL, 0);
}

/** Resumes from a saved state that has already absorbed exactly one block (an HMAC pad). */
export function hashResume(ctx: usize, alg: i32, saved: usize): void {
  memory.copy(ctx + STATE, saved, stateLength(alg));
  store<u32>(ctx + PENDING_LEN, 0);
  store<u64>(ctx + TOTAL, 64);
}

/** Absorbs `len` bytes at `ptr`. */
export function hashUpdate(ctx: usize, alg: i32, ptr: usize, len: i32): void {
  if (len <= 0) return;
  store<u64>(ctx + TOTAL, load<u64>(ctx + TOTAL) + <u64>len);
  let pending = <i32>load<u32>(ctx + PENDING_LEN);
  let remaining = len;
  if (pending > 0) {
    const take = min(64 - pending, remaining);
    memory.copy(ctx + PENDING + <usize>pending, ptr, <usize>take);
    pending += take;
    ptr += <usize>take;
    remaining -= take;
    if (pending < 64) {
      store<u32>(ctx + PENDING_LEN, <u32>pending);
      return;
    }
    compress(alg, ctx + STATE, ctx + PENDING);
    pending = 0;
  }
  while (remaining >= 64) {
    compress(alg, ctx + STATE, ptr);
    ptr += 64;
    remaining -= 64;
  }
  if (remaining > 0) memory.copy(ctx + PENDING, ptr, <usize>remaining);
  store<u32>(ctx + PENDING_LEN, <u32>remaining);
}

/** Pads, finishes and writes the big-endian digest at `out`. */
export function hashFinal(ctx: usize, alg: i32, out: usize): void {
  const block = ctx + PENDING;
  let pending = <usize>load<u32>(ctx + PENDING_LEN);
  const bits = load<u64>(ctx + TOTAL) << 3;
  store<u8>(block + pending, 0x80);
  pending++;
  if (pending > 56) {
    memory.fill(block + pending, 0, 64 - pending);
    compress(alg, ctx + STATE, block);
    pending = 0;
  }
  memory.fill(block + pending, 0, 56 - pending);
  store<u64>(block + 56, bswap<u64>(bits));
  compress(alg, ctx + STATE, block);
  const words = <usize>digestLength(alg) >> 2;
  for (let i: usize = 0; i < words; i++) {
    store<u32>(out + (i << 2), bswap<u32>(load<u32>(ctx + STATE + (i << 2))));
  }
}
