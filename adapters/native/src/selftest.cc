// Known answers, checked when the addon loads: they catch a host whose
// OpenSSL does not behave as the headers we built against describe.
#include <cstring>

#include "core.h"
#include "otp.h"

namespace wpk {

namespace {

bool macEquals(Alg alg, const uint8_t* key, size_t keyLength, const char* message, const char* expectedHex) {
  Pads pads;
  hmacKey(alg, pads, key, keyLength);
  uint8_t tag[32];
  hmac(alg, pads, reinterpret_cast<const uint8_t*>(message), std::strlen(message), nullptr, 0, tag);
  static constexpr char kHex[] = "0123456789abcdef";
  char hex[65];
  const size_t length = digestLength(alg);
  for (size_t i = 0; i < length; i++) {
    hex[2 * i] = kHex[tag[i] >> 4];
    hex[2 * i + 1] = kHex[tag[i] & 15];
  }
  hex[2 * length] = 0;
  return std::strcmp(hex, expectedHex) == 0;
}

}  // namespace

bool selfTest() {
  const uint8_t* jefe = reinterpret_cast<const uint8_t*>("Jefe");
  uint8_t aa[131];
  std::memset(aa, 0xaa, sizeof aa);
  const bool macs =
      // RFC 4231 test cases 2, 6 (long key, short data) and 7 (long key, long data).
      macEquals(Alg::Sha256, jefe, 4, "what do ya want for nothing?",
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843") &&
      macEquals(Alg::Sha256, aa, 131, "Test Using Larger Than Block-Size Key - Hash Key First",
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54") &&
      macEquals(Alg::Sha256, aa, 131,
                "This is a test using a larger than block-size key and a larger than block-size data. The key "
                "needs to be hashed before being used by the HMAC algorithm.",
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2") &&
      // RFC 2202 test cases 2 and 7.
      macEquals(Alg::Sha1, jefe, 4, "what do ya want for nothing?", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79") &&
      macEquals(Alg::Sha1, aa, 80, "Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data",
                "e8e99d0f45237d786d6bbaa7965c7808bbff1a91");
  // RFC 4226 appendix D: counters 1 and 9.
  Pads pads;
  hmacKey(Alg::Sha1, pads, reinterpret_cast<const uint8_t*>("12345678901234567890"), 20);
  uint8_t one[6];
  uint8_t nine[6];
  otpDigits(Alg::Sha1, pads, 1, nullptr, 0, 6, one);
  otpDigits(Alg::Sha1, pads, 9, nullptr, 0, 6, nine);
  // RFC 6238 appendix B: SHA-256 at T = 59 s (counter 1) and T = 20000000000 s (counter 666666666).
  Pads pads256;
  hmacKey(Alg::Sha256, pads256, reinterpret_cast<const uint8_t*>("12345678901234567890123456789012"), 32);
  uint8_t early[8];
  uint8_t late[8];
  otpDigits(Alg::Sha256, pads256, 1, nullptr, 0, 8, early);
  otpDigits(Alg::Sha256, pads256, 666666666, nullptr, 0, 8, late);
  return macs && std::memcmp(one, "287082", 6) == 0 && std::memcmp(nine, "520489", 6) == 0 &&
         std::memcmp(early, "46119246", 8) == 0 && std::memcmp(late, "77737706", 8) == 0;
}

}  // namespace wpk
