// SHA-256 compression (FIPS 180-4). Kept as its own, non-inlined function so
// that every caller shares one hot, well-optimised body.

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

const IV: usize = memory.data<u32>([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** Message schedule scratch (64 words). */
const W: usize = memory.data(256, 16);

/** Writes the SHA-256 initial state (8 words) at `state`. */
export function sha256Init(state: usize): void {
  memory.copy(state, IV, 32);
}

/** Folds one 64-byte block at `block` into the 8-word state at `state`. */
export function sha256Compress(state: usize, block: usize): void {
  for (let t: usize = 0; t < 16; t++) {
    store<u32>(W + (t << 2), bswap<u32>(load<u32>(block + (t << 2))));
  }
  for (let t: usize = 16; t < 64; t++) {
    const w15 = load<u32>(W + ((t - 15) << 2));
    const w2 = load<u32>(W + ((t - 2) << 2));
    const s0 = rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10);
    store<u32>(W + (t << 2), load<u32>(W + ((t - 16) << 2)) + s0 + load<u32>(W + ((t - 7) << 2)) + s1);
  }

  let a = load<u32>(state, 0);
  let b = load<u32>(state, 4);
  let c = load<u32>(state, 8);
  let d = load<u32>(state, 12);
  let e = load<u32>(state, 16);
  let f = load<u32>(state, 20);
  let g = load<u32>(state, 24);
  let h = load<u32>(state, 28);

  // Eight rounds per iteration with the roles of the working variables
  // rotated by hand, so the loop body carries no register shuffling.
  for (let t: usize = 0; t < 256; t += 32) {
    const k = K + t;
    const w = W + t;
    h += (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + (g ^ (e & (f ^ g))) + load<u32>(k, 0) + load<u32>(w, 0);
    d += h;
    h += (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + ((a & b) | (c & (a | b)));
    g += (rotr<u32>(d, 6) ^ rotr<u32>(d, 11) ^ rotr<u32>(d, 25)) + (f ^ (d & (e ^ f))) + load<u32>(k, 4) + load<u32>(w, 4);
    c += g;
    g += (rotr<u32>(h, 2) ^ rotr<u32>(h, 13) ^ rotr<u32>(h, 22)) + ((h & a) | (b & (h | a)));
    f += (rotr<u32>(c, 6) ^ rotr<u32>(c, 11) ^ rotr<u32>(c, 25)) + (e ^ (c & (d ^ e))) + load<u32>(k, 8) + load<u32>(w, 8);
    b += f;
    f += (rotr<u32>(g, 2) ^ rotr<u32>(g, 13) ^ rotr<u32>(g, 22)) + ((g & h) | (a & (g | h)));
    e += (rotr<u32>(b, 6) ^ rotr<u32>(b, 11) ^ rotr<u32>(b, 25)) + (d ^ (b & (c ^ d))) + load<u32>(k, 12) + load<u32>(w, 12);
    a += e;
    e += (rotr<u32>(f, 2) ^ rotr<u32>(f, 13) ^ rotr<u32>(f, 22)) + ((f & g) | (h & (f | g)));
    d += (rotr<u32>(a, 6) ^ rotr<u32>(a, 11) ^ rotr<u32>(a, 25)) + (c ^ (a & (b ^ c))) + load<u32>(k, 16) + load<u32>(w, 16);
    h += d;
    d += (rotr<u32>(e, 2) ^ rotr<u32>(e, 13) ^ rotr<u32>(e, 22)) + ((e & f) | (g & (e | f)));
    c += (rotr<u32>(h, 6) ^ rotr<u32>(h, 11) ^ rotr<u32>(h, 25)) + (b ^ (h & (a ^ b))) + load<u32>(k, 20) + load<u32>(w, 20);
    g += c;
    c += (rotr<u32>(d, 2) ^ rotr<u32>(d, 13) ^ rotr<u32>(d, 22)) + ((d & e) | (f & (d | e)));
    b += (rotr<u32>(g, 6) ^ rotr<u32>(g, 11) ^ rotr<u32>(g, 25)) + (a ^ (g & (h ^ a))) + load<u32>(k, 24) + load<u32>(w, 24);
    f += b;
    b += (rotr<u32>(c, 2) ^ rotr<u32>(c, 13) ^ rotr<u32>(c, 22)) + ((c & d) | (e & (c | d)));
    a += (rotr<u32>(f, 6) ^ rotr<u32>(f, 11) ^ rotr<u32>(f, 25)) + (h ^ (f & (g ^ h))) + load<u32>(k, 28) + load<u32>(w, 28);
    e += a;
    a += (rotr<u32>(b, 2) ^ rotr<u32>(b, 13) ^ rotr<u32>(b, 22)) + ((b & c) | (d & (b | c)));
  }

  store<u32>(state, load<u32>(state, 0) + a, 0);
  store<u32>(state, load<u32>(state, 4) + b, 4);
  store<u32>(state, load<u32>(state, 8) + c, 8);
  store<u32>(state, load<u32>(state, 12) + d, 12);
  store<u32>(state, load<u32>(state, 16) + e, 16);
  store<u32>(state, load<u32>(state, 20) + f, 20);
  store<u32>(state, load<u32>(state, 24) + g, 24);
  store<u32>(state, load<u32>(state, 28) + h, 28);
}
