// Construction of the JS-facing `Core`: the configuration read from its
// arguments, the ArrayBuffers it shares with JS, and the bound functions the
// per-scan path calls.
#include "native_core.h"

namespace wpk {

Napi::Function NativeCore::Define(Napi::Env env) {
  return DefineClass(env, "Core",
                     {InstanceMethod<&NativeCore::Sign>("sign"), InstanceMethod<&NativeCore::Wipe>("wipe")});
}

NativeCore::NativeCore(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeCore>(info) {
  if (!Configure(info)) return;
  Napi::Env env = info.Env();
  Napi::Object self = info.This().As<Napi::Object>();
  slots_ = Share(env, self, "result", kSlotCount, &result_);
  batchSlots_ = Share(env, self, "batchResult", kBatchMax * kBatchStride, &batchResult_);
  batchSpans_ = Share(env, self, "batchSpans", kBatchMax, &batchSpansBuffer_);
  Bind(env, self, "verify", &NativeCore::Verify);
  Bind(env, self, "verifyBatch", &NativeCore::VerifyBatch);
}

/**
 * Reads `(alg, passLength, interval, sessionLength, window, prefix, delimiter,
 * keyHex, kidTail, scheme, previousKeysHex[])` and configures the core; false
 * with a JS exception pending when they do not fit.
 */
bool NativeCore::Configure(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() != 11 || !info[0].IsNumber() || !info[1].IsNumber() || !info[2].IsNumber() ||
      !info[3].IsNumber() || !info[4].IsNumber() || !info[5].IsString() || !info[6].IsString() ||
      !info[7].IsString() || !info[8].IsString() || !info[9].IsNumber() || !info[10].IsArray()) {
    Napi::TypeError::New(env,
                         "Core(alg, passLength, interval, sessionLength, window, prefix, delimiter, keyHex, kidTail, "
                         "scheme, previousKeysHex)")
        .ThrowAsJavaScriptException();
    return false;
  }
  CoreConfig config;
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
  if (previous.Length() > static_cast<uint32_t>(kMaxKeys - 1)) {
    Napi::RangeError::New(env, "previousKeys must hold at most 4 keys").ThrowAsJavaScriptException();
    return false;
  }
  for (uint32_t i = 0; i < previous.Length(); i++) {
    Napi::Value item = previous.Get(i);
    if (!item.IsString()) {
      Napi::TypeError::New(env, "previousKeysHex must be an array of strings").ThrowAsJavaScriptException();
      return false;
    }
    config.previousKeysHex.push_back(item.As<Napi::String>().Utf8Value());
  }
  core_ = std::make_unique<Core>();
  const std::string error = core_->configure(config);
  if (!error.empty()) {
    core_.reset();
    Napi::RangeError::New(env, error).ThrowAsJavaScriptException();
    return false;
  }
  return true;
}

/**
 * Defines `name` on `self` as a zeroed ArrayBuffer of `count` int32 slots,
 * kept alive by `keep`; returns the slots. Results cross back through these
 * instead of as values built per call.
 */
int32_t* NativeCore::Share(Napi::Env env, Napi::Object self, const char* name, int count,
                           Napi::Reference<Napi::ArrayBuffer>* keep) {
  Napi::ArrayBuffer buffer = Napi::ArrayBuffer::New(env, count * sizeof(int32_t));
  int32_t* slots = static_cast<int32_t*>(buffer.Data());
  for (int i = 0; i < count; i++) slots[i] = 0;
  *keep = Napi::Persistent(buffer);
  self.DefineProperty(Napi::PropertyDescriptor::Value(name, buffer, napi_enumerable));
  return slots;
}

/**
 * Defines `name` on the instance `self` as a function with this core as its
 * data. The function holds `self` (a property GC can follow), so the core
 * outlives every function that can reach it.
 */
void NativeCore::Bind(Napi::Env env, Napi::Object self, const char* name, napi_callback callback) {
  napi_value function;
  napi_create_function(env, name, NAPI_AUTO_LENGTH, callback, this, &function);
  Napi::Object bound(env, function);
  bound.DefineProperty(Napi::PropertyDescriptor::Value("core", self, napi_default));
  self.DefineProperty(Napi::PropertyDescriptor::Value(name, bound, napi_enumerable));
}

Napi::Value NativeCore::Wipe(const Napi::CallbackInfo& info) {
  core_->wipe();
  return info.Env().Undefined();
}

}  // namespace wpk
