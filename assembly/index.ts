// The wasm core's exports. Buffers are fixed; the host makes its views once.

import { BARCODE, BATCH_SPANS, BATCH_RESULTS, CONFIG, IO, KEY, OUT, RANDOM, RESULT } from './buffers';

export { BARCODE_CAP, BATCH_MAX, CONFIG_CAP, IO_CAP, KEY_CAP, OUT_CAP, RANDOM_CAP } from './buffers';
export { addPreviousKey, configure, setPartnerKey } from './config';
export { verify } from './barcode';
export { verifyBatch } from './batch';
export { cardCacheHits, cardCacheMisses, cardCacheSize, CARD_CACHE_ENTRIES } from './cardcache';
export { randomRefilled, setTokenKid, tokenBegin, tokenFinish, tokenUpdate } from './token';
export { jsonFinish } from './json';
export { deriveCardKey, macBegin, macEnd, macUpdate, otp, otpKey } from './primitives';

/** Addresses of the static buffers, in the order the host's `CoreLayout` expects. */
export function bufferAddress(which: i32): usize {
  switch (which) {
    case 0: return BARCODE;
    case 1: return IO;
    case 2: return KEY;
    case 3: return OUT;
    case 4: return CONFIG;
    case 5: return RANDOM;
    case 6: return RESULT;
    case 7: return BATCH_SPANS;
    case 8: return BATCH_RESULTS;
  }
  return 0;
}
