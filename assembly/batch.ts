// Several barcodes in one call. Each is split as a single call would; under
// card-bound SHA-256, the well-formed ones then go through the 4-lane SIMD
// compression four at a time: their card keys and pads (cache misses only),
// then the code of the present step. What that does not settle (another
// step, a previous key, an unusual length) continues on the scalar path, so
// every answer and slot is what `verify` would give.

import {
  BATCH_SPANS, BATCH_MAX, BATCH_RESULTS, BATCH_STRIDE, BATCH_TRUNCATED, IO, SLOT_CODE, SLOT_COUNTER_HI,
  SLOT_COUNTER_LO, SLOT_KEY_INDEX,
} from './buffers';
import {
  parseBarcode, parsedCard, parsedCardLength, parsedPassword, parsedSession, parsedSessionLength, setParsed, stepAt,
  VERIFY_CODE_MISMATCH, VERIFY_OK, VERIFY_PARSED, verifyAt,
} from './barcode';
import { cardCacheInsert, cardCacheLookup } from './cardcache';
import { algorithm, KEY_PADS, passLength, scheme, SCHEME_CARD_BOUND } from './config';
import { SHA256 } from './hash';
import { PADS_SIZE, SHORT_MESSAGE_MAX } from './hmac';
import { deriveCardPads, matchKeys, recordMatch } from './match';
import { constantTimeEqual, digitsOfTag } from './otp';
import { sha256Init } from './sha256';
import { sha256x4 } from './sha256x4';

const LANES: i32 = 4;
// A pending barcode: index, card offset, card length, session offset, session length, password offset, cached (i32 each).
const ITEM_SIZE: usize = 32;
const ITEMS: usize = memory.data(BATCH_MAX * <i32>ITEM_SIZE, 16);
/** Key 0's card pads of each pending barcode, by batch index. */
const ITEM_PADS: usize = memory.data(BATCH_MAX * PADS_SIZE, 16);
const LANE_ITEMS: usize = memory.data(LANES * 4, 16);
const STATE4: usize = memory.data(128, 16);
const BLOCK4: usize = memory.data(256, 16);
const CARD_KEYS4: usize = memory.data(128, 16);
const SCRATCH: usize = memory.data(64, 16);
const COUNTER: usize = memory.data(8, 8);
const CARD_LABEL: usize = memory.data<u8>([0x63, 0x61, 0x72, 0x64, 0x3a]); // "card:"
const TAG: usize = memory.data(32, 16);
const DIGITS: usize = memory.data(16, 16);

@inline function item(p: i32, field: usize): i32 {
  return load<i32>(ITEMS + <usize>p * ITEM_SIZE + (field << 2));
}

@inline function slotsOf(index: i32): usize {
  return BATCH_RESULTS + (<usize>(index * BATCH_STRIDE) << 2);
}

@inline function baseOf(index: i32): usize {
  return IO + <usize>load<i32>(BATCH_SPANS + (<usize>index << 3));
}

/** Writes the one-block message `a || b` (after a 64-byte pad block) into lane `lane` of BLOCK4. */
function laneBlock(lane: i32, a: usize, aLen: i32, b: usize, bLen: i32): void {
  const used = aLen + bLen;
  memory.fill(SCRATCH, 0, 64);
  memory.copy(SCRATCH, a, <usize>aLen);
  memory.copy(SCRATCH + <usize>aLen, b, <usize>bLen);
  store<u8>(SCRATCH + <usize>used, 0x80);
  store<u64>(SCRATCH + 56, bswap<u64>(<u64>(64 + used) << 3));
  for (let t: usize = 0; t < 16; t++) {
    store<u32>(BLOCK4 + (t << 4) + (<usize>lane << 2), bswap<u32>(load<u32>(SCRATCH + (t << 2))));
  }
}

/** Fills STATE4 with the same 8-word state (at `from`) in every lane. */
function splatState(from: usize): void {
  for (let i: usize = 0; i < 8; i++) v128.store(STATE4 + (i << 4), i32x4.splat(load<i32>(from + (i << 2))));
}

/** Sets lane `lane` of STATE4 to the 8-word state at `from`. */
function laneState(lane: i32, from: usize): void {
  for (let i: usize = 0; i < 8; i++) store<u32>(STATE4 + (i << 4) + (<usize>lane << 2), load<u32>(from + (i << 2)));
}

