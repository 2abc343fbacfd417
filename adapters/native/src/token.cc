#include "token.h"

#include <algorithm>
#include <cstring>

#include <openssl/rand.h>

#include "base64.h"
#include "barcode.h"
#include "json.h"

namespace wpk {

namespace {

constexpr char kHead[] = "{\"alg\":\"HS256\",\"b64\":false,\"crit\":[\"b64\"],\"iat\":";
constexpr char kJtiHead[] = ",\"jti\":\"";
constexpr uint8_t kTokenLabel[5] = {'t', 'o', 'k', 'e', 'n'};
constexpr uint8_t kDot = '.';

size_t writeDecimal(char* dst, uint64_t value) {
  size_t digits = 1;
  for (uint64_t v = value / 10; v > 0; v /= 10) digits++;
  for (size_t i = digits; i-- > 0;) {
    dst[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  return digits;
}

/** Body bytes that complete the block the header and the dot leave pending. */
size_t pendingRoom(size_t headerLength) { return (kBlockSize - (headerLength + 1) % kBlockSize) % kBlockSize; }

/** Hashes UTF-8 body bytes behind the validator, in whole blocks, as far as it has checked. */
struct HashAlong : JsonProgress {
  Hasher* hasher;
  const uint8_t* body;
  size_t hashed;
};

void hashAlong(JsonProgress* self, size_t position) {
  HashAlong* along = static_cast<HashAlong*>(self);
  const size_t blocks = (position - along->hashed) & ~(kBlockSize - 1);
  along->hasher->update(along->body + along->hashed, blocks);
  along->hashed += blocks;
  along->next = along->hashed + kBlockSize;
}

}  // namespace

void TokenSigner::setPartnerKey(const uint8_t* key, size_t keyLength) {
  Pads scratch;
  uint8_t tokenKey[32];
  hmacKey(Alg::Sha256, scratch, key, keyLength);
  hmac(Alg::Sha256, scratch, kTokenLabel, sizeof kTokenLabel, nullptr, 0, tokenKey);
  hmacKey(Alg::Sha256, pads_, tokenKey, sizeof tokenKey);
  // The header's constant start is exactly one block of base64url: absorb it now, once.
  static_assert(sizeof kHead - 1 == 48, "the constant header start must be 64 base64url characters");
  base64url(reinterpret_cast<const uint8_t*>(kHead), sizeof kHead - 1, headBase64_);
  headState_ = pads_.inner;
  compress(Alg::Sha256, headState_, reinterpret_cast<const uint8_t*>(headBase64_));
  wipeBytes(&scratch, sizeof scratch);
  wipeBytes(tokenKey, sizeof tokenKey);
}

bool TokenSigner::setKid(const char* tail, size_t length) {
  if (length > kKidCap) return false;
  std::memcpy(kid_, tail, length);
  kidLength_ = length;
  return true;
}

size_t TokenSigner::begin(Hasher& hasher, double iat, char* out) {
  if (randomCursor_ + kJtiBytes > kRandomCap) {
    if (RAND_bytes(random_, static_cast<int>(kRandomCap)) != 1) return 0;
    randomCursor_ = 0;
  }
  // {"alg":"HS256","b64":false,"crit":["b64"],"iat":<iat>,"jti":"<jti>"<kid>}: its constant
  // first 48 bytes are 64 base64url characters, hashed once into headState_; the rest varies.
  char tail[20 + sizeof kJtiHead + 24 + kKidCap + 2];
  char* p = tail;
  p += writeDecimal(p, saturateToU64(iat));
  std::memcpy(p, kJtiHead, sizeof kJtiHead - 1);
  p += sizeof kJtiHead - 1;
  uint8_t* jti = random_ + randomCursor_;
  p += base64url(jti, kJtiBytes, p);
  wipeBytes(jti, kJtiBytes);
  randomCursor_ += kJtiBytes;
  *p++ = '"';
  std::memcpy(p, kid_, kidLength_);
  p += kidLength_;
  *p++ = '}';

  std::memcpy(out, headBase64_, sizeof headBase64_);
  const size_t tailLength =
      base64url(reinterpret_cast<const uint8_t*>(tail), static_cast<size_t>(p - tail), out + sizeof headBase64_);
  hasher.resume(Alg::Sha256, headState_, 2 * kBlockSize);
  hasher.update(reinterpret_cast<const uint8_t*>(out) + sizeof headBase64_, tailLength);
  hasher.update(&kDot, 1);
  return sizeof headBase64_ + tailLength;
}

size_t TokenSigner::finish(Hasher& hasher, char* out, size_t headerLength) {
  uint8_t tag[32];
  hmacEnd(hasher, Alg::Sha256, pads_, tag);
  out[headerLength] = '.';
  out[headerLength + 1] = '.';
  return headerLength + 2 + base64url(tag, sizeof tag, out + headerLength + 2);
}

int64_t TokenSigner::sign(const uint8_t* body, size_t length, double iat, char* out, size_t* outLength) {
  Hasher hasher;
  const size_t headerLength = begin(hasher, iat, out);
  if (headerLength == 0) return kRandomFailed;
  // The body's first bytes complete the pending block; from there on the
  // hasher takes whole blocks straight from the body, while it is validated.
  const size_t head = std::min(length, pendingRoom(headerLength));
  hasher.update(body, head);
  HashAlong along;
  along.next = head + kBlockSize;
  along.reached = hashAlong;
  along.hasher = &hasher;
  along.body = body;
  along.hashed = head;
  const int64_t invalidAt = jsonInvalidAt(body, length, &along);
  if (invalidAt >= 0) return invalidAt;
  hasher.update(body + along.hashed, length - along.hashed);
  *outLength = finish(hasher, out, headerLength);
  return -1;
}

void TokenSigner::wipe() {
  wipeBytes(&pads_, sizeof pads_);
  wipeBytes(&headState_, sizeof headState_);
  wipeBytes(random_, sizeof random_);
  randomCursor_ = kRandomCap;
}

}  // namespace wpk
