// HMAC (RFC 2104) over precomputed pad states: a key is absorbed once into an
// inner and an outer state, so a MAC of a short message costs two compressions.
#pragma once

#include "sha.h"

namespace wpk {

/** The inner and outer states of a key, each having absorbed one padded block. */
struct Pads {
  State inner;
  State outer;
};

/** Longest message `hmac` finishes in a single block of its own making. */
constexpr size_t kShortMessageMax = 55;

/** Absorbs `key` into `pads` (keys longer than a block are hashed first). */
void hmacKey(Alg alg, Pads& pads, const uint8_t* key, size_t keyLength);

/**
 * HMAC under `pads` of the message `a || b`, tag (digest length) at `out`.
 * Up to kShortMessageMax bytes it builds the final blocks itself: exactly two
 * compressions, no context bookkeeping; longer messages stream.
 */
void hmac(Alg alg, const Pads& pads, const uint8_t* a, size_t aLength, const uint8_t* b, size_t bLength,
          uint8_t* out);

/** Starts a streamed MAC of a long message in `hasher`. */
void hmacBegin(Hasher& hasher, Alg alg, const Pads& pads);

/** Finishes the MAC streamed in `hasher`; tag at `out`. */
void hmacEnd(Hasher& hasher, Alg alg, const Pads& pads, uint8_t* out);

}  // namespace wpk
