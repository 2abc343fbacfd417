// Four SHA-256 compressions at once (wasm SIMD, i32x4): lane L of every vector
// belongs to message L. The batch verification runs four card-bound
// barcodes' key derivations and codes through one pass each. Layout: a state
// is 8 vectors (word i of the four lanes at +16*i), a block 16 vectors (its
// big-endian words already loaded as numbers, word t of lane L at +16*t+4*L).

const K: usize = memory.data<u32>([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** The message schedule of a pass: 64 vectors. */
const W: usize = memory.data(64 * 16, 16);

@inline function rotr4(x: v128, n: i32): v128 {
  return v128.or(i32x4.shr_u(x, n), i32x4.shl(x, 32 - n));
}

/**
 * Folds the four blocks at `block` into the four states at `state`. A
 * function of its own, never inlined: every pass shares one optimised body.
 */
export function sha256x4(state: usize, block: usize): void {
  let a = v128.load(state, 0);
  let b = v128.load(state, 16);
  let c = v128.load(state, 32);
  let d = v128.load(state, 48);
  let e = v128.load(state, 64);
  let f = v128.load(state, 80);
  let g = v128.load(state, 96);
  let h = v128.load(state, 112);
  for (let t: usize = 0; t < 16; t++) v128.store(W + (t << 4), v128.load(block + (t << 4)));
  for (let t: usize = 16; t < 64; t++) {
    const w15 = v128.load(W + ((t - 15) << 4));
    const w2 = v128.load(W + ((t - 2) << 4));
    const s0 = v128.xor(v128.xor(rotr4(w15, 7), rotr4(w15, 18)), i32x4.shr_u(w15, 3));
    const s1 = v128.xor(v128.xor(rotr4(w2, 17), rotr4(w2, 19)), i32x4.shr_u(w2, 10));
    v128.store(W + (t << 4), i32x4.add(i32x4.add(v128.load(W + ((t - 16) << 4)), s0),
      i32x4.add(v128.load(W + ((t - 7) << 4)), s1)));
  }
  for (let t: usize = 0; t < 64; t++) {
    const bigS1 = v128.xor(v128.xor(rotr4(e, 6), rotr4(e, 11)), rotr4(e, 25));
    const ch = v128.bitselect(f, g, e);
    const k = i32x4.splat(load<i32>(K + (t << 2)));
    const t1 = i32x4.add(i32x4.add(i32x4.add(h, bigS1), i32x4.add(ch, k)), v128.load(W + (t << 4)));
    const bigS0 = v128.xor(v128.xor(rotr4(a, 2), rotr4(a, 13)), rotr4(a, 22));
    // Maj(a, b, c): b where a and c differ, else a.
    const maj = v128.bitselect(b, a, v128.xor(a, c));
    h = g;
    g = f;
    f = e;
    e = i32x4.add(d, t1);
    d = c;
    c = b;
    b = a;
    a = i32x4.add(t1, i32x4.add(bigS0, maj));
  }
  v128.store(state, i32x4.add(v128.load(state, 0), a), 0);
  v128.store(state, i32x4.add(v128.load(state, 16), b), 16);
  v128.store(state, i32x4.add(v128.load(state, 32), c), 32);
  v128.store(state, i32x4.add(v128.load(state, 48), d), 48);
  v128.store(state, i32x4.add(v128.load(state, 64), e), 64);
  v128.store(state, i32x4.add(v128.load(state, 80), f), 80);
  v128.store(state, i32x4.add(v128.load(state, 96), g), 96);
  v128.store(state, i32x4.add(v128.load(state, 112), h), 112);
}
