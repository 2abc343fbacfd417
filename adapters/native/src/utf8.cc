#include "utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace wpk {

namespace {

/** Encodes the unit(s) at `src[*i]`, advancing `*i` past them; returns the new output end. */
inline uint8_t* encodeOne(const uint16_t* src, size_t length, size_t* i, uint8_t* out) {
  const uint32_t c = src[*i];
  if (c < 0x80) {
    *out++ = static_cast<uint8_t>(c);
    *i += 1;
  } else if (c < 0x800) {
    *out++ = static_cast<uint8_t>(0xc0 | (c >> 6));
    *out++ = static_cast<uint8_t>(0x80 | (c & 0x3f));
    *i += 1;
  } else if ((c & 0xfc00) == 0xd800 && *i + 1 < length && (src[*i + 1] & 0xfc00) == 0xdc00) {
    const uint32_t cp = 0x10000 + ((c - 0xd800) << 10) + (src[*i + 1] - 0xdc00);
    *out++ = static_cast<uint8_t>(0xf0 | (cp >> 18));
    *out++ = static_cast<uint8_t>(0x80 | ((cp >> 12) & 0x3f));
    *out++ = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3f));
    *out++ = static_cast<uint8_t>(0x80 | (cp & 0x3f));
    *i += 2;
  } else {
    const uint32_t unit = (c & 0xf800) == 0xd800 ? 0xfffd : c;  // a lone surrogate
    *out++ = static_cast<uint8_t>(0xe0 | (unit >> 12));
    *out++ = static_cast<uint8_t>(0x80 | ((unit >> 6) & 0x3f));
    *out++ = static_cast<uint8_t>(0x80 | (unit & 0x3f));
    *i += 1;
  }
  return out;
}

}  // namespace

size_t utf16ToUtf8(const uint16_t* src, size_t length, uint8_t* dst) {
  uint8_t* out = dst;
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i nonAscii = _mm_set1_epi16(static_cast<short>(0xff80));
  const __m128i zero = _mm_setzero_si128();
  while (i + 16 <= length) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 8));
    // Two bits per unit, set where the unit is ASCII.
    const unsigned asciiA = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(a, nonAscii), zero)));
    const unsigned asciiB = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(b, nonAscii), zero)));
    // The 16 bytes are stored whole; only the leading ASCII ones count (3 bytes of room per unit left make it safe).
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_packus_epi16(a, b));
    const unsigned ascii = asciiA | (asciiB << 16);
    if (ascii == 0xffffffffu) {
      out += 16;
      i += 16;
      continue;
    }
    const size_t run = static_cast<size_t>(__builtin_ctz(~ascii)) >> 1;
    out += run;
    i += run;
    // Then the non-ASCII run, up to the next ASCII unit.
    do {
      out = encodeOne(src, length, &i, out);
    } while (i < length && src[i] >= 0x80);
  }
#endif
  while (i < length) out = encodeOne(src, length, &i, out);
  return static_cast<size_t>(out - dst);
}

size_t asciiPrefix(const uint16_t* src, size_t length, uint8_t* dst) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i nonAscii = _mm_set1_epi16(static_cast<short>(0xff80));
  const __m128i zero = _mm_setzero_si128();
  while (i + 16 <= length) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 8));
    // One test for the 16 units; the scalar loop below finds the one that stopped it.
    const __m128i high = _mm_and_si128(_mm_or_si128(a, b), nonAscii);
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(high, zero)) != 0xffff) break;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm_packus_epi16(a, b));
    i += 16;
  }
#endif
  for (; i < length && src[i] < 0x80; i++) dst[i] = static_cast<uint8_t>(src[i]);
  return i;
}

}  // namespace wpk
