#include "barcode.h"

#include "otp.h"

namespace wpk {

namespace {

constexpr uint8_t kCardLabel[5] = {'c', 'a', 'r', 'd', ':'};

// The interface document types the card number as any String and fixes only
// the session's length: card bytes are any UTF-8 byte but the C0 controls and
// DEL, session bytes printable ASCII (space to tilde).
inline bool isCardChar(uint32_t c) { return c >= 32 && c != 127; }
inline bool isSessionChar(uint32_t c) { return c - 32 < 95; }

bool allMatch(const uint8_t* from, int length, bool session) {
  for (int i = 0; i < length; i++) {
    const uint32_t c = from[i];
    if (session ? !isSessionChar(c) : !isCardChar(c)) return false;
  }
  return true;
}

bool allDigits(const uint8_t* from, int length) {
  for (int i = 0; i < length; i++) {
    if (static_cast<uint32_t>(from[i]) - 48 >= 10) return false;
  }
  return true;
}

}  // namespace

uint64_t saturateToU64(double x) {
  if (!(x > 0)) return 0;
  if (x >= 18446744073709551616.0) return UINT64_MAX;
  return static_cast<uint64_t>(x);
}

/** Position of the next delimiter at or after `from` (before `end`), or -1. */
static int findDelimiter(const Layout& layout, const uint8_t* barcode, int from, int end) {
  const uint8_t first = layout.delimiter[0];
  const int last = end - layout.delimiterLength;
  for (int i = from; i <= last; i++) {
    if (barcode[i] != first) continue;
    int j = 1;
    while (j < layout.delimiterLength && barcode[i + j] == layout.delimiter[j]) j++;
    if (j == layout.delimiterLength) return i;
  }
  return -1;
}

int BarcodeVerifier::verify(const uint8_t* barcode, int length, bool truncated, double nowMs, int32_t* slots) {
  const Layout& l = layout;
  slots[kSlotCardOffset] = -1;
  slots[kSlotCardLength] = 0;
  slots[kSlotSessionOffset] = -1;
  slots[kSlotSessionLength] = 0;
  slots[kSlotPasswordOffset] = -1;
  slots[kSlotMatchedDelta] = 0;
  slots[kSlotKeyIndex] = -1;
  // The counter slots keep the last match, as the wasm core's do.

  const int d0 = findDelimiter(l, barcode, 0, length);
  const int field0End = d0 < 0 ? length : d0;
  if ((d0 < 0 && truncated) || field0End != l.prefixLength) return kVerifyPrefixMismatch;
  if (!constantTimeEqual(barcode, l.prefix, l.prefixLength)) return kVerifyPrefixMismatch;
  if (d0 < 0) return kVerifyMalformed;

  const int cardStart = d0 + l.delimiterLength;
  const int d1 = findDelimiter(l, barcode, cardStart, length);
  const int cardLength = (d1 < 0 ? length : d1) - cardStart;
  const bool cardValid = cardLength >= 1 && cardLength <= kMaxCardLength && !(d1 < 0 && truncated) &&
                         allMatch(barcode + cardStart, cardLength, false);
  if (cardValid) {
    slots[kSlotCardOffset] = cardStart;
    slots[kSlotCardLength] = cardLength;
  }
  if (d1 < 0 || truncated || !cardValid) return kVerifyMalformed;

  const int p2 = d1 + l.delimiterLength;
  const int d2 = findDelimiter(l, barcode, p2, length);
  const int sessionStart = p2;
  int sessionLength = 0;
  int passStart = p2;
  if (d2 >= 0) {
    passStart = d2 + l.delimiterLength;
    if (findDelimiter(l, barcode, passStart, length) >= 0) return kVerifyMalformed;
    sessionLength = d2 - p2;
  }
  const int passLength = length - passStart;
  if (sessionLength != 0 &&
      (sessionLength != l.sessionLength || !allMatch(barcode + sessionStart, sessionLength, true))) {
    return kVerifyMalformed;
  }
  if (passLength != l.passLength || !allDigits(barcode + passStart, passLength)) return kVerifyMalformed;
  if (sessionLength != 0) {
    slots[kSlotSessionOffset] = sessionStart;
    slots[kSlotSessionLength] = sessionLength;
  }
  slots[kSlotPasswordOffset] = passStart;

  const uint64_t nowSeconds = nowMs > 0 ? saturateToU64(nowMs / 1000) : 0;
  const uint64_t current = nowSeconds / l.intervalSeconds;
  const uint8_t* password = barcode + passStart;
  const uint8_t* session = barcode + sessionStart;
  const bool cardBound = l.scheme == kSchemeCardBound;
  // rfc6238 reads the card number and session but keeps them out of the MAC.
  const int macSessionLength = cardBound ? sessionLength : 0;
  if (!cardBound) {
    // The codes are the same for every scan in a step: compare against the memoised ones.
    if (current != memoStep_) {
      memoStep_ = current;
      resetMemo();
    }
    for (int k = 0; k < keyCount; k++) {
      for (int i = 0, tries = 2 * l.window + 1; i < tries; i++) {
        const uint64_t magnitude = static_cast<uint64_t>((i + 1) >> 1);
        const bool earlier = (i & 1) == 1;
        if (earlier && current < magnitude) continue;
        const uint64_t counter = earlier ? current - magnitude : current + magnitude;
        if (constantTimeEqual(memoCode(k, i, counter), password, l.passLength)) {
          slots[kSlotMatchedDelta] = earlier ? -static_cast<int32_t>(magnitude) : static_cast<int32_t>(magnitude);
          slots[kSlotCounterLo] = static_cast<int32_t>(static_cast<uint32_t>(counter & 0xffffffffu));
          slots[kSlotCounterHi] = static_cast<int32_t>(static_cast<uint32_t>(counter >> 32));
          slots[kSlotKeyIndex] = k;
          return kVerifyOk;
        }
      }
    }
    return kVerifyCodeMismatch;
  }
  // The current key first; previous keys only for what it refuses.
  for (int k = 0; k < keyCount; k++) {
    const Pads* pads = &keys[k];
    if (cardBound) {
      // cardKey = HMAC_alg(partnerKey, "card:" || cardNumber), then its pads: computed per scan.
      hmac(l.alg, keys[k], kCardLabel, sizeof kCardLabel, barcode + cardStart, cardLength, cardKey_);
      hmacKey(l.alg, cardPads_, cardKey_, digestLength(l.alg));
      pads = &cardPads_;
    }
    if (matchWindow(*pads, current, session, macSessionLength, password, slots)) {
      slots[kSlotKeyIndex] = k;
      return kVerifyOk;
    }
  }
  return kVerifyCodeMismatch;
}

bool BarcodeVerifier::matchWindow(const Pads& pads, uint64_t current, const uint8_t* session, int sessionLength,
                                  const uint8_t* password, int32_t* slots) const {
  const Layout& l = layout;
  uint8_t digits[16];
  // Order 0, -1, +1, -2, +2, ...: the present step first, as valid scans mostly are.
  for (int i = 0, tries = 2 * l.window + 1; i < tries; i++) {
    const uint64_t magnitude = static_cast<uint64_t>((i + 1) >> 1);
    const bool earlier = (i & 1) == 1;
    if (earlier && current < magnitude) continue;
    const uint64_t counter = earlier ? current - magnitude : current + magnitude;
    otpDigits(l.alg, pads, counter, session, sessionLength, l.passLength, digits);
    if (constantTimeEqual(digits, password, l.passLength)) {
      slots[kSlotMatchedDelta] = earlier ? -static_cast<int32_t>(magnitude) : static_cast<int32_t>(magnitude);
      slots[kSlotCounterLo] = static_cast<int32_t>(static_cast<uint32_t>(counter & 0xffffffffu));
      slots[kSlotCounterHi] = static_cast<int32_t>(static_cast<uint32_t>(counter >> 32));
      return true;
    }
  }
  return false;
}

const uint8_t* BarcodeVerifier::memoCode(int key, int tryIndex, uint64_t counter) {
  uint8_t* code = memoCodes_[key][tryIndex];
  if (memoGenerations_[key][tryIndex] != generation_) {
    otpDigits(layout.alg, keys[key], counter, nullptr, 0, layout.passLength, code);
    memoGenerations_[key][tryIndex] = generation_;
  }
  return code;
}

void BarcodeVerifier::resetMemo() {
  if (++generation_ == 0) {
    // After 2^32 resets an old entry's generation could match again: clear them all instead.
    wipeBytes(memoGenerations_, sizeof memoGenerations_);
    generation_ = 1;
  }
}

void BarcodeVerifier::wipe() {
  wipeBytes(keys, sizeof keys);
  keyCount = 0;
  wipeBytes(cardKey_, sizeof cardKey_);
  wipeBytes(&cardPads_, sizeof cardPads_);
  wipeBytes(memoCodes_, sizeof memoCodes_);
  wipeBytes(memoGenerations_, sizeof memoGenerations_);
  resetMemo();
}

}  // namespace wpk
