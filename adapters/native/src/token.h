// The Pay API token: a JWS (RFC 7515) HS256 with a detached, unencoded
// payload (RFC 7797), byte for byte the token of assembly/token.ts.
#pragma once

#include "hmac.h"

namespace wpk {

/** Room for a header tail `,"kid":"..."` (a 128-character partner id, every character escaped). */
constexpr size_t kKidCap = 384;
/** Longest token: base64url of the longest header, "..", base64url of the tag. */
constexpr size_t kTokenCap = 1024;

class TokenSigner {
 public:
  /** Derives tokenKey = HMAC-SHA256(partnerKey, "token") and keeps only its pads. */
  void setPartnerKey(const uint8_t* key, size_t keyLength);

  /** Sets the header tail (already JSON-escaped by the host); false when it is too long. */
  bool setKid(const char* tail, size_t length);

  /** What the sign functions return when the CSPRNG failed. */
  static constexpr int64_t kRandomFailed = -2;

  /**
   * Signs `body` (UTF-8, followed by a 0 and kJsonPadding readable bytes in
   * all) issued at `iat` (Unix seconds). Returns -1 with the token in `out`
   * (`outLength` characters), the byte offset where the body stops being
   * JSON, or kRandomFailed.
   */
  int64_t sign(const uint8_t* body, size_t length, double iat, char* out, size_t* outLength);

  /** Forgets the token key's pads and the unused random bytes. */
  void wipe();
  ~TokenSigner() { wipe(); }

 private:
  /**
   * Writes the header for `iat` at `out` and starts the MAC over it and the dot; its length, or 0 when the CSPRNG
   * failed.
   */
  size_t begin(Hasher& hasher, double iat, char* out);
  /** Finishes the MAC and appends ".." and the signature; the token's length. */
  size_t finish(Hasher& hasher, char* out, size_t headerLength);

  static constexpr size_t kRandomCap = 4096;
  static constexpr size_t kJtiBytes = 16;

  Pads pads_ = {};
  /** The inner state after the pad block and the header's constant first 64 characters. */
  State headState_ = {};
  char headBase64_[kBlockSize] = {};
  char kid_[kKidCap] = {};
  size_t kidLength_ = 0;
  uint8_t random_[kRandomCap] = {};
  size_t randomCursor_ = kRandomCap;
};

}  // namespace wpk
