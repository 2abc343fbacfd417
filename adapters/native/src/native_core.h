// The JS-facing `Core` class: one configured wpk::Core with the int32 slots it
// shares with JS. Its methods live by concept: construction and buffers
// (native_core.cc), barcode verification (native_verify.cc), token signing
// (native_sign.cc).
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>

#include "core.h"

namespace wpk {

class NativeCore : public Napi::ObjectWrap<NativeCore> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit NativeCore(const Napi::CallbackInfo& info);

  /**
   * Barcodes one verifyBatch call takes, and int32 slots per barcode (its VerifyCode at kBatchCode), as the wasm
   * core's.
   */
  static constexpr int kBatchMax = 64;
  static constexpr int kBatchStride = 16;
  static constexpr int kBatchCode = 9;

 private:
  static void Throw(napi_env env, const char* message) { napi_throw_type_error(env, nullptr, message); }

  /** The call's arguments (missing ones are undefined) and the core bound to the function. */
  template <size_t N>
  static NativeCore* Arguments(napi_env env, napi_callback_info info, napi_value (&args)[N]) {
    size_t argc = N;
    void* data = nullptr;
    napi_get_cb_info(env, info, &argc, args, nullptr, &data);
    return static_cast<NativeCore*>(data);
  }

  // native_core.cc
  bool Configure(const Napi::CallbackInfo& info);
  int32_t* Share(Napi::Env env, Napi::Object self, const char* name, int count,
                 Napi::Reference<Napi::ArrayBuffer>* keep);
  void Bind(Napi::Env env, Napi::Object self, const char* name, napi_callback callback);
  Napi::Value Wipe(const Napi::CallbackInfo& info);

  // native_verify.cc
  int VerifyUtf8(const uint8_t* bytes, size_t written, double nowMs, int32_t* slots);
  int VerifyOne(napi_env env, napi_value text, double nowMs, int32_t* slots);
  static napi_value Verify(napi_env env, napi_callback_info info);
  static napi_value VerifyBatch(napi_env env, napi_callback_info info);

  // native_sign.cc
  Napi::Value Sign(const Napi::CallbackInfo& info);

  std::unique_ptr<Core> core_;
  int32_t* slots_ = nullptr;
  Napi::Reference<Napi::ArrayBuffer> result_;
  int32_t* batchSlots_ = nullptr;
  Napi::Reference<Napi::ArrayBuffer> batchResult_;
  int32_t* batchSpans_ = nullptr;
  Napi::Reference<Napi::ArrayBuffer> batchSpansBuffer_;
};

}  // namespace wpk
