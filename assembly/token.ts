// The Pay API token: a JWS (RFC 7515) HS256 with a detached, unencoded payload
// (RFC 7797). The host streams the request body through `tokenUpdate` in
// chunks, so a body of any size is signed without copying it whole.

import { CONFIG, CONFIG_KID, IO, OUT, RANDOM, RANDOM_CAP } from './buffers';
import { TOKEN_PADS } from './config';
import { base64url } from './base64';
import { CTX_SIZE, hashUpdate, SHA256 } from './hash';
import { hmacBegin, hmacEnd } from './hmac';
import { jsonReset, jsonUpdate } from './json';

const CTX: usize = memory.data(<i32>CTX_SIZE, 16);
const HEADER: usize = memory.data(512, 16);
const TAG: usize = memory.data(32, 16);
const DOTS: usize = memory.data<u8>([0x2e, 0x2e]);
const JTI_BYTES: i32 = 16;

// {"alg":"HS256","b64":false,"crit":["b64"],"iat":
const HEAD_BYTES: usize = memory.data<u8>([
  0x7b, 0x22, 0x61, 0x6c, 0x67, 0x22, 0x3a, 0x22, 0x48, 0x53, 0x32, 0x35, 0x36, 0x22, 0x2c, 0x22,
  0x62, 0x36, 0x34, 0x22, 0x3a, 0x66, 0x61, 0x6c, 0x73, 0x65, 0x2c, 0x22, 0x63, 0x72, 0x69, 0x74,
  0x22, 0x3a, 0x5b, 0x22, 0x62, 0x36, 0x34, 0x22, 0x5d, 0x2c, 0x22, 0x69, 0x61, 0x74, 0x22, 0x3a,
]);
const HEAD_LEN: i32 = 48;
// ,"jti":"
const JTI_HEAD: usize = memory.data<u8>([0x2c, 0x22, 0x6a, 0x74, 0x69, 0x22, 0x3a, 0x22]);

let kidLength: i32 = 0;
let randomCursor: i32 = RANDOM_CAP;
let tokenLength: i32 = 0;

/** Sets the header tail (`,"kid":"..."`, JSON-escaped by the host) now in CONFIG. */
export function setTokenKid(len: i32): void {
  kidLength = len;
}

/** The host has refilled RANDOM with fresh CSPRNG bytes. */
export function randomRefilled(): void {
  randomCursor = 0;
}

function writeDecimal(dst: usize, value: u64): i32 {
  let digits = 1;
  for (let v = value / 10; v > 0; v /= 10) digits++;
  for (let i = digits - 1; i >= 0; i--) {
    store<u8>(dst + <usize>i, <u8>(48 + value % 10));
    value /= 10;
  }
  return digits;
}

/**
 * Builds the protected header for `iat` (Unix seconds), writes its base64url
 * form at OUT and starts the MAC. Returns -1 when the random pool needs a
 * refill (call `randomRefilled` and try again), else the header length.
 */
export function tokenBegin(iat: f64): i32 {
  if (randomCursor + JTI_BYTES > RANDOM_CAP) return -1;
  let p = HEADER;
  memory.copy(p, HEAD_BYTES, <usize>HEAD_LEN);
  p += <usize>HEAD_LEN;
  p += <usize>writeDecimal(p, <u64>iat);
  memory.copy(p, JTI_HEAD, 8);
  p += 8;
  const random = RANDOM + <usize>randomCursor;
  p += <usize>base64url(random, JTI_BYTES, p);
  memory.fill(random, 0, <usize>JTI_BYTES);
  randomCursor += JTI_BYTES;
  store<u8>(p, 0x22);
  p += 1;
  memory.copy(p, CONFIG + CONFIG_KID, <usize>kidLength);
  p += <usize>kidLength;
  store<u8>(p, 0x7d);
  p += 1;

  jsonReset();
  tokenLength = base64url(HEADER, <i32>(p - HEADER), OUT);
  hmacBegin(CTX, SHA256, TOKEN_PADS);
  hashUpdate(CTX, SHA256, OUT, tokenLength);
  hashUpdate(CTX, SHA256, DOTS, 1);
  return tokenLength;
}

/** Absorbs the next `len` bytes of the request body from IO, checking them as JSON on the way. */
export function tokenUpdate(len: i32): void {
  jsonUpdate(IO, len);
  hashUpdate(CTX, SHA256, IO, len);
}

/**
 * Finishes the signature; the token (`header..signature`) is at OUT. Returns
 * its length. The host asks `jsonFinish` first and discards the token of a
 * body that is not JSON.
 */
export function tokenFinish(): i32 {
  hmacEnd(CTX, SHA256, TOKEN_PADS, TAG);
  memory.copy(OUT + <usize>tokenLength, DOTS, 2);
  const total = tokenLength + 2 + base64url(TAG, 32, OUT + <usize>tokenLength + 2);
  memory.fill(TAG, 0, 32);
  return total;
}
