// Token signing through the JS-facing `Core`: `sign(requestData, iat)`. Only
// the body's contents are copied in (its UTF-16, transcoded here) and one
// value crosses back: the token, or the number the signer answers instead.
#include "json.h"
#include "native_core.h"
#include "utf8.h"

namespace wpk {

namespace {

/**
 * Bodies up to this many UTF-16 units are transcoded here (5 bytes of scratch a unit); larger ones by V8, exactly
 * sized.
 */
constexpr size_t kUtf16MaxUnits = 256 * 1024;

Napi::Value OutOfMemory(napi_env env) {
  napi_throw_range_error(env, nullptr, "sign: requestData is too large to copy");
  return Napi::Value();
}

}  // namespace

Napi::Value NativeCore::Sign(const Napi::CallbackInfo& info) {
  napi_env env = info.Env();
  napi_value text = info[0];
  size_t units = 0;
  double iat = 0;
  if (napi_get_value_string_utf16(env, text, nullptr, 0, &units) != napi_ok ||
      napi_get_value_double(env, info[1], &iat) != napi_ok) {
    Throw(env, "sign(requestData: string, iat: number)");
    return Napi::Value();
  }
  char token[kTokenCap];
  size_t tokenLength = 0;
  uint8_t* body = nullptr;
  size_t length = 0;
  if (units <= kUtf16MaxUnits) {
    // The units are copied as they are (a memcpy in V8) and transcoded here, ASCII runs 16 at a time.
    const size_t utf16Bytes = (units + 1) * sizeof(char16_t);
    uint8_t* room = core_->scratch(utf16Bytes + 3 * units + kJsonPadding);
    if (room == nullptr) return OutOfMemory(env);
    char16_t* utf16 = reinterpret_cast<char16_t*>(room);
    napi_get_value_string_utf16(env, text, utf16, units + 1, &units);
    body = room + utf16Bytes;
    length = utf16ToUtf8(reinterpret_cast<const uint16_t*>(utf16), units, body);
  } else {
    // A huge body: V8 encodes it straight into a buffer of the exact size.
    size_t exact = 0;
    napi_get_value_string_utf8(env, text, nullptr, 0, &exact);
    body = core_->scratch(exact + kJsonPadding);
    if (body == nullptr) return OutOfMemory(env);
    napi_get_value_string_utf8(env, text, reinterpret_cast<char*>(body), exact + 1, &length);
  }
  body[length] = 0;  // the validator's end mark
  const int64_t outcome = core_->token.sign(body, length, iat, token, &tokenLength);
  core_->releaseLargeScratch();
  napi_value result;
  if (outcome == TokenSigner::kRandomFailed) {
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

}  // namespace wpk
