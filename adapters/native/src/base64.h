// base64url without padding (RFC 4648 section 5), as JWS requires.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wpk {

/** Characters `base64url` writes for `length` bytes. */
constexpr size_t base64urlLength(size_t length) { return (length / 3) * 4 + (length % 3 == 0 ? 0 : length % 3 + 1); }

/** Encodes `length` bytes at `src` into `dst`; returns the number of characters written. */
size_t base64url(const uint8_t* src, size_t length, char* dst);

}  // namespace wpk
