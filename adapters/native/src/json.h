// A JSON validator (RFC 8259 grammar, at most 1024 levels of nesting) with
// exactly the semantics of assembly/json.ts: the same grammar and the same
// failure offsets, so both cores refuse the same bodies at the same byte.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wpk {

constexpr int kJsonMaxDepth = 1024;

/** Bytes past the end of the text that `jsonInvalidAt` may read; the first of them must be 0. */
constexpr size_t kJsonPadding = 32;

/**
 * Told as validation passes `next`, so a caller can hash the bytes already
 * checked while the checking goes on (the two then overlap in the CPU).
 */
struct JsonProgress {
  size_t next;
  void (*reached)(JsonProgress* self, size_t position);
};

/**
 * -1 when the `length` bytes at `text` are one complete JSON value (white
 * space around it allowed), else the offset of the first byte that cannot
 * continue it, or `length` when the text ends too early. Input is UTF-8 as
 * V8/TextEncoder produce it (never invalid), so strings need control checks only.
 * `text[length]` must be 0 and kJsonPadding bytes from there readable: the
 * 0 stops every scan at the end, so the scans need no bounds checks.
 */
int64_t jsonInvalidAt(const uint8_t* text, size_t length, JsonProgress* progress = nullptr);

}  // namespace wpk
