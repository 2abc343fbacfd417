// Barcode verification through the JS-facing `Core`: `verify(barcode, nowMs)`
// and `verifyBatch(joined, count, nowMs)`. Both are functions of each instance
// carrying the core as their data (see Bind): the per-call napi_unwrap of a
// prototype method (a private symbol lookup, as costly as the verification
// itself on the memoised path) is not paid on the path every scan takes.
#include "native_core.h"
#include "utf8.h"

namespace wpk {

namespace {

/**
 * UTF-16 units of a barcode a batch reads at most: one past the cap. Those
 * 1,025 units make at least 1,025 bytes, so the barcode counts as truncated
 * and the whole characters within 1,024 bytes are all among them: the rest
 * of a longer barcode cannot change its result.
 */
constexpr int kBatchUnits = kBarcodeCap + 1;
/**
 * Scratch of a batch: its joined UTF-16 (two units spare, so a string
 * longer than its spans say shows), the ASCII bytes of it, and the UTF-8
 * of one barcode that is not ASCII (3 bytes a unit).
 */
constexpr size_t kBatchJoinedUnits = NativeCore::kBatchMax * kBatchUnits + 2;
constexpr size_t kBatchAsciiAt = kBatchJoinedUnits * sizeof(char16_t);
constexpr size_t kBatchUtf8At = kBatchAsciiAt + kBatchJoinedUnits;
constexpr size_t kBatchScratch = kBatchUtf8At + kBatchUnits * 3;

napi_value BatchUsage(napi_env env) {
  napi_throw_type_error(env, nullptr,
                        "verifyBatch(joined: string, count: number, nowMs: number): batchSpans[0..count) must hold "
                        "0 to 1025 and add up to joined.length");
  return nullptr;
}

}  // namespace

/**
 * Verifies the `written` UTF-8 bytes at `bytes` into `slots`; returns the
 * VerifyCode. Past kBarcodeCap bytes the input counts as truncated to the
 * whole characters within the cap, as TextEncoder.encodeInto into the wasm
 * core's 1,024-byte buffer leaves it.
 */
int NativeCore::VerifyUtf8(const uint8_t* bytes, size_t written, double nowMs, int32_t* slots) {
  int length = static_cast<int>(written);
  const bool truncated = written > static_cast<size_t>(kBarcodeCap);
  if (truncated) {
    length = kBarcodeCap;
    while (length > 0 && (bytes[length] & 0xc0) == 0x80) length--;
  }
  return core_->barcode.verify(bytes, length, truncated, nowMs, slots);
}

/** Copies the string `text` in and verifies it into `slots`; the VerifyCode, or -1 when `text` is not a string. */
int NativeCore::VerifyOne(napi_env env, napi_value text, double nowMs, int32_t* slots) {
  uint8_t* bytes = core_->barcodeBytes;
  size_t written = 0;
  // The buffer holds a few bytes more than the wasm core's 1024, so up to
  // 1024 bytes are written whole and a longer input shows as more.
  char* buffer = reinterpret_cast<char*>(bytes);
  if (napi_get_value_string_utf8(env, text, buffer, Core::kBarcodeBuffer, &written) != napi_ok) return -1;
  return VerifyUtf8(bytes, written, nowMs, slots);
}

napi_value NativeCore::Verify(napi_env env, napi_callback_info info) {
  napi_value args[2];
  NativeCore* self = Arguments(env, info, args);
  double nowMs = 0;
  const int code =
      napi_get_value_double(env, args[1], &nowMs) == napi_ok ? self->VerifyOne(env, args[0], nowMs, self->slots_) : -1;
  if (code < 0) {
    Throw(env, "verify(fullBarcode: string, nowMs: number)");
    return nullptr;
  }
  napi_value result;
  napi_create_int32(env, code, &result);
  return result;
}

/**
 * Verifies `count` (at most kBatchMax) barcodes, all at `nowMs`, into
 * `batchResult`. The barcodes come joined in one string, barcode i being
 * the next batchSpans[i] UTF-16 units (its first kBatchUnits at most): one
 * copy of one string instead of an element read and a copy per barcode,
 * which cost more than the single call's whole crossing. Each barcode is
 * transcoded here and verified as `verify` verifies it, so every code and
 * slot is the one single calls give.
 */
napi_value NativeCore::VerifyBatch(napi_env env, napi_callback_info info) {
  napi_value args[3];
  NativeCore* self = Arguments(env, info, args);
  uint32_t count = 0;
  double nowMs = 0;
  if (napi_get_value_uint32(env, args[1], &count) != napi_ok ||
      napi_get_value_double(env, args[2], &nowMs) != napi_ok || count > static_cast<uint32_t>(kBatchMax)) {
    return BatchUsage(env);
  }
  const int32_t* spans = self->batchSpans_;
  size_t total = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (spans[i] < 0 || spans[i] > kBatchUnits) return BatchUsage(env);
    total += static_cast<size_t>(spans[i]);
  }
  uint8_t* room = self->core_->scratch(kBatchScratch);
  if (room == nullptr) {
    napi_throw_range_error(env, nullptr, "verifyBatch: out of memory");
    return nullptr;
  }
  char16_t* units = reinterpret_cast<char16_t*>(room);
  size_t copied = 0;
  // Room for one unit more than the spans add up to: a longer string copies it and is refused.
  if (napi_get_value_string_utf16(env, args[0], units, total + 2, &copied) != napi_ok || copied != total) {
    return BatchUsage(env);
  }
  const uint16_t* joined = reinterpret_cast<const uint16_t*>(units);
  // Scanned barcodes are ASCII: then the whole batch is narrowed in one vector
  // pass and byte offsets are unit offsets. From the first other unit on,
  // each barcode is transcoded on its own.
  uint8_t* ascii = room + kBatchAsciiAt;
  uint8_t* utf8 = room + kBatchUtf8At;
  const size_t asciiUnits = asciiPrefix(joined, total, ascii);
  int32_t* slots = self->batchSlots_;
  size_t offset = 0;
  for (uint32_t i = 0; i < count; i++, slots += kBatchStride) {
    const size_t length = static_cast<size_t>(spans[i]);
    // Counters stay 0 unless this barcode matches (the wasm batch does the same).
    slots[kSlotCounterLo] = 0;
    slots[kSlotCounterHi] = 0;
    slots[kBatchCode] = offset + length <= asciiUnits
                            ? self->VerifyUtf8(ascii + offset, length, nowMs, slots)
                            : self->VerifyUtf8(utf8, utf16ToUtf8(joined + offset, length, utf8), nowMs, slots);
    offset += length;
  }
  return nullptr;
}

}  // namespace wpk
