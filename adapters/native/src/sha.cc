#include "sha.h"

#include <cstring>

#include <openssl/crypto.h>

namespace wpk {

namespace {

constexpr uint32_t kSha1Iv[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
constexpr uint32_t kSha256Iv[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

inline void storeBigEndian(uint8_t* out, uint32_t value) {
  out[0] = static_cast<uint8_t>(value >> 24);
  out[1] = static_cast<uint8_t>(value >> 16);
  out[2] = static_cast<uint8_t>(value >> 8);
  out[3] = static_cast<uint8_t>(value);
}

}  // namespace

void stateInit(Alg alg, State& state) {
  if (alg == Alg::Sha1) {
    std::memcpy(state.w, kSha1Iv, sizeof kSha1Iv);
    state.w[5] = state.w[6] = state.w[7] = 0;
  } else {
    std::memcpy(state.w, kSha256Iv, sizeof kSha256Iv);
  }
}

// The Transform functions read and write only the chaining words of the
// context (OpenSSL's block function is called with one block), so a context
// on the stack with just those words set is all they need.
void compress(Alg alg, State& state, const uint8_t* block) {
  if (alg == Alg::Sha1) {
    SHA_CTX ctx;
    ctx.h0 = state.w[0];
    ctx.h1 = state.w[1];
    ctx.h2 = state.w[2];
    ctx.h3 = state.w[3];
    ctx.h4 = state.w[4];
    SHA1_Transform(&ctx, block);
    state.w[0] = ctx.h0;
    state.w[1] = ctx.h1;
    state.w[2] = ctx.h2;
    state.w[3] = ctx.h3;
    state.w[4] = ctx.h4;
  } else {
    SHA256_CTX ctx;
    std::memcpy(ctx.h, state.w, sizeof state.w);
    SHA256_Transform(&ctx, block);
    std::memcpy(state.w, ctx.h, sizeof state.w);
  }
}

void stateDigest(Alg alg, const State& state, uint8_t* out) {
  const size_t words = alg == Alg::Sha1 ? 5 : 8;
  for (size_t i = 0; i < words; i++) storeBigEndian(out + 4 * i, state.w[i]);
}

void wipeBytes(void* data, size_t length) { OPENSSL_cleanse(data, length); }

void Hasher::init(Alg alg) {
  alg_ = alg;
  if (alg == Alg::Sha1) {
    SHA1_Init(&ctx_.sha1);
  } else {
    SHA256_Init(&ctx_.sha256);
  }
}

void Hasher::resume(Alg alg, const State& state, uint64_t absorbed) {
  alg_ = alg;
  const uint64_t bits = absorbed << 3;
  if (alg == Alg::Sha1) {
    SHA_CTX& c = ctx_.sha1;
    std::memset(&c, 0, sizeof c);
    c.h0 = state.w[0];
    c.h1 = state.w[1];
    c.h2 = state.w[2];
    c.h3 = state.w[3];
    c.h4 = state.w[4];
    c.Nl = static_cast<SHA_LONG>(bits);
    c.Nh = static_cast<SHA_LONG>(bits >> 32);
  } else {
    SHA256_CTX& c = ctx_.sha256;
    std::memset(&c, 0, sizeof c);
    std::memcpy(c.h, state.w, sizeof state.w);
    c.Nl = static_cast<SHA_LONG>(bits);
    c.Nh = static_cast<SHA_LONG>(bits >> 32);
    c.md_len = SHA256_DIGEST_LENGTH;
  }
}

void Hasher::update(const uint8_t* data, size_t length) {
  if (length == 0) return;
  if (alg_ == Alg::Sha1) {
    SHA1_Update(&ctx_.sha1, data, length);
  } else {
    SHA256_Update(&ctx_.sha256, data, length);
  }
}

void Hasher::finish(uint8_t* out) {
  if (alg_ == Alg::Sha1) {
    SHA1_Final(out, &ctx_.sha1);
  } else {
    SHA256_Final(out, &ctx_.sha256);
  }
}

}  // namespace wpk
