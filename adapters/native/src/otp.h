// HOTP/TOTP (RFC 4226, RFC 6238) with a 64-bit counter, optionally bound to a
// card session (the OCRA idea of RFC 6287): the session bytes follow the
// counter in the MAC input.
#pragma once

#include "hmac.h"

namespace wpk {

/**
 * Writes the `digits`-digit code (1..10, zero-padded ASCII) for `counter`
 * under the key in `pads` at `out`. `session` may be empty.
 */
void otpDigits(Alg alg, const Pads& pads, uint64_t counter, const uint8_t* session, size_t sessionLength,
               int digits, uint8_t* out);

/** Compares `length` bytes in time that depends only on `length`; true when equal. */
bool constantTimeEqual(const uint8_t* a, const uint8_t* b, size_t length);

}  // namespace wpk
