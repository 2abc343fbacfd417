#include "core.h"

#include <cstring>
#include <new>

namespace wpk {

namespace {

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool validKeyHex(const std::string& hex) { return hex.size() % 2 == 0 && hex.size() >= 32 && hex.size() <= 2048; }

/** Decodes `hex` (validKeyHex already) into `out` (1024 bytes); false on a non-hex digit. */
bool decodeHex(const std::string& hex, uint8_t* out, size_t* length) {
  *length = hex.size() / 2;
  bool valid = true;
  for (size_t i = 0; i < *length; i++) {
    const int high = hexValue(hex[2 * i]);
    const int low = hexValue(hex[2 * i + 1]);
    valid = valid && high >= 0 && low >= 0;
    out[i] = static_cast<uint8_t>((high << 4) | (low & 15));
  }
  return valid;
}

bool printableAscii(const std::string& text) {
  for (const char c : text) {
    if (c < 0x21 || c > 0x7e) return false;
  }
  return true;
}

}  // namespace

std::string Core::configure(const CoreConfig& config) {
  if (config.alg != 1 && config.alg != 2) return "algorithm must be 1 (SHA-1) or 2 (SHA-256)";
  if (config.passLength < 1 || config.passLength > 10) return "passLength must be 1 to 10";
  if (!(config.interval >= 1 && config.interval <= 86400) ||
      config.interval != static_cast<double>(static_cast<uint64_t>(config.interval))) {
    return "interval must be an integer from 1 to 86400";
  }
  if (config.sessionLength < 1 || config.sessionLength > 64) return "cardSessionLength must be 1 to 64";
  if (config.window < 0 || config.window > 10) return "window must be 0 to 10";
  if (config.prefix.empty() || config.prefix.size() > kMaxPrefixLength || !printableAscii(config.prefix)) {
    return "prefix must be 1 to 16 printable ASCII characters";
  }
  if (config.delimiter.empty() || config.delimiter.size() > kMaxDelimiterLength || !printableAscii(config.delimiter)) {
    return "delimiter must be 1 to 4 printable ASCII characters";
  }
  if (config.scheme != kSchemeRfc6238 && config.scheme != kSchemeCardBound) {
    return "scheme must be 0 (rfc6238) or 1 (card-bound)";
  }
  const std::string& hex = config.keyHex;
  if (!validKeyHex(hex)) return "key must be hex of 16 to 1024 bytes";
  if (config.previousKeysHex.size() > static_cast<size_t>(kMaxKeys - 1)) return "previousKeys must hold at most 4 keys";
  for (const std::string& previous : config.previousKeysHex) {
    if (!validKeyHex(previous)) return "previousKeys must be hex keys of 16 to 1024 bytes";
  }

  Layout& layout = barcode.layout;
  layout.alg = config.alg == 1 ? Alg::Sha1 : Alg::Sha256;
  layout.passLength = config.passLength;
  layout.intervalSeconds = static_cast<uint64_t>(config.interval);
  layout.sessionLength = config.sessionLength;
  layout.window = config.window;
  std::memcpy(layout.prefix, config.prefix.data(), config.prefix.size());
  layout.prefixLength = static_cast<int>(config.prefix.size());
  std::memcpy(layout.delimiter, config.delimiter.data(), config.delimiter.size());
  layout.delimiterLength = static_cast<int>(config.delimiter.size());
  layout.scheme = config.scheme == kSchemeCardBound ? kSchemeCardBound : kSchemeRfc6238;
  if (!token.setKid(config.kidTail.data(), config.kidTail.size())) return "partnerId is too long";

  uint8_t key[1024];
  size_t keyLength = 0;
  bool valid = decodeHex(hex, key, &keyLength);
  if (valid) {
    hmacKey(layout.alg, barcode.keys[0], key, keyLength);
    token.setPartnerKey(key, keyLength);
    barcode.keyCount = 1;
  }
  for (const std::string& previous : config.previousKeysHex) {
    if (!valid) break;
    valid = decodeHex(previous, key, &keyLength);
    if (valid) hmacKey(layout.alg, barcode.keys[barcode.keyCount++], key, keyLength);
  }
  wipeBytes(key, sizeof key);
  barcode.resetMemo();
  if (!valid) barcode.wipe();
  return valid ? std::string() : "key must be hex";
}

uint8_t* Core::scratch(size_t capacity) {
  if (capacity > scratchCapacity_) {
    scratch_.reset(new (std::nothrow) uint8_t[capacity]);
    scratchCapacity_ = scratch_ ? capacity : 0;
  }
  return scratch_.get();
}

void Core::releaseLargeScratch() {
  if (scratchCapacity_ > kKeptScratch) {
    scratch_.reset();
    scratchCapacity_ = 0;
  }
}

void Core::wipe() {
  barcode.wipe();
  token.wipe();
  wipeBytes(barcodeBytes, sizeof barcodeBytes);
  if (scratch_) wipeBytes(scratch_.get(), scratchCapacity_);  // the last request body
}

}  // namespace wpk
