// One verifier's core: the barcode layout and partner pads, the token signer,
// and the fixed buffers the host's strings are copied into.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "barcode.h"
#include "token.h"

namespace wpk {

/** The configuration the host hands over (already validated by it; checked again here). Wipes the key when it goes. */
struct CoreConfig {
  int alg = 0;
  int passLength = 0;
  double interval = 0;
  int sessionLength = 0;
  int window = 0;
  std::string prefix;
  std::string delimiter;
  std::string keyHex;
  std::string kidTail;
  /** 0 rfc6238, 1 card-bound. */
  int scheme = 0;
  /** Keys still accepted for verification (never for tokens), in order. */
  std::vector<std::string> previousKeysHex;
  ~CoreConfig() {
    if (!keyHex.empty()) wipeBytes(&keyHex[0], keyHex.size());
    for (std::string& hex : previousKeysHex) {
      if (!hex.empty()) wipeBytes(&hex[0], hex.size());
    }
  }
};

class Core {
 public:
  /** Configures the core and absorbs the key; returns an error message, or empty. */
  std::string configure(const CoreConfig& config);

  BarcodeVerifier barcode;
  TokenSigner token;

  /** The barcode input: a few bytes more than the wasm core's buffer holds, to tell truncation. */
  static constexpr size_t kBarcodeBuffer = kBarcodeCap + 5;
  uint8_t barcodeBytes[kBarcodeBuffer];

  /** Scratch for request bodies (null when out of memory); kept while small, dropped after a large one. */
  uint8_t* scratch(size_t capacity);
  void releaseLargeScratch();

  void wipe();
  ~Core() { wipe(); }

 private:
  static constexpr size_t kKeptScratch = 2 << 20;
  std::unique_ptr<uint8_t[]> scratch_;
  size_t scratchCapacity_ = 0;
};

/** Known-answer tests of the hashes, HMAC (short, long and long-key paths) and HOTP. */
bool selfTest();

}  // namespace wpk
