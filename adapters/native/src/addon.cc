// The N-API surface: `new Core(alg, passLength, interval, sessionLength,
// window, prefix, delimiter, keyHex, kidTail, scheme, previousKeysHex[])` with
// `result` (an ArrayBuffer of 9 int32 slots shared with JS), `verify(barcode, nowMs)`,
// `batchSpans` (kBatchMax int32s), `batchResult` (kBatchMax * kBatchStride
// int32 slots) and `verifyBatch(joined, count, nowMs)`, `sign(requestData, iat)`
// and `wipe()`; plus `selfTest()`.
// Per call, only the string's contents are copied (a barcode's UTF-8 into a
// fixed buffer; a batch's or a body's UTF-16, transcoded here) and one value
// crosses back.
// `verify` and `verifyBatch` are functions of each instance carrying the core
// as their data: the per-call napi_unwrap of a prototype method (a private
// symbol lookup, as costly as the verification itself on the memoised path) is
// not paid on the path every scan takes.
#include <napi.h>

#include <memory>

#include "core.h"
#include "json.h"
#include "utf8.h"

namespace {

using wpk::Core;

class NativeCore : public Napi::ObjectWrap<NativeCore> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "Core",
                       {InstanceMethod<&NativeCore::Sign>("sign"), InstanceMethod<&NativeCore::Wipe>("wipe")});
  }

  explicit NativeCore(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeCore>(info) {
    Napi::Env env = info.Env();
    if (info.Length() != 11 || !info[0].IsNumber() || !info[1].IsNumber() || !info[2].IsNumber() ||
        !info[3].IsNumber() || !info[4].IsNumber() || !info[5].IsString() || !info[6].IsString() ||
        !info[7].IsString() || !info[8].IsString() || !info[9].IsNumber() || !info[10].IsArray()) {
      Napi::TypeError::New(env,
                           "Core(alg, passLength, interval, sessionLength, window, prefix, delimiter, keyHex, kidTail, "
                           "scheme, previousKeysHex)")
          .ThrowAsJavaScriptException();
      return;
    }
    wpk::CoreConfig config;
    config.alg = info[0].As<Napi::Number>().Int32Value();
    config.passLength = info[1].As<Napi::Number>().Int32Value();
    config.interval = info[2].As<Napi::Number>().DoubleValue();
    config.sessionLength = info[3].As<Napi::Number>().Int32Value();
    config.window = info[4].As<Napi::Number>().Int32Value();
    config.prefix = info[5].As<Napi::String>().Utf8Value();
    config.delimiter = info[6].As<Napi::String>().Utf8Value();
    config.keyHex = info[7].As<Napi::String>().Utf8Value();
    config.kidTail = info[8].As<Napi::String>().Utf8Value();
    config.scheme = info[9].As<Napi::Number>().Int32Value();
    Napi::Array previous = info[10].As<Napi::Array>();
    if (previous.Length() > static_cast<uint32_t>(wpk::kMaxKeys - 1)) {
      Napi::RangeError::New(env, "previousKeys must hold at most 4 keys").ThrowAsJavaScriptException();
      return;
    }
    for (uint32_t i = 0; i < previous.Length(); i++) {
      Napi::Value item = previous.Get(i);
      if (!item.IsString()) {
        Napi::TypeError::New(env, "previousKeysHex must be an array of strings").ThrowAsJavaScriptException();
        return;
      }
      config.previousKeysHex.push_back(item.As<Napi::String>().Utf8Value());
    }
    core_ = std::make_unique<Core>();
    const std::string error = core_->configure(config);
    if (!error.empty()) {
      core_.reset();
      Napi::RangeError::New(env, error).ThrowAsJavaScriptException();
      return;
    }
    Napi::ArrayBuffer result = Napi::ArrayBuffer::New(env, wpk::kSlotCount * sizeof(int32_t));
    slots_ = static_cast<int32_t*>(result.Data());
    for (int i = 0; i < wpk::kSlotCount; i++) slots_[i] = 0;
    result_ = Napi::Persistent(result);
    info.This().As<Napi::Object>().DefineProperty(Napi::PropertyDescriptor::Value("result", result, napi_enumerable));
    Napi::ArrayBuffer batch = Napi::ArrayBuffer::New(env, kBatchMax * kBatchStride * sizeof(int32_t));
    batchSlots_ = static_cast<int32_t*>(batch.Data());
    for (int i = 0; i < kBatchMax * kBatchStride; i++) batchSlots_[i] = 0;
    batchResult_ = Napi::Persistent(batch);
    info.This().As<Napi::Object>().DefineProperty(Napi::PropertyDescriptor::Value("batchResult", batch, napi_enumerable));
    Napi::ArrayBuffer spans = Napi::ArrayBuffer::New(env, kBatchMax * sizeof(int32_t));
    batchSpans_ = static_cast<int32_t*>(spans.Data());
    for (int i = 0; i < kBatchMax; i++) batchSpans_[i] = 0;
    batchSpansBuffer_ = Napi::Persistent(spans);
    info.This().As<Napi::Object>().DefineProperty(Napi::PropertyDescriptor::Value("batchSpans", spans, napi_enumerable));
    Bind(env, info.This().As<Napi::Object>(), "verify", &NativeCore::Verify);
    Bind(env, info.This().As<Napi::Object>(), "verifyBatch", &NativeCore::VerifyBatch);
  }

 private:
  /** Barcodes one verifyBatch call takes, and int32 slots per barcode (its VerifyCode at kBatchCode), as the wasm core's. */
  static constexpr int kBatchMax = 64;
  static constexpr int kBatchStride = 16;
  static constexpr int kBatchCode = 9;
  /**
   * UTF-16 units of a barcode a batch reads at most: one past the cap. Those
   * 1,025 units make at least 1,025 bytes, so the barcode counts as truncated
   * and the whole characters within 1,024 bytes are all among them: the rest
   * of a longer barcode cannot change its result.
   */
  static constexpr int kBatchUnits = wpk::kBarcodeCap + 1;
  /**
   * Scratch of a batch: its joined UTF-16 (two units spare, so a string
   * longer than its spans say shows), the ASCII bytes of it, and the UTF-8
   * of one barcode that is not ASCII (3 bytes a unit).
   */
  static constexpr size_t kBatchJoinedUnits = kBatchMax * kBatchUnits + 2;
  static constexpr size_t kBatchAsciiAt = kBatchJoinedUnits * sizeof(char16_t);
  static constexpr size_t kBatchUtf8At = kBatchAsciiAt + kBatchJoinedUnits;
  static constexpr size_t kBatchScratch = kBatchUtf8At + kBatchUnits * 3;

  /** Bodies up to this many UTF-16 units are transcoded here (5 bytes of scratch a unit); larger ones by V8, exactly sized. */
  static constexpr size_t kUtf16MaxUnits = 256 * 1024;

  static void Throw(napi_env env, const char* message) { napi_throw_type_error(env, nullptr, message); }

  static Napi::Value OutOfMemory(napi_env env) {
    napi_throw_range_error(env, nullptr, "sign: requestData is too large to copy");
    return Napi::Value();
  }

  /**
   * Defines `name` on the instance `self` as a function with this core as its
   * data. The function holds `self` (a property GC can follow), so the core
   * outlives every function that can reach it.
   */
  void Bind(Napi::Env env, Napi::Object self, const char* name, napi_callback callback) {
    napi_value function;
    napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, this, &function);
    Napi::Object bound(env, function);
    bound.DefineProperty(Napi::PropertyDescriptor::Value("core", self, napi_default));
    self.DefineProperty(Napi::PropertyDescriptor::Value(name, bound, napi_enumerable));
  }

  /** The call's arguments (missing ones are undefined) and the core bound to the function. */
  template <size_t N>
  static NativeCore* Arguments(napi_env env, napi_callback_info info, napi_value (&args)[N]) {
    size_t argc = N;
    void* data = nullptr;
    napi_get_cb_info(env, info, &argc, args, nullptr, &data);
    return static_cast<NativeCore*>(data);
  }

  /**
   * Verifies the `written` UTF-8 bytes at `bytes` into `slots`; returns the
   * VerifyCode. Past kBarcodeCap bytes the input counts as truncated to the
   * whole characters within the cap, as TextEncoder.encodeInto into the wasm
   * core's 1,024-byte buffer leaves it.
   */
  int VerifyUtf8(const uint8_t* bytes, size_t written, double nowMs, int32_t* slots) {
    int length = static_cast<int>(written);
    const bool truncated = written > static_cast<size_t>(wpk::kBarcodeCap);
    if (truncated) {
      length = wpk::kBarcodeCap;
      while (length > 0 && (bytes[length] & 0xc0) == 0x80) length--;
    }
    return core_->barcode.verify(bytes, length, truncated, nowMs, slots);
  }

  /** Copies the string `text` in and verifies it into `slots`; the VerifyCode, or -1 when `text` is not a string. */
  int VerifyOne(napi_env env, napi_value text, double nowMs, int32_t* slots) {
    uint8_t* bytes = core_->barcodeBytes;
    size_t written = 0;
    // The buffer holds a few bytes more than the wasm core's 1024, so up to
    // 1024 bytes are written whole and a longer input shows as more.
    if (napi_get_value_string_utf8(env, text, reinterpret_cast<char*>(bytes), Core::kBarcodeBuffer, &written) != napi_ok) {
      return -1;
    }
    return VerifyUtf8(bytes, written, nowMs, slots);
  }

  static napi_value Verify(napi_env env, napi_callback_info info) {
    napi_value args[2];
    NativeCore* self = Arguments(env, info, args);
    double nowMs = 0;
    const int code = napi_get_value_double(env, args[1], &nowMs) == napi_ok ? self->VerifyOne(env, args[0], nowMs, self->slots_) : -1;
    if (code < 0) {
      Throw(env, "verify(fullBarcode: string, nowMs: number)");
      return nullptr;
    }
    napi_value result;
    napi_create_int32(env, code, &result);
    return result;
  }

  static napi_value BatchUsage(napi_env env) {
    Throw(env, "verifyBatch(joined: string, count: number, nowMs: number): batchSpans[0..count) must hold 0 to 1025 "
               "and add up to joined.length");
    return nullptr;
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
  static napi_value VerifyBatch(napi_env env, napi_callback_info info) {
    napi_value args[3];
    NativeCore* self = Arguments(env, info, args);
    uint32_t count = 0;
    double nowMs = 0;
    if (napi_get_value_uint32(env, args[1], &count) != napi_ok || napi_get_value_double(env, args[2], &nowMs) != napi_ok ||
        count > static_cast<uint32_t>(kBatchMax)) {
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
    const size_t asciiUnits = wpk::asciiPrefix(joined, total, ascii);
    int32_t* slots = self->batchSlots_;
    size_t offset = 0;
    for (uint32_t i = 0; i < count; i++, slots += kBatchStride) {
      const size_t length = static_cast<size_t>(spans[i]);
      // Counters stay 0 unless this barcode matches (the wasm batch does the same).
      slots[wpk::kSlotCounterLo] = 0;
      slots[wpk::kSlotCounterHi] = 0;
      slots[kBatchCode] = offset + length <= asciiUnits
                              ? self->VerifyUtf8(ascii + offset, length, nowMs, slots)
                              : self->VerifyUtf8(utf8, wpk::utf16ToUtf8(joined + offset, length, utf8), nowMs, slots);
      offset += length;
    }
    return nullptr;
  }

  Napi::Value Sign(const Napi::CallbackInfo& info) {
    napi_env env = info.Env();
    napi_value text = info[0];
    size_t units = 0;
    double iat = 0;
    if (napi_get_value_string_utf16(env, text, nullptr, 0, &units) != napi_ok ||
        napi_get_value_double(env, info[1], &iat) != napi_ok) {
      Throw(env, "sign(requestData: string, iat: number)");
      return Napi::Value();
    }
    char token[wpk::kTokenCap];
    size_t tokenLength = 0;
    uint8_t* body = nullptr;
    size_t length = 0;
    if (units <= kUtf16MaxUnits) {
      // The units are copied as they are (a memcpy in V8) and transcoded here, ASCII runs 16 at a time.
      const size_t utf16Bytes = (units + 1) * sizeof(char16_t);
      uint8_t* room = core_->scratch(utf16Bytes + 3 * units + wpk::kJsonPadding);
      if (room == nullptr) return OutOfMemory(env);
      char16_t* utf16 = reinterpret_cast<char16_t*>(room);
      napi_get_value_string_utf16(env, text, utf16, units + 1, &units);
      body = room + utf16Bytes;
      length = wpk::utf16ToUtf8(reinterpret_cast<const uint16_t*>(utf16), units, body);
    } else {
      // A huge body: V8 encodes it straight into a buffer of the exact size.
      size_t exact = 0;
      napi_get_value_string_utf8(env, text, nullptr, 0, &exact);
      body = core_->scratch(exact + wpk::kJsonPadding);
      if (body == nullptr) return OutOfMemory(env);
      napi_get_value_string_utf8(env, text, reinterpret_cast<char*>(body), exact + 1, &length);
    }
    body[length] = 0;  // the validator's end mark
    const int64_t outcome = core_->token.sign(body, length, iat, token, &tokenLength);
    core_->releaseLargeScratch();
    napi_value result;
    if (outcome == wpk::TokenSigner::kRandomFailed) {
      napi_throw_error(env, nullptr, "sign: the CSPRNG (RAND_bytes) failed");
      return Napi::Value();
    }
    if (outcome >= 0) {
      napi_create_double(env, static_cast<double>(outcome), &result);
    } else {
      napi_create_string_latin1(env, token, tokenLength, &result);
    }
    return Napi::Value(env, result);
  }

  Napi::Value Wipe(const Napi::CallbackInfo& info) {
    core_->wipe();
    return info.Env().Undefined();
  }

  std::unique_ptr<Core> core_;
  int32_t* slots_ = nullptr;
  Napi::Reference<Napi::ArrayBuffer> result_;
  int32_t* batchSlots_ = nullptr;
  Napi::Reference<Napi::ArrayBuffer> batchResult_;
  int32_t* batchSpans_ = nullptr;
  Napi::Reference<Napi::ArrayBuffer> batchSpansBuffer_;
};

Napi::Value SelfTest(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), wpk::selfTest()); }

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("Core", NativeCore::Define(env));
  exports.Set("selfTest", Napi::Function::New<SelfTest>(env, "selfTest"));
  return exports;
}

}  // namespace

NODE_API_MODULE(wallet_core, Init)
