// base64url without padding (RFC 4648 section 5), as JWS requires.

const ALPHABET: usize = memory.data<u8>([
  65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90,
  97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117,
  118, 119, 120, 121, 122, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 45, 95,
]);

@inline function sextet(value: u32): u8 {
  return load<u8>(ALPHABET + <usize>(value & 63));
}

/** Encodes `len` bytes at `src` into `dst`; returns the number of characters written. */
export function base64url(src: usize, len: i32, dst: usize): i32 {
  let out = dst;
  let i = 0;
  for (; i + 3 <= len; i += 3) {
    const v = (<u32>load<u8>(src + <usize>i) << 16) | (<u32>load<u8>(src + <usize>i + 1) << 8) |
      <u32>load<u8>(src + <usize>i + 2);
    store<u8>(out, sextet(v >> 18));
    store<u8>(out + 1, sextet(v >> 12));
    store<u8>(out + 2, sextet(v >> 6));
    store<u8>(out + 3, sextet(v));
    out += 4;
  }
  const rest = len - i;
  if (rest == 1) {
    const v = <u32>load<u8>(src + <usize>i) << 16;
    store<u8>(out, sextet(v >> 18));
    store<u8>(out + 1, sextet(v >> 12));
    out += 2;
  } else if (rest == 2) {
    const v = (<u32>load<u8>(src + <usize>i) << 16) | (<u32>load<u8>(src + <usize>i + 1) << 8);
    store<u8>(out, sextet(v >> 18));
    store<u8>(out + 1, sextet(v >> 12));
    store<u8>(out + 2, sextet(v >> 6));
    out += 3;
  }
  return <i32>(out - dst);
}