/** BLOCK4 := the digests in STATE4 as one padded block each (a 32-byte message after a pad block). */
function digestBlock(): void {
  for (let i: usize = 0; i < 8; i++) v128.store(BLOCK4 + (i << 4), v128.load(STATE4 + (i << 4)));
  v128.store(BLOCK4 + 128, i32x4.splat(<i32>0x80000000));
  for (let i: usize = 9; i < 15; i++) v128.store(BLOCK4 + (i << 4), i32x4.splat(0));
  v128.store(BLOCK4 + 240, i32x4.splat((64 + 32) << 3));
}

/** BLOCK4 := the 32-byte card keys in CARD_KEYS4, XORed with `fill`, as a pad block. */
function padBlock(fill: i32): void {
  const pad = i32x4.splat(fill);
  for (let i: usize = 0; i < 8; i++) v128.store(BLOCK4 + (i << 4), v128.xor(v128.load(CARD_KEYS4 + (i << 4)), pad));
  for (let i: usize = 8; i < 16; i++) v128.store(BLOCK4 + (i << 4), pad);
}

/** Copies lane `lane` of STATE4 to the 8-word state at `to`. */
function laneOut(lane: i32, to: usize): void {
  for (let i: usize = 0; i < 8; i++) store<u32>(to + (i << 2), load<u32>(STATE4 + (i << 4) + (<usize>lane << 2)));
}

/** Card keys and their pads for the `lanes` pending barcodes in LANE_ITEMS: four passes for up to four cards. */
function deriveLanes(lanes: i32): void {
  if (lanes == 1) {
    const p = load<i32>(LANE_ITEMS);
    const index = item(p, 0);
    const pads = ITEM_PADS + <usize>(index * PADS_SIZE);
    deriveCardPads(0, baseOf(index) + <usize>item(p, 1), item(p, 2), pads);
    memory.copy(cardCacheInsert(0, baseOf(index) + <usize>item(p, 1), item(p, 2)), pads, <usize>PADS_SIZE);
    return;
  }
  for (let lane = 0; lane < lanes; lane++) {
    const p = load<i32>(LANE_ITEMS + (<usize>lane << 2));
    laneBlock(lane, CARD_LABEL, 5, baseOf(item(p, 0)) + <usize>item(p, 1), item(p, 2));
  }
  splatState(KEY_PADS);
  sha256x4(STATE4, BLOCK4);
  digestBlock();
  splatState(KEY_PADS + 32);
  sha256x4(STATE4, BLOCK4);
  memory.copy(CARD_KEYS4, STATE4, 128);
  sha256Init(SCRATCH);
  for (let half = 0; half < 2; half++) {
    padBlock(half == 0 ? 0x36363636 : 0x5c5c5c5c);
    splatState(SCRATCH);
    sha256x4(STATE4, BLOCK4);
    for (let lane = 0; lane < lanes; lane++) {
      laneOut(lane, ITEM_PADS + <usize>(item(load<i32>(LANE_ITEMS + (<usize>lane << 2)), 0) * PADS_SIZE) + <usize>(half * 32));
    }
  }
  memory.fill(CARD_KEYS4, 0, 128);
  memory.fill(BLOCK4, 0, 256);
  for (let lane = 0; lane < lanes; lane++) {
    const p = load<i32>(LANE_ITEMS + (<usize>lane << 2));
    const index = item(p, 0);
    const pads = cardCacheInsert(0, baseOf(index) + <usize>item(p, 1), item(p, 2));
    memory.copy(pads, ITEM_PADS + <usize>(index * PADS_SIZE), <usize>PADS_SIZE);
  }
}

/** The rest of the window and the previous keys, on the scalar path, for pending barcode `p`. */
function finishScalar(p: i32, current: u64, firstTry: i32): void {
  const index = item(p, 0);
  setParsed(item(p, 1), item(p, 2), item(p, 3), item(p, 4), item(p, 5));
  const slots = slotsOf(index);
  const ok = matchKeys(baseOf(index), current, slots, ITEM_PADS + <usize>(index * PADS_SIZE), firstTry);
  store<i32>(slots + (<usize>SLOT_CODE << 2), ok ? VERIFY_OK : VERIFY_CODE_MISMATCH);
}

