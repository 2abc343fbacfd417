// The N-API module: `new Core(alg, passLength, interval, sessionLength,
// window, prefix, delimiter, keyHex, kidTail, scheme, previousKeysHex[])` with
// `result` (an ArrayBuffer of 9 int32 slots shared with JS), `verify(barcode, nowMs)`,
// `batchSpans` (kBatchMax int32s), `batchResult` (kBatchMax * kBatchStride
// int32 slots) and `verifyBatch(joined, count, nowMs)`, `sign(requestData, iat)`
// and `wipe()`; plus `selfTest()`.
// Per call, only the string's contents are copied (a barcode's UTF-8 into a
// fixed buffer; a batch's or a body's UTF-16, transcoded here) and one value
// crosses back. The class is in native_core.h.
#include <napi.h>

#include "core.h"
#include "native_core.h"

namespace {

Napi::Value SelfTest(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), wpk::selfTest()); }

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("Core", wpk::NativeCore::Define(env));
  exports.Set("selfTest", Napi::Function::New<SelfTest>(env, "selfTest"));
  return exports;
}

}  // namespace

NODE_API_MODULE(wallet_core, Init)
