// SHA-1 and SHA-256 through the OpenSSL that the node executable already
// carries (its symbols resolve from the host process; nothing is linked).
// Only the compression functions and the streaming Update/Final are used.
#pragma once

#include <cstddef>
#include <cstdint>

#include <openssl/sha.h>

namespace wpk {

enum class Alg : int { Sha1 = 1, Sha256 = 2 };

constexpr size_t kBlockSize = 64;

inline size_t digestLength(Alg alg) { return alg == Alg::Sha1 ? 20 : 32; }

/** A chaining state: 5 (SHA-1) or 8 (SHA-256) words, as OpenSSL keeps them. */
struct State {
  uint32_t w[8];
};

/** The initial state of `alg`. */
void stateInit(Alg alg, State& state);

/** Folds one 64-byte block into `state` (SHA1_Transform / SHA256_Transform). */
void compress(Alg alg, State& state, const uint8_t* block);

/** Writes `state` as a big-endian digest (20 or 32 bytes). */
void stateDigest(Alg alg, const State& state, uint8_t* out);

/** Overwrites `length` bytes so the compiler cannot drop it (OPENSSL_cleanse). */
void wipeBytes(void* data, size_t length);

/** A streaming hash for messages that do not fit one block (SHA*_Update/Final). */
class Hasher {
 public:
  /** Starts a fresh hash. */
  void init(Alg alg);
  /** Resumes from `state`, which has absorbed `absorbed` bytes (a multiple of 64). */
  void resume(Alg alg, const State& state, uint64_t absorbed);
  void update(const uint8_t* data, size_t length);
  /** Pads, finishes and writes the digest. */
  void finish(uint8_t* out);
  ~Hasher() { wipeBytes(&ctx_, sizeof ctx_); }

 private:
  Alg alg_ = Alg::Sha256;
  union {
    SHA256_CTX sha256;
    SHA_CTX sha1;
  } ctx_;
};

}  // namespace wpk