/** The present step's code under key 0 for the `lanes` pending barcodes in LANE_ITEMS: two passes. */
function codeLanes(lanes: i32, current: u64): void {
  if (lanes == 1) {
    finishScalar(load<i32>(LANE_ITEMS), current, 0);
    return;
  }
  store<u64>(COUNTER, bswap<u64>(current));
  for (let lane = 0; lane < lanes; lane++) {
    const p = load<i32>(LANE_ITEMS + (<usize>lane << 2));
    laneBlock(lane, COUNTER, 8, baseOf(item(p, 0)) + <usize>item(p, 3), item(p, 4));
    laneState(lane, ITEM_PADS + <usize>(item(p, 0) * PADS_SIZE));
  }
  sha256x4(STATE4, BLOCK4);
  digestBlock();
  for (let lane = 0; lane < lanes; lane++) {
    laneState(lane, ITEM_PADS + <usize>(item(load<i32>(LANE_ITEMS + (<usize>lane << 2)), 0) * PADS_SIZE) + 32);
  }
  sha256x4(STATE4, BLOCK4);
  for (let lane = 0; lane < lanes; lane++) {
    const p = load<i32>(LANE_ITEMS + (<usize>lane << 2));
    const index = item(p, 0);
    for (let i: usize = 0; i < 8; i++) store<u32>(TAG + (i << 2), bswap<u32>(load<u32>(STATE4 + (i << 4) + (<usize>lane << 2))));
    digitsOfTag(TAG, 32, passLength, DIGITS);
    if (constantTimeEqual(DIGITS, baseOf(index) + <usize>item(p, 5), passLength) == 1) {
      const slots = slotsOf(index);
      recordMatch(slots, 0, current);
      store<i32>(slots + (<usize>SLOT_KEY_INDEX << 2), 0);
      store<i32>(slots + (<usize>SLOT_CODE << 2), VERIFY_OK);
    } else {
      finishScalar(p, current, 1);
    }
  }
}

/**
 * Verifies the `count` (at most BATCH_MAX) barcodes in IO, where BATCH_SPANS
 * says (their bytes never overlap), all at Unix time
 * `nowMs`. Each one's slots and VERIFY_* code go to BATCH_RESULTS.
 */
export function verifyBatch(count: i32, nowMs: f64): void {
  const current = stepAt(nowMs);
  const lanes4 = scheme == SCHEME_CARD_BOUND && algorithm == SHA256;
  let pending = 0;
  for (let index = 0; index < count; index++) {
    const slots = slotsOf(index);
    store<i32>(slots + (<usize>SLOT_COUNTER_LO << 2), 0);
    store<i32>(slots + (<usize>SLOT_COUNTER_HI << 2), 0);
    const length = load<i32>(BATCH_SPANS + (<usize>index << 3), 4);
    const truncated = (length & BATCH_TRUNCATED) != 0 ? 1 : 0;
    const bytes = length & (BATCH_TRUNCATED - 1);
    if (!lanes4) {
      store<i32>(slots + (<usize>SLOT_CODE << 2), verifyAt(baseOf(index), bytes, truncated, current, slots));
      continue;
    }
    const parsed = parseBarcode(baseOf(index), bytes, truncated, slots);
    if (parsed != VERIFY_PARSED) {
      store<i32>(slots + (<usize>SLOT_CODE << 2), parsed);
      continue;
    }
    if (5 + parsedCardLength > SHORT_MESSAGE_MAX || 8 + parsedSessionLength > SHORT_MESSAGE_MAX) {
      // A message of two blocks: the scalar path streams it.
      const ok = matchKeys(baseOf(index), current, slots, 0, 0);
      store<i32>(slots + (<usize>SLOT_CODE << 2), ok ? VERIFY_OK : VERIFY_CODE_MISMATCH);
      continue;
    }
    const at = ITEMS + <usize>pending * ITEM_SIZE;
    store<i32>(at, index, 0);
    store<i32>(at, parsedCard, 4);
    store<i32>(at, parsedCardLength, 8);
    store<i32>(at, parsedSession, 12);
    store<i32>(at, parsedSessionLength, 16);
    store<i32>(at, parsedPassword, 20);
    const cached = cardCacheLookup(0, baseOf(index) + <usize>parsedCard, parsedCardLength);
    if (cached != 0) memory.copy(ITEM_PADS + <usize>(index * PADS_SIZE), cached, <usize>PADS_SIZE);
    store<i32>(at, cached != 0 ? 1 : 0, 24);
    pending++;
  }
  let lanes = 0;
  for (let p = 0; p < pending; p++) {
    if (item(p, 6) != 0) continue;
    store<i32>(LANE_ITEMS + (<usize>lanes << 2), p);
    if (++lanes == LANES) {
      deriveLanes(lanes);
      lanes = 0;
    }
  }
  if (lanes > 0) deriveLanes(lanes);
  lanes = 0;
  for (let p = 0; p < pending; p++) {
    store<i32>(LANE_ITEMS + (<usize>lanes << 2), p);
    if (++lanes == LANES) {
      codeLanes(lanes, current);
      lanes = 0;
    }
  }
  if (lanes > 0) codeLanes(lanes, current);
}
