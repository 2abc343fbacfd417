// A bounded cache of card-bound pads: cardKey = HMAC(partnerKey, "card:" ||
// cardNumber) and its HMAC pads cost four compressions, the code itself two,
// so a rescan of a recently seen card costs a third. Direct-mapped: a card
// lands in one of CARD_CACHE_ENTRIES slots by a hash of its number and key
// index, evicting whatever was there, so the cache never holds more than that
// many cards (CARD_CACHE_ENTRIES * ENTRY_SIZE bytes of static memory). It
// lives in the linear memory the host wipes on close.

/** How many cards' pads are kept at most. */
export const CARD_CACHE_ENTRIES: i32 = 1024;

// An entry: card length (u8, 0 when empty) at +0, key index (u8) at +1,
// card bytes at +16 (up to 64), pads (inner at +80, outer at +112).
const ENTRY_SIZE: usize = 144;
const CARD_AT: usize = 16;
const PADS_AT: usize = 80;

const CACHE: usize = memory.data(<i32>(<usize>CARD_CACHE_ENTRIES * ENTRY_SIZE), 16);

let hits: u32 = 0;
let misses: u32 = 0;

function entryFor(key: i32, card: usize, cardLen: i32): usize {
  // FNV-1a over the card bytes and the key index.
  let h: u32 = 0x811c9dc5 ^ <u32>key;
  for (let i = 0; i < cardLen; i++) h = (h ^ <u32>load<u8>(card + <usize>i)) * 0x01000193;
  h ^= h >>> 15;
  return CACHE + <usize>(h & <u32>(CARD_CACHE_ENTRIES - 1)) * ENTRY_SIZE;
}

/** The cached pads of `card` under verification key `key`, or 0. */
export function cardCacheLookup(key: i32, card: usize, cardLen: i32): usize {
  const entry = entryFor(key, card, cardLen);
  if (<i32>load<u8>(entry) != cardLen || <i32>load<u8>(entry, 1) != key) {
    misses++;
    return 0;
  }
  const stored = entry + CARD_AT;
  for (let i = 0; i < cardLen; i++) {
    if (load<u8>(stored + <usize>i) != load<u8>(card + <usize>i)) {
      misses++;
      return 0;
    }
  }
  hits++;
  return entry + PADS_AT;
}

/** Claims the slot of `card` under `key` (evicting its holder) and returns where its pads go. */
export function cardCacheInsert(key: i32, card: usize, cardLen: i32): usize {
  const entry = entryFor(key, card, cardLen);
  store<u8>(entry, <u8>cardLen);
  store<u8>(entry, <u8>key, 1);
  memory.copy(entry + CARD_AT, card, <usize>cardLen);
  return entry + PADS_AT;
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
