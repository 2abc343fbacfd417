#include "otp.h"

#include <openssl/crypto.h>

namespace wpk {

namespace {

// 10^digits for digits 0..9; at 10 digits the 31-bit value is the code itself.
constexpr uint32_t kPow10[10] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

}  // namespace

void otpDigits(Alg alg, const Pads& pads, uint64_t counter, const uint8_t* session, size_t sessionLength,
               int digits, uint8_t* out) {
  uint8_t message[8];
  for (int i = 0; i < 8; i++) message[i] = static_cast<uint8_t>(counter >> (56 - 8 * i));
  uint8_t tag[32];
  hmac(alg, pads, message, 8, session, sessionLength, tag);
  const size_t tagLength = digestLength(alg);
  const size_t offset = tag[tagLength - 1] & 0x0f;
  const uint32_t binary = (static_cast<uint32_t>(tag[offset] & 0x7f) << 24) |
                          (static_cast<uint32_t>(tag[offset + 1]) << 16) |
                          (static_cast<uint32_t>(tag[offset + 2]) << 8) | static_cast<uint32_t>(tag[offset + 3]);
  uint32_t value = digits >= 10 ? binary : binary % kPow10[digits];
  for (int i = digits - 1; i >= 0; i--) {
    out[i] = static_cast<uint8_t>('0' + value % 10);
    value /= 10;
  }
}

bool constantTimeEqual(const uint8_t* a, const uint8_t* b, size_t length) {
  return CRYPTO_memcmp(a, b, length) == 0;
}

}  // namespace wpk
