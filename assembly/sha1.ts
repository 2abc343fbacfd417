// SHA-1 compression (FIPS 180-4). Still required: the interface document
// allows HMACSHA1, and RFC 4226/6238 vectors are defined over it.

const IV: usize = memory.data<u32>([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);

/** Message schedule scratch (80 words). */
const W: usize = memory.data(320, 16);

/** Writes the SHA-1 initial state (5 words) at `state`. */
export function sha1Init(state: usize): void {
  store<u64>(state, load<u64>(IV, 0), 0);
  store<u64>(state, load<u64>(IV, 8), 8);
  store<u32>(state, load<u32>(IV, 16), 16);
}

/** Folds one 64-byte block at `block` into the 5-word state at `state`. */
export function sha1Compress(state: usize, block: usize): void {
  for (let t: usize = 0; t < 16; t++) {
    store<u32>(W + (t << 2), bswap<u32>(load<u32>(block + (t << 2))));
  }
  for (let t: usize = 16; t < 80; t++) {
    const x = load<u32>(W + ((t - 3) << 2)) ^ load<u32>(W + ((t - 8) << 2)) ^
      load<u32>(W + ((t - 14) << 2)) ^ load<u32>(W + ((t - 16) << 2));
    store<u32>(W + (t << 2), rotl<u32>(x, 1));
  }

  let a = load<u32>(state, 0);
  let b = load<u32>(state, 4);
  let c = load<u32>(state, 8);
  let d = load<u32>(state, 12);
  let e = load<u32>(state, 16);

  for (let t: usize = 0; t < 80; t++) {
    let f: u32, k: u32;
    if (t < 20) {
      f = d ^ (b & (c ^ d));
      k = 0x5a827999;
    } else if (t < 40) {
      f = b ^ c ^ d;
      k = 0x6ed9eba1;
    } else if (t < 60) {
      f = (b & c) | (d & (b | c));
      k = 0x8f1bbcdc;
    } else {
      f = b ^ c ^ d;
      k = 0xca62c1d6;
    }
    const tmp = rotl<u32>(a, 5) + f + e + k + load<u32>(W + (t << 2));
    e = d;
    d = c;
    c = rotl<u32>(b, 30);
    b = a;
    a = tmp;
  }

  store<u32>(state, load<u32>(state, 0) + a, 0);
  store<u32>(state, load<u32>(state, 4) + b, 4);
  store<u32>(state, load<u32>(state, 8) + c, 8);
  store<u32>(state, load<u32>(state, 12) + d, 12);
  store<u32>(state, load<u32>(state, 16) + e, 16);
}
