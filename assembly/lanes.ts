// Moving data into and out of the 4-lane layout of sha256x4 (word t of lane L
// at +16*t+4*L) with whole-vector operations. Each lane's message is built in
// a buffer of its own by four unaligned 16-byte copies and a mask, then the
// four buffers are byte-swapped and transposed into the block four words at a
// time; states go in and out by the same 4x4 transpose. Done a byte or a word
// at a time, through memory.fill/copy (a call out of wasm each in V8), this
// work cost nearly as much as the compressions themselves (bench/RESULTS.md,
// 2026-11-27, "wasm card-bound batch").

/** Messages a pass takes. */
export const LANES: i32 = 4;
/** A lane's message buffer: its 64-byte block, plus room for the copy that overshoots its tail. */
const LANE_BYTES: usize = 128;
const LANE_MESSAGES: usize = memory.data(<i32>(<usize>LANES * LANE_BYTES), 16);

/** The words of a vector from big-endian to the machine's order. */
@inline function bigEndianWords(v: v128): v128 {
  return i8x16.shuffle(v, v, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
}

/**
 * Bytes `from`.. of a 16-byte chunk of a message `used` bytes long, as SHA-256
 * pads its last block: the message's own bytes kept, 0x80 at `used`, zeros after.
 */
@inline function padChunk(v: v128, used: i32, from: i32): v128 {
  const limit = i8x16.splat(<i8>(used - from));
  const index = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  return v128.or(v128.and(v, i8x16.gt_s(limit, index)), v128.and(i8x16.eq(limit, index), i8x16.splat(<i8>0x80)));
}

/**
 * Lane `lane`'s message, one block after a 64-byte pad block: the `headLen`
 * (at most 8) low-order bytes of `head` (first byte lowest), then `len` bytes
 * at `src`, then SHA-256 padding; headLen + len is at most 55. Reads 64 bytes
 * at `src` whatever `len` (what lies past it is masked off): the caller's
 * bytes must sit inside linear memory with 64 bytes to spare, as the IO area does.
 */
export function laneMessage(lane: i32, head: u64, headLen: i32, src: usize, len: i32): void {
  const buffer = LANE_MESSAGES + <usize>lane * LANE_BYTES;
  store<u64>(buffer, head);
  const at = buffer + <usize>headLen;
  v128.store(at, v128.load(src));
  v128.store(at, v128.load(src, 16), 16);
  v128.store(at, v128.load(src, 32), 32);
  v128.store(at, v128.load(src, 48), 48);
  const used = headLen + len;
  v128.store(buffer, bigEndianWords(padChunk(v128.load(buffer), used, 0)));
  v128.store(buffer, bigEndianWords(padChunk(v128.load(buffer, 16), used, 16)), 16);
  v128.store(buffer, bigEndianWords(padChunk(v128.load(buffer, 32), used, 32)), 32);
  // Bytes 56..63 are past any message of one block, so zero: only the bit length's low word is to set.
  const last = bigEndianWords(padChunk(v128.load(buffer, 48), used, 48));
  v128.store(buffer, i32x4.replace_lane(last, 3, (64 + used) << 3), 48);
}

/**
 * Transposes the 4x4 words `r0`..`r3` (row i: four words of lane i, or word i
 * of four lanes) and stores column j at `qj`.
 */
@inline function transposeTo(r0: v128, r1: v128, r2: v128, r3: v128, q0: usize, q1: usize, q2: usize, q3: usize): void {
  const t0 = i32x4.shuffle(r0, r1, 0, 4, 1, 5);
  const t1 = i32x4.shuffle(r0, r1, 2, 6, 3, 7);
  const t2 = i32x4.shuffle(r2, r3, 0, 4, 1, 5);
  const t3 = i32x4.shuffle(r2, r3, 2, 6, 3, 7);
  v128.store(q0, i64x2.shuffle(t0, t2, 0, 2));
  v128.store(q1, i64x2.shuffle(t0, t2, 1, 3));
  v128.store(q2, i64x2.shuffle(t1, t3, 0, 2));
  v128.store(q3, i64x2.shuffle(t1, t3, 1, 3));
}

/** Transposes the four lanes' messages (laneMessage) into `block` (16 vectors). */
export function messagesToBlock(block: usize): void {
  for (let chunk: usize = 0; chunk < 64; chunk += 16) {
    const from = LANE_MESSAGES + chunk;
    const to = block + (chunk << 2);
    transposeTo(
      v128.load(from), v128.load(from + LANE_BYTES), v128.load(from + 2 * LANE_BYTES), v128.load(from + 3 * LANE_BYTES),
      to, to + 16, to + 32, to + 48,
    );
  }
}

/** `state` (8 vectors) := the 8-word states at `p0`..`p3`, one per lane. */
export function gatherStates(p0: usize, p1: usize, p2: usize, p3: usize, state: usize): void {
  transposeTo(v128.load(p0), v128.load(p1), v128.load(p2), v128.load(p3), state, state + 16, state + 32, state + 48);
  transposeTo(
    v128.load(p0, 16), v128.load(p1, 16), v128.load(p2, 16), v128.load(p3, 16),
    state + 64, state + 80, state + 96, state + 112,
  );
}

/** The 8-word state of each lane of `state` (8 vectors) to `p0`..`p3`: the same transpose, rows in being words. */
export function scatterStates(state: usize, p0: usize, p1: usize, p2: usize, p3: usize): void {
  transposeTo(v128.load(state), v128.load(state, 16), v128.load(state, 32), v128.load(state, 48), p0, p1, p2, p3);
  transposeTo(
    v128.load(state, 64), v128.load(state, 80), v128.load(state, 96), v128.load(state, 112),
    p0 + 16, p1 + 16, p2 + 16, p3 + 16,
  );
}

/**
 * RFC 4226's dynamic truncation of a SHA-256 tag held as 8 words in the
 * machine's order (word k = tag bytes 4k..4k+3 read big-endian): the 31-bit
 * value at the offset the tag's last nibble names.
 */
export function truncateWords(words: usize): u32 {
  const offset = load<u32>(words + 28) & 15;
  const at = words + (<usize>(offset >> 2) << 2);
  const pair = (<u64>load<u32>(at) << 32) | <u64>load<u32>(at, 4);
  return <u32>(pair >> <u64>(32 - ((offset & 3) << 3))) & 0x7fffffff;
}

/** Zeroes the lanes' message buffers (they held card numbers and sessions). */
export function clearMessages(): void {
  for (let i: usize = 0; i < <usize>LANES * LANE_BYTES; i += 16) v128.store(LANE_MESSAGES + i, i64x2.splat(0));
}
