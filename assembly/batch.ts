// Several barcodes in one call. Each is split as a single call would; under
// card-bound SHA-256, the well-formed ones then go through the 4-lane SIMD
// compression four at a time: their card keys and pads (cache misses only),
// then the code of the present step. What that does not settle (another
// step, a previous key, an unusual length) continues on the scalar path, so
// every answer and slot is what `verify` would give.

import {
  BATCH_MAX, BATCH_RESULTS, BATCH_SPANS, BATCH_STRIDE, BATCH_TRUNCATED, IO, SLOT_CODE, SLOT_COUNTER_HI, SLOT_COUNTER_LO,
  SLOT_KEY_INDEX,
} from './buffers';
import { parseBarcode, stepAt, VERIFY_CODE_MISMATCH, VERIFY_OK, VERIFY_PARSED, verifyAt } from './barcode';
import { cardCacheClaim, cardCacheFind, cardCacheSlot, copyPads } from './cardcache';
import { algorithm, KEY_PADS, passLength, scheme, SCHEME_CARD_BOUND } from './config';
import { SHA256 } from './hash';
import { PADS_SIZE, SHORT_MESSAGE_MAX } from './hmac';
import {
  clearMessages, gatherStates, LANES, laneMessage, messagesToBlock, scatterStates, truncateWords,
} from './lanes';
import { matchKeys, recordMatch } from './match';
import {
  parsedCard, parsedCardLength, parsedPassword, parsedSession, parsedSessionLength, setParsed,
} from './parsed';
import { sha256x4 } from './sha256x4';

// A pending barcode, i32 fields: batch index, card offset, card length,
// session offset, session length, password offset, its card cache slot, and
// whether that slot held its pads.
const ITEM_SIZE: usize = 32;
const ITEMS: usize = memory.data(BATCH_MAX * <i32>ITEM_SIZE, 16);
/** Key 0's card pads of each pending barcode, by batch index. */
const ITEM_PADS: usize = memory.data(BATCH_MAX * PADS_SIZE, 16);
/** Where a lane's output goes when fewer than four barcodes are left. */
const SPARE_PADS: usize = memory.data(PADS_SIZE, 16);
const LANE_ITEMS: usize = memory.data(LANES * 4, 16);
const STATE4: usize = memory.data(128, 16);
const BLOCK4: usize = memory.data(256, 16);
const CARD_KEYS4: usize = memory.data(128, 16);
/** The four lanes' tags after a code pass, 8 words each. */
const TAGS: usize = memory.data(128, 16);
// FIPS 180-4's initial SHA-256 state, each word in all four lanes.
const IV4: usize = memory.data<u32>([
  0x6a09e667, 0x6a09e667, 0x6a09e667, 0x6a09e667, 0xbb67ae85, 0xbb67ae85, 0xbb67ae85, 0xbb67ae85,
  0x3c6ef372, 0x3c6ef372, 0x3c6ef372, 0x3c6ef372, 0xa54ff53a, 0xa54ff53a, 0xa54ff53a, 0xa54ff53a,
  0x510e527f, 0x510e527f, 0x510e527f, 0x510e527f, 0x9b05688c, 0x9b05688c, 0x9b05688c, 0x9b05688c,
  0x1f83d9ab, 0x1f83d9ab, 0x1f83d9ab, 0x1f83d9ab, 0x5be0cd19, 0x5be0cd19, 0x5be0cd19, 0x5be0cd19,
], 16);
/** "card:" as the low bytes of a little-endian u64: the head of a card key's message. */
const CARD_LABEL_HEAD: u64 = 0x3a64726163;

// 10^digits for digits 0..9; at 10 digits the 31-bit value is the code itself.
const POW10: usize = memory.data<u32>([1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000]);

@inline function item(p: i32, field: usize): i32 {
  return load<i32>(ITEMS + <usize>p * ITEM_SIZE + (field << 2));
}

@inline function slotsOf(index: i32): usize {
  return BATCH_RESULTS + (<usize>(index * BATCH_STRIDE) << 2);
}

@inline function baseOf(index: i32): usize {
  return IO + <usize>load<i32>(BATCH_SPANS + (<usize>index << 3));
}

/** The pending barcode in lane `lane`. */
@inline function laneItem(lane: i32): i32 {
  return load<i32>(LANE_ITEMS + (<usize>lane << 2));
}

/** Where lane `lane`'s key 0 pads are (SPARE_PADS for a lane without a barcode). */
@inline function lanePads(lane: i32, lanes: i32): usize {
  return lane < lanes ? ITEM_PADS + <usize>(item(laneItem(lane), 0) * PADS_SIZE) : SPARE_PADS;
}

