#include "base64.h"

#include <cstring>

namespace wpk {

namespace {

constexpr char kAlphabet[65] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

}  // namespace

size_t base64url(const uint8_t* src, size_t length, char* dst) {
  size_t o = 0;
  size_t i = 0;
  for (; i + 3 <= length; i += 3, o += 4) {
    // Read the three bytes before writing: `dst` may alias `src` as far as the compiler knows.
    const uint32_t v = (static_cast<uint32_t>(src[i]) << 16) | (static_cast<uint32_t>(src[i + 1]) << 8) | src[i + 2];
    const char quad[4] = {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], kAlphabet[v & 63]};
    std::memcpy(dst + o, quad, 4);
  }
  const size_t rest = length - i;
  if (rest == 1) {
    const uint32_t v = static_cast<uint32_t>(src[i]) << 16;
    dst[o++] = kAlphabet[v >> 18];
    dst[o++] = kAlphabet[(v >> 12) & 63];
  } else if (rest == 2) {
    const uint32_t v = (static_cast<uint32_t>(src[i]) << 16) | (static_cast<uint32_t>(src[i + 1]) << 8);
    dst[o++] = kAlphabet[v >> 18];
    dst[o++] = kAlphabet[(v >> 12) & 63];
    dst[o++] = kAlphabet[(v >> 6) & 63];
  }
  return o;
}

}  // namespace wpk
