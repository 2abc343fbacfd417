#include "hmac.h"

#include <cstring>

namespace wpk {

namespace {

/** Pads `block` after `used` bytes for a message of `totalBytes` in all (one final block). */
inline void finishBlock(uint8_t* block, size_t used, uint64_t totalBytes) {
  block[used] = 0x80;
  std::memset(block + used + 1, 0, 56 - (used + 1));
  const uint64_t bits = totalBytes << 3;
  for (int i = 0; i < 8; i++) block[56 + i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
}

void padState(Alg alg, State& state, const uint8_t* key, size_t keyLength, uint8_t fill) {
  uint8_t block[kBlockSize];
  std::memset(block, fill, sizeof block);
  for (size_t i = 0; i < keyLength; i++) block[i] = key[i] ^ fill;
  stateInit(alg, state);
  compress(alg, state, block);
  wipeBytes(block, sizeof block);
}

/** The outer half: one block holding the inner digest, under the outer pad. */
inline void outerFinish(Alg alg, const Pads& pads, uint8_t* block, uint8_t* out) {
  const size_t digest = digestLength(alg);
  finishBlock(block, digest, kBlockSize + digest);
  State outer = pads.outer;
  compress(alg, outer, block);
  stateDigest(alg, outer, out);
}

}  // namespace

void hmacKey(Alg alg, Pads& pads, const uint8_t* key, size_t keyLength) {
  uint8_t hashed[32];
  if (keyLength > kBlockSize) {
    Hasher hasher;
    hasher.init(alg);
    hasher.update(key, keyLength);
    hasher.finish(hashed);
    key = hashed;
    keyLength = digestLength(alg);
  }
  padState(alg, pads.inner, key, keyLength, 0x36);
  padState(alg, pads.outer, key, keyLength, 0x5c);
  wipeBytes(hashed, sizeof hashed);
}

void hmac(Alg alg, const Pads& pads, const uint8_t* a, size_t aLength, const uint8_t* b, size_t bLength,
          uint8_t* out) {
  uint8_t block[kBlockSize];
  const size_t used = aLength + bLength;
  if (used <= kShortMessageMax) {
    std::memcpy(block, a, aLength);
    if (bLength > 0) std::memcpy(block + aLength, b, bLength);
    finishBlock(block, used, kBlockSize + used);
    State inner = pads.inner;
    compress(alg, inner, block);
    stateDigest(alg, inner, block);
  } else {
    Hasher hasher;
    hmacBegin(hasher, alg, pads);
    hasher.update(a, aLength);
    hasher.update(b, bLength);
    hasher.finish(block);
  }
  outerFinish(alg, pads, block, out);
}

void hmacBegin(Hasher& hasher, Alg alg, const Pads& pads) { hasher.resume(alg, pads.inner, kBlockSize); }

void hmacEnd(Hasher& hasher, Alg alg, const Pads& pads, uint8_t* out) {
  uint8_t block[kBlockSize];
  hasher.finish(block);
  outerFinish(alg, pads, block, out);
}

}  // namespace wpk
