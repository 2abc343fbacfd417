// Barcode split and verification over the UTF-8 bytes of a scanned barcode.
// Layout: prefix D cardNumber D cardSession D password (session may be empty),
// or the three-part prefix D cardNumber D password. Mirrors assembly/barcode.ts
// check for check, so both cores answer every input the same.
#pragma once

#include "hmac.h"

namespace wpk {

enum VerifyCode : int { kVerifyOk = 0, kVerifyPrefixMismatch = 1, kVerifyMalformed = 2, kVerifyCodeMismatch = 3 };

/** Slots of the result area (int32 each), as the host reads them. */
enum Slot : int {
  kSlotCardOffset = 0,
  kSlotCardLength = 1,
  kSlotSessionOffset = 2,
  kSlotSessionLength = 3,
  kSlotPasswordOffset = 4,
  kSlotMatchedDelta = 5,
  kSlotCounterLo = 6,
  kSlotCounterHi = 7,
  kSlotKeyIndex = 8,
  kSlotCount = 9,
};

/** Capacity of the wasm core's barcode buffer: longer input counts as truncated. */
constexpr int kBarcodeCap = 1024;
/** Card numbers are 1 to 64 UTF-8 bytes (the wasm core's card cache holds 64). */
constexpr int kMaxCardLength = 64;
constexpr int kMaxPrefixLength = 16;
constexpr int kMaxDelimiterLength = 4;
/** The current key and up to four previous ones (a key rotation) are accepted for verification. */
constexpr int kMaxKeys = 5;

/**
 * Password schemes (the README's Barcodes): plain RFC 6238 TOTP of the partner key, or per-card keys with the session
 * in the MAC.
 */
enum Scheme : int { kSchemeRfc6238 = 0, kSchemeCardBound = 1 };

/** The barcode layout and OTP parameters (validated by the host). */
struct Layout {
  Alg alg = Alg::Sha256;
  int passLength = 8;
  uint64_t intervalSeconds = 30;
  int sessionLength = 8;
  int window = 1;
  uint8_t prefix[kMaxPrefixLength] = {};
  int prefixLength = 0;
  uint8_t delimiter[kMaxDelimiterLength] = {};
  int delimiterLength = 0;
  Scheme scheme = kSchemeRfc6238;
};

class BarcodeVerifier {
 public:
  Layout layout;
  /** Pads under the layout's algorithm of each verification key: [0] the current partner key, then previous ones. */
  Pads keys[kMaxKeys] = {};
  int keyCount = 0;

  /**
   * Splits and checks the `length` bytes at `barcode` at Unix time `nowMs`;
   * `truncated` says the input was longer than kBarcodeCap. Returns a
   * VerifyCode; offsets of the parts that could be read go to `slots`.
   */
  int verify(const uint8_t* barcode, int length, bool truncated, double nowMs, int32_t* slots);

  /** Forgets the key pads, the last card's key and the memoised codes. */
  void wipe();
  /** Forgets the memoised rfc6238 codes (call after changing keys or the layout). */
  void resetMemo();
  ~BarcodeVerifier() { wipe(); }

 private:
  /** Tries the window's steps under `pads`; on a match, its delta and counter go to `slots`. */
  bool matchWindow(const Pads& pads, uint64_t current, const uint8_t* session, int sessionLength,
                   const uint8_t* password, int32_t* slots) const;

  /** The expected rfc6238 code of try `tryIndex` under key `key` in the memoised step, computed on first need. */
  const uint8_t* memoCode(int key, int tryIndex, uint64_t counter);

  uint8_t cardKey_[32] = {};
  Pads cardPads_ = {};
  // rfc6238: the code depends only on the key and the counter, so each code of
  // the present step is computed once and every scan in the step compares
  // against it (assembly/memo.ts does the same).
  static constexpr int kMaxTries = 21;
  uint8_t memoCodes_[kMaxKeys][kMaxTries][16] = {};
  uint32_t memoGenerations_[kMaxKeys][kMaxTries] = {};
  uint64_t memoStep_ = 0;
  uint32_t generation_ = 1;
};

/** `x` converted to u64 the way wasm's saturating truncation does (NaN and negatives are 0). */
uint64_t saturateToU64(double x);

}  // namespace wpk
