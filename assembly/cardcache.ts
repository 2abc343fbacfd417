// A bounded cache of card-bound pads: cardKey = HMAC(partnerKey, "card:" ||
// cardNumber) and its HMAC pads cost four compressions, the code itself two,
// so a rescan of a recently seen card costs a third. Direct-mapped: a card
// lands in one of CARD_CACHE_ENTRIES slots by a hash of its number and key
// index, evicting whatever was there, so the cache never holds more than that
// many cards (CARD_CACHE_ENTRIES * ENTRY_SIZE bytes of static memory). It
// lives in the linear memory the host wipes on close.

const CACHE_BITS: u64 = 10;
/** How many cards' pads are kept at most. */
export const CARD_CACHE_ENTRIES: i32 = 1 << <i32>CACHE_BITS;

// An entry: card length (u8, 0 when empty) at +0, key index (u8) at +1,
// card bytes at +16 (up to 64), pads (inner at +80, outer at +112).
const ENTRY_SIZE: usize = 144;
const CARD_AT: usize = 16;
const PADS_AT: usize = 80;

const CACHE: usize = memory.data(<i32>(<usize>CARD_CACHE_ENTRIES * ENTRY_SIZE), 16);

let hits: u32 = 0;
let misses: u32 = 0;

/** The 8 bytes of `card` from `i`, those past `cardLen` zeroed (the load itself may read past it). */
@inline function chunkOf(card: usize, i: i32, cardLen: i32): u64 {
  const word = load<u64>(card + <usize>i);
  const rest = cardLen - i;
  return rest >= 8 ? word : word & ((<u64>1 << (<u64>rest << 3)) - 1);
}

/**
 * The slot `card` maps to under `key`: a multiply-xorshift hash, eight bytes a
 * step (the byte-wise FNV-1a it replaces was a chain of 16 multiplies for a
 * 16-digit card, paid twice per miss). Not a defence against chosen
 * collisions, nor does it need to be: a collision only evicts, costing the
 * evicted card four compressions at its next scan.
 */
export function cardCacheSlot(key: i32, card: usize, cardLen: i32): usize {
  let h: u64 = <u64>((key << 8) | cardLen) * 0x9e3779b97f4a7c15;
  for (let i = 0; i < cardLen; i += 8) {
    h = (h ^ chunkOf(card, i, cardLen)) * 0xff51afd7ed558ccd;
    h ^= h >> 32;
  }
  return CACHE + <usize>((h * 0x9e3779b97f4a7c15) >> (64 - CACHE_BITS)) * ENTRY_SIZE;
}

/** The pads `slot` (from cardCacheSlot) holds for `card` under `key`, or 0. */
export function cardCacheFind(slot: usize, key: i32, card: usize, cardLen: i32): usize {
  if (<i32>load<u8>(slot) != cardLen || <i32>load<u8>(slot, 1) != key) {
    misses++;
    return 0;
  }
  let diff: u64 = 0;
  for (let i = 0; i < cardLen; i += 8) diff |= load<u64>(slot + CARD_AT + <usize>i) ^ chunkOf(card, i, cardLen);
  if (diff != 0) {
    misses++;
    return 0;
  }
  hits++;
  return slot + PADS_AT;
}

/** Makes `slot` (from cardCacheSlot) hold `card` under `key`, evicting its holder; returns where its pads go. */
export function cardCacheClaim(slot: usize, key: i32, card: usize, cardLen: i32): usize {
  store<u8>(slot, <u8>cardLen);
  store<u8>(slot, <u8>key, 1);
  for (let i = 0; i < cardLen; i += 8) store<u64>(slot + CARD_AT + <usize>i, chunkOf(card, i, cardLen));
  return slot + PADS_AT;
}

/** Copies a pad pair (64 bytes, 16-byte aligned at both ends). */
export function copyPads(to: usize, from: usize): void {
  v128.store(to, v128.load(from));
  v128.store(to, v128.load(from, 16), 16);
  v128.store(to, v128.load(from, 32), 32);
  v128.store(to, v128.load(from, 48), 48);
}

/** Forgets every card (a new key). */
export function cardCacheClear(): void {
  memory.fill(CACHE, 0, <usize>CARD_CACHE_ENTRIES * ENTRY_SIZE);
}

/** How many slots hold a card now (at most CARD_CACHE_ENTRIES). */
export function cardCacheSize(): i32 {
  let n = 0;
  for (let i = 0; i < CARD_CACHE_ENTRIES; i++) {
    if (load<u8>(CACHE + <usize>i * ENTRY_SIZE) != 0) n++;
  }
  return n;
}

/** Look-ups that found the card, and that did not, since the core started. */
export function cardCacheHits(): u32 {
  return hits;
}

export function cardCacheMisses(): u32 {
  return misses;
}
