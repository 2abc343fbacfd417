// UTF-16 to UTF-8 as TextEncoder does it (lone surrogates become U+FFFD), with
// a vector path for ASCII runs: request bodies are mostly ASCII, and V8's
// WriteUtf8 goes character by character.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wpk {

/** Encodes `length` UTF-16 units at `src` into `dst` (room for 3 bytes per unit); returns the bytes written. */
size_t utf16ToUtf8(const uint16_t* src, size_t length, uint8_t* dst);

/**
 * Copies the leading ASCII units of the `length` at `src` to `dst` as bytes
 * (room for `length`); returns how many there were: `length` when all are,
 * and then `dst` is their UTF-8.
 */
size_t asciiPrefix(const uint16_t* src, size_t length, uint8_t* dst);

}  // namespace wpk