/** Fills STATE4 with the same 8-word state (at `from`) in every lane. */
function splatState(from: usize): void {
  for (let i: usize = 0; i < 8; i++) v128.store(STATE4 + (i << 4), i32x4.splat(load<i32>(from + (i << 2))));
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

/** STATE4 := IV, the pass, then each lane's result to its pads at `half` (0 inner, 32 outer). */
function padPass(lanes: i32, half: usize): void {
  for (let i: usize = 0; i < 128; i += 16) v128.store(STATE4 + i, v128.load(IV4 + i));
  sha256x4(STATE4, BLOCK4);
  scatterStates(
    STATE4, lanePads(0, lanes) + half, lanePads(1, lanes) + half, lanePads(2, lanes) + half, lanePads(3, lanes) + half,
  );
}

/** Card keys and their pads for the `lanes` pending barcodes in LANE_ITEMS: four passes for up to four cards. */
function deriveLanes(lanes: i32): void {
  for (let lane = 0; lane < lanes; lane++) {
    const p = laneItem(lane);
    laneMessage(lane, CARD_LABEL_HEAD, 5, baseOf(item(p, 0)) + <usize>item(p, 1), item(p, 2));
  }
  messagesToBlock(BLOCK4);
  splatState(KEY_PADS);
  sha256x4(STATE4, BLOCK4);
  digestBlock();
  splatState(KEY_PADS + 32);
  sha256x4(STATE4, BLOCK4);
  for (let i: usize = 0; i < 128; i += 16) v128.store(CARD_KEYS4 + i, v128.load(STATE4 + i));
  padBlock(0x36363636);
  padPass(lanes, 0);
  padBlock(0x5c5c5c5c);
  padPass(lanes, 32);
  // Key hygiene: the card keys and their pad blocks do not outlive the call.
  for (let i: usize = 0; i < 128; i += 16) v128.store(CARD_KEYS4 + i, i64x2.splat(0));
  for (let i: usize = 0; i < 256; i += 16) v128.store(BLOCK4 + i, i64x2.splat(0));
  for (let lane = 0; lane < lanes; lane++) {
    const p = laneItem(lane);
    const slot = <usize>item(p, 6);
    copyPads(cardCacheClaim(slot, 0, baseOf(item(p, 0)) + <usize>item(p, 1), item(p, 2)), lanePads(lane, lanes));
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

/** The digits at `at` as a number (the parser has checked they are digits; at most 10 of them). */
function passwordValue(at: usize, digits: i32): u64 {
  let value: u64 = 0;
  for (let i = 0; i < digits; i++) value = value * 10 + <u64>(load<u8>(at + <usize>i) - 48);
  return value;
}

/** The present step's code under key 0 for the `lanes` pending barcodes in LANE_ITEMS: two passes. */
function codeLanes(lanes: i32, current: u64): void {
  const counter = bswap<u64>(current);
  for (let lane = 0; lane < lanes; lane++) {
    const p = laneItem(lane);
    laneMessage(lane, counter, 8, baseOf(item(p, 0)) + <usize>item(p, 3), item(p, 4));
  }
  messagesToBlock(BLOCK4);
  const p0 = lanePads(0, lanes), p1 = lanePads(1, lanes), p2 = lanePads(2, lanes), p3 = lanePads(3, lanes);
  gatherStates(p0, p1, p2, p3, STATE4);
  sha256x4(STATE4, BLOCK4);
  digestBlock();
  gatherStates(p0 + 32, p1 + 32, p2 + 32, p3 + 32, STATE4);
  sha256x4(STATE4, BLOCK4);
  scatterStates(STATE4, TAGS, TAGS + 32, TAGS + 64, TAGS + 96);
  const modulus = passLength >= 10 ? 0 : load<u32>(POW10 + (<usize>passLength << 2));
  for (let lane = 0; lane < lanes; lane++) {
    const p = laneItem(lane);
    const index = item(p, 0);
    const binary = truncateWords(TAGS + (<usize>lane << 5));
    const code = modulus == 0 ? binary : binary % modulus;
    // One comparison of two numbers: its time does not depend on how many digits agree.
    if (<u64>code == passwordValue(baseOf(index) + <usize>item(p, 5), passLength)) {
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
    const card = baseOf(index) + <usize>parsedCard;
    const slot = cardCacheSlot(0, card, parsedCardLength);
    const cached = cardCacheFind(slot, 0, card, parsedCardLength);
    if (cached != 0) copyPads(ITEM_PADS + <usize>(index * PADS_SIZE), cached);
    store<i32>(at, index, 0);
    store<i32>(at, parsedCard, 4);
    store<i32>(at, parsedCardLength, 8);
    store<i32>(at, parsedSession, 12);
    store<i32>(at, parsedSessionLength, 16);
    store<i32>(at, parsedPassword, 20);
    store<i32>(at, <i32>slot, 24);
    store<i32>(at, cached != 0 ? 1 : 0, 28);
    pending++;
  }
  let lanes = 0;
  for (let p = 0; p < pending; p++) {
    if (item(p, 7) != 0) continue;
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
  if (pending > 0) clearMessages();
}
